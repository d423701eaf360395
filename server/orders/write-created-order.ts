import type { Deps } from '../deps';
import { createWriteBatcher } from '../lib/write-batcher';
import {
  insertCreatedOrder,
  insertCreatedOrders,
  type CreatedOrderRows,
  type InsertOutcome,
} from './insert-created-order';

/** Orders written by one statement at most: beyond this, the statement's size outgrows the gain. */
const MAX_BATCH = 32;

/** One batcher per app (its deps): statements go to that app's database. */
const batchers = new WeakMap<object, (rows: CreatedOrderRows) => Promise<InsertOutcome>>();

/**
 * Writes a new order's rows, in a statement shared with the creations running at the same time
 * when there are any (server/lib/write-batcher.ts): alone while the service is quiet; under load,
 * the creations that arrive while earlier ones are being written leave together. At most half the
 * pool's connections write orders at once, the rest stay for everything else.
 */
export function writeCreatedOrder(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'metrics'>,
  rows: CreatedOrderRows,
): Promise<InsertOutcome> {
  let write = batchers.get(deps);
  if (!write) {
    write = createWriteBatcher<CreatedOrderRows, InsertOutcome>({
      writeOne: (one) => insertCreatedOrder(deps, one),
      writeMany: (many) => insertCreatedOrders(deps, many),
      // One statement cannot reserve one amount or claim one key twice: such orders go one by one.
      conflictKeys: (one) => [
        ...(one.reservation
          ? [
              `amount ${String(one.order.network)} ${String(one.order.recipient)} ${String(one.order.tokenMint)} ${String(one.order.amountUnits)}`,
            ]
          : []),
        ...(one.idempotency ? [`key ${one.idempotency.scope.merchantId} ${one.idempotency.scope.key}`] : []),
      ],
      maxInFlight: Math.max(1, Math.floor(deps.config.DB_POOL_MAX / 2)),
      maxBatch: MAX_BATCH,
      onBatch: (size) => deps.metrics.orderWriteBatch.observe(size),
    });
    batchers.set(deps, write);
  }
  return write(rows);
}
