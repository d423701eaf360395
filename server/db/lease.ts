import { QueryTypes } from 'sequelize';
import type { Database } from './database';

/**
 * The one way background work is shared between instances: a row of work (a delivery, an e-mail,
 * a claim, a refund, a subscription to bill, a scan cursor) is leased by a worker (`locked_by`) until `locked_until`; the holder
 * renews it while it works, and its writes only land while it still holds it. A worker that dies
 * loses its leases when they run out; one that stalls past its lease finds its renewal and its
 * writes refused. Times come from the job clock, so tests drive leases with it.
 *
 * Callers say which rows by typed conditions; the SQL is written here alone, from the table
 * descriptions below (names, never input).
 */
const TABLES = {
  event_deliveries: { due: 'next_attempt_at', key: ['id'] },
  email_deliveries: { due: 'next_attempt_at', key: ['id'] },
  payment_claims: { due: 'next_check_at', key: ['id'] },
  refunds: { due: 'next_check_at', key: ['id'] },
  subscriptions: { due: 'next_run_at', key: ['id'] },
  scan_cursors: { due: null, key: ['network', 'address'] },
} as const;

export type LeasedTable = keyof typeof TABLES;
/** Tables whose work falls due at a time (a status among some, and its due column reached). */
export type DueTable =
  'event_deliveries' | 'email_deliveries' | 'payment_claims' | 'refunds' | 'subscriptions';

/** The columns a lease may return or a release may write, per table. */
type Columns = {
  event_deliveries: { id: string; status: string; next_attempt_at: Date };
  email_deliveries: {
    id: string;
    status: string;
    attempt: number;
    next_attempt_at: Date;
    to_address: string;
    subject: string;
    text: string;
    html: string;
  };
  payment_claims: { id: string; network: string; tx_id: string; status: string; next_check_at: Date };
  refunds: { id: string; status: string; next_check_at: Date };
  subscriptions: { id: string; status: string; next_run_at: Date };
  scan_cursors: { network: string; address: string; cursor: string | null; scanned_at: Date | null };
};

/** A leased row's key: the columns that name it. */
export type LeaseKey<T extends LeasedTable> = T extends 'scan_cursors'
  ? { network: string; address: string }
  : { id: string };

/** Structurally the services' deps: the database and the job clock. */
type Db = { db: Pick<Database, 'sequelize'>; clock: () => Date };
type Holder = { owner: string; seconds: number };

