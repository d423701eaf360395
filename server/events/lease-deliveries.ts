import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/**
 * Leases due delivery tasks the way server/db/lease.ts leases rows (`locked_by` until
 * `locked_until`, never a row another worker holds), with two conditions its generic lease cannot
 * say:
 *
 * - **Per destination** (a channel and a merchant: `webhook:<merchant id>`): at most `cap[d]` tasks
 *   of destination `d` (`perDestination` when absent) are leased at once, counting every worker's
 *   leases (other runs and other instances too), so a slow receiver's tasks never take more than
 *   their share anywhere. (Two workers leasing at the same instant each count only the other's
 *   committed leases: for that moment the bound is each one's.) The `excluded` destinations get
 *   none.
 * - **Per order**: a task is not leased while an earlier task (a lower id) of the same order and
 *   channel is still to be sent (due) or being sent (leased by anyone). So an order's events go
 *   out one at a time in the order they were written, across instances; an earlier task waiting
 *   for its retry does not hold later ones back.
 *
 * One pass over the due tasks decides both: each order's first due task is the only one of the
 * order that may go (and only when no one holds it), and the leases held are counted per
 * destination. The cost grows with the backlog, not with its square, and does not hang on the
 * planner's guesses (a check per task against every earlier one cost 150 ms a lease at 1,000 due).
 * A leased task is a due one (it was leased because it was; clocks in step), so the due tasks
 * include every task being sent.
 */
export async function leaseDueDeliveries(
  deps: Pick<Deps, 'db' | 'clock'>,
  opts: {
    owner: string;
    seconds: number;
    limit: number;
    perDestination: number;
    cap: ReadonlyMap<string, number>;
    excluded: readonly string[];
  },
): Promise<{ id: string; destination: string }[]> {
  const now = deps.clock();
  return deps.db.sequelize.query<{ id: string; destination: string }>(
    `WITH due AS MATERIALIZED (
       SELECT d.id, d.channel, d.next_attempt_at, e.order_id, d.channel || ':' || e.merchant_id AS destination,
              COALESCE(d.locked_until >= :now, false) AS leased
         FROM event_deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= :now),
     first_of_order AS (
       SELECT DISTINCT ON (order_id, channel) id FROM due
        WHERE order_id IS NOT NULL
        ORDER BY order_id, channel, id),
     held AS (
       SELECT destination, count(*) AS n FROM due WHERE leased GROUP BY destination),
     ranked AS (
       SELECT id, next_attempt_at, destination,
              row_number() OVER (PARTITION BY destination ORDER BY next_attempt_at, id) AS place
         FROM due
        WHERE NOT leased AND destination NOT IN (:excluded)
          AND (order_id IS NULL OR id IN (SELECT id FROM first_of_order))),
     chosen AS (
       SELECT r.id, r.destination FROM ranked r LEFT JOIN held h ON h.destination = r.destination
        WHERE r.place <= COALESCE(CAST(CAST(:cap AS jsonb) ->> r.destination AS int), :perDestination)
                         - COALESCE(h.n, 0)
        ORDER BY r.next_attempt_at, r.id
        LIMIT :limit)
     UPDATE event_deliveries SET locked_until = :until, locked_by = :owner
       FROM chosen
      WHERE event_deliveries.id = chosen.id
        -- Another worker may have taken one since this statement began: skipped, never waited for.
        AND event_deliveries.id IN (
          SELECT id FROM event_deliveries
           WHERE id IN (SELECT id FROM chosen) AND status = 'PENDING'
             AND (locked_until IS NULL OR locked_until < :now)
             FOR UPDATE SKIP LOCKED)
      RETURNING event_deliveries.id, chosen.destination`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        now,
        until: new Date(now.getTime() + opts.seconds * 1000),
        owner: opts.owner,
        limit: opts.limit,
        perDestination: opts.perDestination,
        cap: JSON.stringify(Object.fromEntries(opts.cap)),
        // NOT IN () is not SQL: a name no destination has stands in for none.
        excluded: opts.excluded.length > 0 ? opts.excluded : [''],
      },
    },
  );
}

/** A lease long enough for one send (its timeout) plus recording; an expired lease is taken over. */
export const leaseSeconds = (deps: Pick<Deps, 'config'>) =>
  (deps.config.WEBHOOK_TIMEOUT_MS + deps.config.WEBHOOK_LEASE_GRACE_MS) / 1000;
