import { QueryTypes, type Transaction } from 'sequelize';
import type { OrderStatus, SubscriptionStatus } from '../../contract';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { applyTransition } from '../events/lifecycle';
import { OPEN_ORDER_STATUSES } from '../orders/order-status';
import { closeSupersededOrders } from '../orders/close-superseded-orders';
import { queueSubscriptionEmail } from './queue-subscription-email';
import { makePeriodOrder, presentedOrder, type MadeOrder } from './make-period-order';
import { subscriptionClock, type SubscriptionClock } from './subscription-clock';
import { BILLING_STATUSES, SUBSCRIPTION_LIFECYCLE, type SubscriptionCause } from './subscription-lifecycle';

/** The orders of the period being billed, newest attempt first. */
type PeriodOrder = { id: string; reference: string; status: OrderStatus; attempt: number; expiresAt: Date };

/** After a failed attempt to make an order (rates down, wallet removed), the next try this much later. */
const RETRY_MS = 30_000;

/** What billing decided to do outside the lock: make the order of a period (its attempt). */
type Wanted = { periodIndex: number; attempt: number } | null;

/**
 * Brings one subscription up to date with its clock and its orders, the one place its billing is
 * decided: its period's order paid (ACTIVE), expired unpaid (PAST_DUE, and made again for the same
 * period while the period lasts), past due too long or at the end of a period it was to end with
 * (CANCELED), the next period begun (its order; missed periods are skipped, not billed late), a
 * reminder due. Decided under the subscription's row lock; the order is made after it (its own
 * statements), exactly once per period and attempt (a unique index), and recorded under the lock
 * again. Returns the subscription as it is now (null: it does not exist).
 */
export async function billSubscription(
  deps: Deps,
  id: string,
  /** The billing job's worker holding the subscription's lease, given up with the last write. */
  opts: { leasedBy?: string } = {},
): Promise<Subscription | null> {
  const release = (subscription: Subscription) => {
    if (opts.leasedBy === undefined || subscription.lockedBy !== opts.leasedBy) return;
    subscription.lockedBy = null;
    subscription.lockedUntil = null;
  };
  const decided = await deps.db.sequelize.transaction(async (transaction) => {
    const subscription = await lockSubscription(deps, id, transaction);
    if (!subscription) return null;
    const clock = subscriptionClock(deps.config, subscription);
    const wanted = await decide(deps, transaction, subscription, clock);
    // An order to make next, outside the lock: the job's lease keeps other workers off meanwhile
    // (another takes it when the lease runs out, should this instance stop); a call without one
    // (creation, resume) puts the next look RETRY_MS ahead instead.
    if (!wanted) {
      subscription.nextRunAt = nextRunOf(subscription, clock, null);
      release(subscription);
    } else if (opts.leasedBy === undefined) subscription.nextRunAt = retryTime(deps);
    await subscription.save({ transaction });
    return { subscription, wanted };
  });
  if (!decided?.wanted) return decided?.subscription ?? null;
  const made = await makePeriodOrder(deps, decided.subscription, decided.wanted).catch((error: unknown) => {
    deps.logger.warn({ err: error, subscription: id }, 'subscription order not made: tried again later');
    return null;
  });
  return deps.db.sequelize.transaction(async (transaction) => {
    const subscription = await lockSubscription(deps, id, transaction);
    if (!subscription) return null;
    const clock = subscriptionClock(deps.config, subscription);
    release(subscription);
    if (made) await recordOrder(deps, transaction, subscription, clock, made);
    else {
      subscription.nextRunAt = nextRunOf(subscription, clock, retryTime(deps));
      await subscription.save({ transaction });
    }
    return subscription;
  });
}

const retryTime = (deps: Deps) => new Date(deps.clock().getTime() + RETRY_MS);

const lockSubscription = (deps: Deps, id: string, transaction: Transaction) =>
  deps.db.models.Subscription.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });

/** The status moves the facts call for, and the order to make, if any. */
async function decide(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  clock: SubscriptionClock,
): Promise<Wanted> {
  if (!BILLING_STATUSES.includes(subscription.status)) return null;
  const now = deps.clock();
  const orders = subscription.billedPeriod >= 0 ? await periodOrders(deps, transaction, subscription) : [];
  const [latest] = orders;
  const paid = orders.find((o) => o.status === 'PAID');
  let remake: Wanted = null;
  if (paid) {
    if (subscription.status !== 'ACTIVE') {
      subscription.pastDueSince = null;
      await moveWithOrder(deps, transaction, subscription, 'paid', 'ACTIVE', paid.id);
    }
    // An expired attempt paid late: the period's other attempts (open, or expired and still in
    // their late window) are not to be paid too.
    const superseded = orders.filter((o) => o.status !== 'PAID');
    await closeSupersededOrders(
      deps,
      transaction,
      superseded.map((o) => o.id),
      now,
    );
  } else if (latest?.status === 'EXPIRED') {
    if (subscription.status !== 'PAST_DUE') {
      subscription.pastDueSince = now;
      await moveWithOrder(deps, transaction, subscription, 'order_expired', 'PAST_DUE', latest.id);
    }
    if (now < clock.period(subscription.billedPeriod).end)
      remake = { periodIndex: subscription.billedPeriod, attempt: latest.attempt + 1 };
  }
  if (
    subscription.status === 'PAST_DUE' &&
    subscription.pastDueSince &&
    clock.graceEnd(subscription.pastDueSince) <= now
  )
    return cancel(deps, transaction, subscription, 'past due too long');
  const next = clock.period(subscription.billedPeriod + 1);
  if (next.start <= now) {
    if (subscription.cancelAtPeriodEnd) return cancel(deps, transaction, subscription, 'period ended');
    return { periodIndex: Math.max(next.index, clock.periodIndexAt(now)), attempt: 0 };
  }
  if (subscription.reminderAt && subscription.reminderAt <= now) {
    if (latest && OPEN_ORDER_STATUSES.some((s) => s === latest.status))
      await queueSubscriptionEmail(deps, transaction, subscription, latest.id, 'reminder');
    subscription.reminderAt = null;
  }
  return remake;
}

/** A move about one of its orders: the event carries the order as it is now. */
async function moveWithOrder(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  cause: SubscriptionCause,
  to: SubscriptionStatus,
  orderId: string,
) {
  const order = await presentedOrder(deps, transaction, orderId);
  await applyTransition(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, {
    cause,
    to,
    actor: 'system',
    extra: { order },
  });
}

async function cancel(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  reason: string,
): Promise<null> {
  subscription.canceledAt = deps.clock();
  subscription.reminderAt = null;
  await applyTransition(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, {
    cause: 'canceled',
    to: 'CANCELED',
    actor: 'system',
    reason,
  });
  return null;
}

/** A made order on the subscription: what it bills now, its reminder, and the news. */
async function recordOrder(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
  clock: SubscriptionClock,
  made: MadeOrder,
) {
  // Another instance may have recorded it (or a later one) while this one made it.
  const ahead =
    subscription.billedPeriod > made.periodIndex ||
    (subscription.billedPeriod === made.periodIndex && subscription.billedAttempt >= made.attempt);
  if (ahead || !BILLING_STATUSES.includes(subscription.status)) {
    subscription.nextRunAt = nextRunOf(subscription, clock, null);
    await subscription.save({ transaction });
    return;
  }
  subscription.billedPeriod = made.periodIndex;
  subscription.billedAttempt = made.attempt;
  subscription.latestOrderId = made.id;
  subscription.latestOrderReference = made.body.reference;
  subscription.reminderAt = subscription.customerEmail
    ? clock.reminderAt(new Date(made.body.expiresAt))
    : null;
  subscription.nextRunAt = nextRunOf(subscription, clock, null);
  // One UPDATE: the move writes every change made above.
  await applyTransition(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, {
    cause: 'order_made',
    to: subscription.status,
    actor: 'system',
    extra: { order: { id: made.id, body: made.body } },
  });
  await queueSubscriptionEmail(deps, transaction, subscription, made.id, 'order');
}

/**
 * When the job looks next: the next period's start (its order, or the end it was to cancel at),
 * the reminder, the end of the past-due grace, `retryAt` (an order still to make); none when it
 * bills no more (PAUSED, CANCELED). A moving order of its own calls it sooner (orders/mark-subscription-due.ts).
 */
function nextRunOf(subscription: Subscription, clock: SubscriptionClock, retryAt: Date | null): Date | null {
  if (!BILLING_STATUSES.includes(subscription.status)) return null;
  const times = [clock.period(subscription.billedPeriod + 1).start];
  if (subscription.reminderAt) times.push(subscription.reminderAt);
  if (subscription.status === 'PAST_DUE' && subscription.pastDueSince)
    times.push(clock.graceEnd(subscription.pastDueSince));
  if (retryAt) times.push(retryAt);
  return new Date(Math.min(...times.map((t) => t.getTime())));
}

async function periodOrders(
  deps: Deps,
  transaction: Transaction,
  subscription: Subscription,
): Promise<PeriodOrder[]> {
  return deps.db.sequelize.query<PeriodOrder>(
    `SELECT id::text AS id, reference, status, period_attempt AS attempt, expires_at AS "expiresAt"
       FROM orders WHERE subscription_id = :id AND period_index = :period
      ORDER BY period_attempt DESC`,
    {
      type: QueryTypes.SELECT,
      replacements: { id: subscription.id, period: subscription.billedPeriod },
      transaction,
    },
  );
}