const until = (db: Db, seconds: number) => new Date(db.clock().getTime() + seconds * 1000);
/** A column name as the statements write it; names come from the types above, checked anyway. */
function column(name: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a column name: ${name}`);
  return `"${name}"`;
}
const columnList = (names: readonly string[]) => names.map(column).join(', ');

/** Takes up to `limit` free rows matched by `match` (SQL over the table, with `replacements`). */
async function take<Row extends object>(
  db: Db,
  table: LeasedTable,
  lease: Holder & { match: string; order: string; limit: number; returning: readonly string[] },
  replacements: Record<string, unknown>,
): Promise<Row[]> {
  // SKIP LOCKED lets instances take disjoint batches at once.
  return db.db.sequelize.query<Row>(
    `UPDATE ${table} SET locked_until = :until, locked_by = :owner
      WHERE ctid IN (
        SELECT ctid FROM ${table}
         WHERE (${lease.match}) AND (locked_until IS NULL OR locked_until < :now)
         ORDER BY ${lease.order}
         LIMIT :limit
         FOR UPDATE SKIP LOCKED)
      RETURNING ${columnList(lease.returning)}`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        ...replacements,
        now: db.clock(),
        until: until(db, lease.seconds),
        owner: lease.owner,
        limit: lease.limit,
      },
    },
  );
}

/** A job's batch: how many rows at most, the worker that leases them, and its lane (a network). */
export type JobBatch = { batchSize: number; owner: string; network?: string };

/** A job's batch of due rows (leaseDueRows), held by `batch.owner` for the job lease (JOB_LEASE_SECONDS). */
export function leaseJobBatch<T extends DueTable, C extends keyof Columns[T] & string>(
  db: Db & { config: { JOB_LEASE_SECONDS: number } },
  batch: JobBatch,
  rows: { table: T; statuses: readonly string[]; returning: readonly C[] },
): Promise<Pick<Columns[T], C>[]> {
  return leaseDueRows(db, {
    ...rows,
    network: batch.network,
    limit: batch.batchSize,
    owner: batch.owner,
    seconds: db.config.JOB_LEASE_SECONDS,
  });
}

/** Leases up to `limit` rows of `table` in one of `statuses` whose due time has come, earliest first. */
export function leaseDueRows<T extends DueTable, C extends keyof Columns[T] & string>(
  db: Db,
  opts: Holder & {
    table: T;
    statuses: readonly string[];
    limit: number;
    returning: readonly C[];
    /** Only rows of this network (a job's lane). */
    network?: string;
  },
): Promise<Pick<Columns[T], C>[]> {
  const due = TABLES[opts.table].due;
  const network = opts.network === undefined ? '' : ' AND network = :network';
  return take(
    db,
    opts.table,
    { ...opts, match: `status IN (:statuses) AND "${due}" <= :now${network}`, order: `"${due}"` },
    { statuses: opts.statuses, network: opts.network },
  );
}

/** Leases the scan cursors of these addresses on `network` (rows that exist; missing ones are not made). */
export function leaseScanCursors(
  db: Db,
  opts: Holder & { network: string; addresses: string[] },
): Promise<Pick<Columns['scan_cursors'], 'address' | 'cursor' | 'scanned_at'>[]> {
  return take(
    db,
    'scan_cursors',
    {
      ...opts,
      match: 'network = :network AND address IN (:addresses)',
      order: 'address',
      limit: opts.addresses.length,
      returning: ['address', 'cursor', 'scanned_at'],
    },
    { network: opts.network, addresses: opts.addresses },
  );
}

/** `WHERE` over a row's key columns, with its values as replacements prefixed `key_`. */
function keyCondition<T extends LeasedTable>(table: T, key: LeaseKey<T>) {
  const values = key as Record<string, unknown>;
  const names = TABLES[table].key;
  return {
    sql: names.map((name) => `${column(name)} = :key_${name}`).join(' AND '),
    replacements: Object.fromEntries(names.map((name) => [`key_${name}`, values[name]])),
  };
}

/** Extends a lease this worker holds; false when it no longer holds it (it must stop). */
export async function renewLease<T extends LeasedTable>(
  db: Db,
  opts: Holder & { table: T; key: LeaseKey<T> },
): Promise<boolean> {
  const key = keyCondition(opts.table, opts.key);
  const rows = await db.db.sequelize.query(
    `UPDATE ${opts.table} SET locked_until = :until WHERE ${key.sql} AND locked_by = :owner RETURNING 1`,
    {
      type: QueryTypes.SELECT,
      replacements: { ...key.replacements, until: until(db, opts.seconds), owner: opts.owner },
    },
  );
  return rows.length > 0;
}

/**
 * Writes `set` and gives the lease up, only if this worker still holds it: a worker that lost its
 * lease cannot overwrite what the new holder did. Returns whether it wrote.
 */
export async function releaseLease<T extends LeasedTable>(
  db: Pick<Db, 'db'>,
  opts: { table: T; key: LeaseKey<T>; owner: string; set?: Partial<Columns[T]> },
): Promise<boolean> {
  const key = keyCondition(opts.table, opts.key);
  const set = Object.entries(opts.set ?? {});
  const rows = await db.db.sequelize.query(
    `UPDATE ${opts.table}
        SET ${set.map(([name]) => `${column(name)} = :set_${name}, `).join('')}locked_until = NULL, locked_by = NULL
      WHERE ${key.sql} AND locked_by = :owner RETURNING 1`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        ...key.replacements,
        ...Object.fromEntries(set.map(([name, value]) => [`set_${name}`, value])),
        owner: opts.owner,
      },
    },
  );
  return rows.length > 0;
}
