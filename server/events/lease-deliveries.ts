import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/**
 * Leases due delivery tasks the way server/db/lease.ts leases rows (`locked_by` until
 * `locked_until`, SKIP LOCKED so instances take disjoint sets), with two conditions its generic
 * lease cannot say:
 *
 * - **Per destination** (a channel and a merchant: `webhook:<merchant id>`): at most `room[d]`
 *   tasks of destination `d` (`perDestination` when absent), and none of the `excluded` ones, which
 *   are left out before the scan's limit, so a merchant whose receiver is slow and whose backlog is
 *   at the head of the queue never hides the others' tasks behind it.
 * - **Per order**: a task is not leased while an earlier task (a lower id) of the same order and
 *   channel is still to be sent (due) or being sent (leased by anyone). So an order's events go
 *   out one at a time in the order they were written, across instances, as the one-batch-at-a-time
 *   sender did; an earlier task waiting for its retry does not hold later ones back (as before).
 */
export async function leaseDueDeliveries(
  deps: Pick<Deps, 'db' | 'clock'>,
  opts: {
    owner: string;
    seconds: number;
    limit: number;
    perDestination: number;
    room: ReadonlyMap<string, number>;
    excluded: readonly string[];
  },
): Promise<{ id: string; destination: string }[]> {
  const now = deps.clock();
  return deps.db.sequelize.query<{ id: string; destination: string }>(
    `UPDATE event_deliveries SET locked_until = :until, locked_by = :owner
       FROM (
         SELECT id, destination FROM (
           SELECT c.id, c.next_attempt_at, c.destination,
                  row_number() OVER (PARTITION BY c.destination ORDER BY c.next_attempt_at, c.id) AS place
             FROM (
               SELECT d.id, d.next_attempt_at, d.channel || ':' || e.merchant_id AS destination
                 FROM event_deliveries d JOIN events e ON e.id = d.event_id
                WHERE d.status = 'PENDING' AND d.next_attempt_at <= :now
                  AND (d.locked_until IS NULL OR d.locked_until < :now)
                  AND d.channel || ':' || e.merchant_id NOT IN (:excluded)
                  AND NOT EXISTS (
                    SELECT 1 FROM events pe JOIN event_deliveries pd ON pd.event_id = pe.id
                     WHERE pe.order_id = e.order_id AND pd.channel = d.channel AND pd.id < d.id
                       AND pd.status = 'PENDING' AND (pd.next_attempt_at <= :now OR pd.locked_until >= :now))
                ORDER BY d.next_attempt_at, d.id
                LIMIT :scan
                FOR UPDATE OF d SKIP LOCKED) c) ranked
          WHERE place <= COALESCE(CAST(CAST(:room AS jsonb) ->> destination AS int), :perDestination)
          ORDER BY next_attempt_at, id
          LIMIT :limit) chosen
      WHERE event_deliveries.id = chosen.id
      RETURNING event_deliveries.id, chosen.destination`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        now,
        until: new Date(now.getTime() + opts.seconds * 1000),
        owner: opts.owner,
        limit: opts.limit,
        // Enough candidates that one destination's share still leaves the others some.
        scan: opts.limit * 4,
        perDestination: opts.perDestination,
        room: JSON.stringify(Object.fromEntries(opts.room)),
        // NOT IN () is not SQL: a name no destination has stands in for none.
        excluded: opts.excluded.length > 0 ? opts.excluded : [''],
      },
    },
  );
}
