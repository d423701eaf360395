import type { Transaction } from 'sequelize';
import type { CreateOrderBody, Order as OrderBody } from '../../contract';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { createOrder } from '../orders/create-order';
import { findOrderRows } from '../orders/order-rows';
import { presentOrder } from '../orders/present-order';
import { refundableUnitsOfOrder } from '../orders/refundable-amount';
import { subscriptionClock } from './subscription-clock';

/** A period's order as made (or found made): its row id, what it bills, and its answer. */
export type MadeOrder = { id: string; periodIndex: number; attempt: number; body: OrderBody };

/** The unique index that makes a period's order once per attempt (migration 0023). */
const ONE_ORDER_PER_PERIOD = 'orders_subscription_period_idx';

/**
 * The order of `periodIndex` (its `attempt`-th, 0 first): the subscription's price (a fiat price at
 * today's rate), ways to pay, description and webhook, payable `dueDays` from now. Made by the
 * one order-making path (POST /orders's); an order another instance made first is found instead.
 */
export async function makePeriodOrder(
  deps: Deps,
  subscription: Subscription,
  wanted: { periodIndex: number; attempt: number },
): Promise<MadeOrder> {
  const merchant = await deps.cache.merchants.get(subscription.merchantId);
  if (!merchant) throw new Error(`subscription ${subscription.id} has no merchant`);
  const clock = subscriptionClock(deps.config, subscription);
  const period = clock.period(wanted.periodIndex);
  const body: CreateOrderBody = {
    network: subscription.network,
    token: subscription.token,
    ...(subscription.amount !== null
      ? { amount: subscription.amount }
      : {
          quoteCurrency: subscription.quoteCurrency as CreateOrderBody['quoteCurrency'],
          quoteAmount: subscription.quoteAmount!,
        }),
    ...(subscription.paymentOptions ? { paymentOptions: subscription.paymentOptions } : {}),
    ...(subscription.description ? { description: subscription.description } : {}),
    ...(subscription.metadata ? { metadata: subscription.metadata } : {}),
    ...(subscription.webhookUrl ? { webhookUrl: subscription.webhookUrl } : {}),
    // The customer's: each order's receipt goes to them, in their language.
    ...(subscription.customerEmail
      ? {
          customerEmail: subscription.customerEmail,
          customerLanguage: subscription.customerLanguage as CreateOrderBody['customerLanguage'],
        }
      : {}),
  };
  try {
    const created = await createOrder(deps, {
      merchant,
      body,
      billing: {
        subscriptionId: subscription.id,
        periodIndex: period.index,
        periodAttempt: wanted.attempt,
        periodStart: period.start,
        periodEnd: period.end,
        expiresAt: clock.orderExpiry(period, deps.clock()),
      },
    });
    if (!created.orderId) throw new Error('a period order is never a replay');
    return { id: created.orderId, ...wanted, body: created.body };
  } catch (error) {
    if (!isConstraint(error, ONE_ORDER_PER_PERIOD)) throw error;
    const [row] = await findOrderRows(deps, {
      where: { subscriptionId: subscription.id, periodIndex: period.index, periodAttempt: wanted.attempt },
      limit: 1,
    });
    if (!row) throw error;
    return { id: row.id, ...wanted, body: (await presentedOrder(deps, undefined, row.id)).body };
  }
}

/** An order as its events carry it, by row id. */
export async function presentedOrder(
  deps: Deps,
  transaction: Transaction | undefined,
  orderId: string,
): Promise<{ id: string; body: OrderBody }> {
  const [row] = await findOrderRows(deps, { where: { id: orderId }, limit: 1, transaction });
  if (!row) throw new Error(`order ${orderId} is gone`);
  const merchant = await deps.cache.merchants.get(row.merchantId);
  const refundable = await refundableUnitsOfOrder(deps.db, row, deps.clock(), transaction);
  return { id: orderId, body: presentOrder(deps, row, merchant?.fullName ?? null, refundable) };
}

function isConstraint(error: unknown, name: string): boolean {
  const original = (error as { original?: { code?: string; constraint?: string } }).original;
  return original?.code === '23505' && original.constraint === name;
}
