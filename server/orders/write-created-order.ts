import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Metrics } from '../lib/metrics';
import { createWriteBatcher } from '../lib/write-batcher';
import type { CreatedOrder, InsertOutcome } from './created-order';
import { insertCreatedOrders } from './insert-created-order';

/** Orders written by one statement at most: beyond this, the statement's size outgrows the gain. */
const MAX_BATCH = 32;

export type OrderWriter = (order: CreatedOrder) => Promise<InsertOutcome>;

/**
 * Writes each new order in a statement shared with the creations running at the same time, when
 * there are any (server/lib/write-batcher.ts): alone while the service is quiet; under load, the
 * creations that arrive while earlier ones are being written leave together. At most half the
 * pool's connections write orders at once, the rest stay for everything else. One per app, in
 * its Deps.
 */
export function createOrderWriter(deps: {
  db: Database;
  clock: () => Date;
  config: Pick<Config, 'DB_POOL_MAX'>;
  metrics: Pick<Metrics, 'orderWriteBatch'>;
}): OrderWriter {
  return createWriteBatcher<CreatedOrder, InsertOutcome>({
    writeMany: (many) => insertCreatedOrders(deps, many),
    writeOne: async (one) => (await insertCreatedOrders(deps, [one]))[0]!,
    // One statement cannot reserve one amount or claim one key twice: such orders go one by one.
    conflictKeys: ({ order, reservation, idempotency }) => [
      ...(reservation
        ? [order, ...(order.paymentOptions ?? [])].map(
            (o) => `amount ${o.network} ${o.recipient} ${o.tokenMint} ${o.amountUnits.toString()}`,
          )
        : []),
      ...(idempotency ? [`key ${idempotency.scope.merchantId} ${idempotency.scope.key}`] : []),
    ],
    maxInFlight: Math.max(1, Math.floor(deps.config.DB_POOL_MAX / 2)),
    maxBatch: MAX_BATCH,
    onBatch: (size) => deps.metrics.orderWriteBatch.observe(size),
  });
}
