import type { CreateSubscriptionBody, Subscription as SubscriptionBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { ApiError } from '../errors';
import { checkWebhookUrl } from '../events/check-webhook-url';
import { recordCreation } from '../events/lifecycle';
import { randomBytesPooled } from '../lib/random-pool';
import { newSecretToken, secretDigest } from '../lib/secret-token';
import {
  claimKey,
  findReplay,
  requestHash,
  storeResponse,
  type IdempotencyScope,
} from '../orders/idempotency';
import { checkQuoteCurrency } from '../orders/price-order';
import { resolvePaymentOptions } from '../orders/resolve-payment-options';
import { billSubscription } from './bill-subscription';
import { presentSubscription } from './present-subscription';
import { periodAt } from './periods';
import { SUBSCRIPTION_LIFECYCLE } from './subscription-lifecycle';

/** A start this far behind the clock is still "now" (the client's clock, the request's time). */
const START_TOLERANCE_MS = 60_000;

export type CreateSubscriptionResult = { body: SubscriptionBody; replayed: boolean };

/**
 * A new subscription: the plan checked as an order's would be (networks, tokens and wallets, the
 * webhook URL), its periods anchored after the trial, and its first order made at once when its
 * first period has begun (so the answer names it); later ones by the billing job.
 */
export async function createSubscription(
  deps: Deps,
  input: { merchant: MerchantRow; by: Caller; body: CreateSubscriptionBody; idempotencyKey?: string },
): Promise<CreateSubscriptionResult> {
  const { merchant, body } = input;
  const scope: IdempotencyScope | null = input.idempotencyKey
    ? { merchantId: merchant.id, key: input.idempotencyKey, requestHash: requestHash({ subscription: body }) }
    : null;
  if (scope) {
    const earlier = await findReplay<SubscriptionBody>(deps, scope);
    if (earlier) return { body: earlier.body, replayed: true };
  }
  const [first] = await resolvePaymentOptions(deps, merchant.id, body);
  if (body.webhookUrl) await checkWebhookUrl(deps, body.webhookUrl, 'body.webhookUrl');
  if (body.quoteCurrency !== undefined) checkQuoteCurrency(deps, body.quoteCurrency);

  const now = deps.clock();
  const startAt = body.startAt ? new Date(body.startAt) : now;
  if (startAt.getTime() < now.getTime() - START_TOLERANCE_MS)
    throw ApiError.field('body.startAt', 'must not be in the past');
  const daySeconds = deps.config.SUBSCRIPTION_DAY_SECONDS;
  const anchorAt = new Date(Math.max(startAt.getTime(), now.getTime()) + body.trialDays * daySeconds * 1000);
  const dueDays = dueDaysOf(body, anchorAt);

  const manageToken = newSecretToken();
  const id = `sub_${randomBytesPooled(12).toString('hex')}`;
  const created = await deps.db.sequelize.transaction(async (transaction) => {
    if (scope) {
      const earlier = await claimKey<SubscriptionBody>(deps, scope, transaction);
      if (earlier) return { body: earlier.body, replayed: true };
    }
    const subscription = await deps.db.models.Subscription.create(
      {
        id,
        merchantId: merchant.id,
        status: body.trialDays > 0 ? 'TRIALING' : 'INCOMPLETE',
        customerEmail: body.customer.email ?? null,
        customerName: body.customer.name ?? null,
        customerReference: body.customer.reference ?? null,
        customerLanguage: body.customer.language ?? 'en',
        interval: body.interval,
        intervalCount: body.intervalCount,
        amount: body.amount ?? null,
        quoteCurrency: body.quoteCurrency ?? null,
        quoteAmount: body.quoteAmount ?? null,
        network: body.network,
        token: body.token,
        tokenDecimals: first!.decimals,
        paymentOptions: body.paymentOptions ?? null,
        description: body.description ?? null,
        metadata: body.metadata ?? null,
        webhookUrl: body.webhookUrl ?? null,
        trialDays: body.trialDays,
        dueDays,
        anchorAt,
        trialEnd: body.trialDays > 0 ? anchorAt : null,
        nextRunAt: anchorAt,
        manageToken: deps.secrets.seal(manageToken),
        manageTokenHash: secretDigest(manageToken),
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await recordCreation(deps, transaction, SUBSCRIPTION_LIFECYCLE, subscription, {
      cause: 'created',
      actor: input.by,
    });
    const presented = presentSubscription(deps, subscription);
    if (scope) await storeResponse(deps, scope, { status: 201, body: presented }, transaction);
    return { body: presented, replayed: false };
  });
  if (created.replayed || anchorAt > deps.clock()) return created;
  // Its first period has begun: its order now, so the answer can name it.
  const billed = await billSubscription(deps, id);
  return { body: billed ? presentSubscription(deps, billed) : created.body, replayed: false };
}

/**
 * How long each order stays payable, in days: as given, at most one period (its first, in
 * calendar days); by default the smaller of 7 and one period.
 */
function dueDaysOf(body: CreateSubscriptionBody, anchorAt: Date): number {
  const first = periodAt(
    { anchor: anchorAt, interval: body.interval, count: body.intervalCount, daySeconds: 86_400 },
    0,
  );
  const periodDays = Math.floor((first.end.getTime() - first.start.getTime()) / 86_400_000);
  if (body.dueDays === undefined) return Math.min(7, periodDays);
  if (body.dueDays > periodDays)
    throw ApiError.field('body.dueDays', `must be at most one period (${periodDays} days)`);
  return body.dueDays;
}
