import type { Transaction } from 'sequelize';
import type { OrderStatus } from '../../contract';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { wakeJobSql } from '../db/wake-up';

/** Where an order's move changes where its subscription stands: its period paid, or expired unpaid. */
const BILLING_NEWS: readonly OrderStatus[] = ['PAID', 'EXPIRED'];

/**
 * A subscription's order moved: the billing job looks at the subscription at once (on commit, in
 * every instance). Written here as a row change, not a call into subscriptions (which make orders
 * through this domain): the job decides what the move means.
 */
export async function markSubscriptionDue(
  deps: Pick<Deps, 'db'>,
  transaction: Transaction,
  order: Pick<Order, 'subscriptionId' | 'status'>,
  at: Date,
): Promise<void> {
  if (!order.subscriptionId || !BILLING_NEWS.includes(order.status)) return;
  await deps.db.sequelize.query(
    `WITH due AS (UPDATE subscriptions SET next_run_at = :at WHERE id = :id AND next_run_at IS NOT NULL RETURNING 1)
     SELECT ${wakeJobSql('bill-subscriptions')} FROM due`,
    { replacements: { id: order.subscriptionId, at }, transaction },
  );
}
