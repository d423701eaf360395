import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/**
 * The one way background work is shared between instances: a row of work (a delivery, a claim, a
 * scan cursor) is leased by a worker (`locked_by`) until `locked_until`; the holder renews it while
 * it works, and its writes only land while it still holds it. A worker that dies loses its leases
 * when they run out; one that stalls past its lease finds its renewal and its writes refused.
 * Times come from the job clock (deps.clock), so tests drive leases with it.
 */
export type LeasedTable = 'event_deliveries' | 'payment_claims' | 'scan_cursors' | 'refunds';

type Db = Pick<Deps, 'db' | 'clock'>;

const until = (deps: Db, seconds: number) => new Date(deps.clock().getTime() + seconds * 1000);

/**
 * Leases up to `limit` free rows of `table` matching `where` (SQL over the table's columns, with
 * `:name` replacements), in `order`. SKIP LOCKED lets instances take disjoint batches at once.
 */
export async function takeLeases<Row extends object>(
  deps: Db,
  opts: {
    table: LeasedTable;
    where: string;
    order: string;
    limit: number;
    owner: string;
    seconds: number;
    returning: string;
    replacements?: Record<string, unknown>;
  },
): Promise<Row[]> {
  return deps.db.sequelize.query<Row>(
    `UPDATE ${opts.table} SET locked_until = :until, locked_by = :owner
      WHERE ctid IN (
        SELECT ctid FROM ${opts.table}
         WHERE (${opts.where}) AND (locked_until IS NULL OR locked_until < :now)
         ORDER BY ${opts.order}
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      RETURNING ${opts.returning}`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        ...opts.replacements,
        now: deps.clock(),
        until: until(deps, opts.seconds),
        owner: opts.owner,
        limit: opts.limit,
      },
    },
  );
}

/** A lease this worker took: its row (`key`, with its `replacements`) and the worker's name. */
type HeldLease = { table: LeasedTable; key: string; replacements: Record<string, unknown>; owner: string };

/** Extends a lease this worker holds; false when it no longer holds it (it must stop). */
export async function renewLease(deps: Db, opts: HeldLease & { seconds: number }): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `UPDATE ${opts.table} SET locked_until = :until WHERE (${opts.key}) AND locked_by = :owner RETURNING 1`,
    {
      type: QueryTypes.SELECT,
      replacements: { ...opts.replacements, until: until(deps, opts.seconds), owner: opts.owner },
    },
  );
  return rows.length > 0;
}

/**
 * Writes `set` and gives the lease up, only if this worker still holds it: a worker that lost its
 * lease cannot overwrite what the new holder did. Returns whether it wrote.
 */
export async function releaseLease(deps: Db, opts: HeldLease & { set?: string }): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `UPDATE ${opts.table} SET ${opts.set ? `${opts.set}, ` : ''}locked_until = NULL, locked_by = NULL
      WHERE (${opts.key}) AND locked_by = :owner RETURNING 1`,
    { type: QueryTypes.SELECT, replacements: { ...opts.replacements, owner: opts.owner } },
  );
  return rows.length > 0;
}
