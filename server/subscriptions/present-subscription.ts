import type { Subscription as SubscriptionBody } from '../../contract';
import type { InferAttributes } from 'sequelize';
import type { Subscription } from '../db/models';
import type { Deps } from '../deps';
import { subscriptionClock } from './subscription-clock';

export type SubscriptionView = InferAttributes<Subscription>;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The customer's page, rebuilt from the sealed secret (the URL is the credential). */
export const manageUrlOf = (
  deps: Pick<Deps, 'config' | 'secrets'>,
  subscription: Pick<SubscriptionView, 'manageToken'>,
) => `${deps.config.PUBLIC_BASE_URL}/subscriptions/manage/${deps.secrets.open(subscription.manageToken)}`;

/** The merchant's view of a subscription (also what its events carry). */
export function presentSubscription(
  deps: Pick<Deps, 'config' | 'secrets'>,
  s: SubscriptionView,
): SubscriptionBody {
  const clock = subscriptionClock(deps.config, s);
  const current = s.billedPeriod >= 0 ? clock.period(s.billedPeriod) : null;
  return {
    id: s.id,
    status: s.status,
    customer: {
      email: s.customerEmail,
      name: s.customerName,
      reference: s.customerReference,
      language: s.customerLanguage as SubscriptionBody['customer']['language'],
    },
    interval: s.interval,
    intervalCount: s.intervalCount,
    amount: s.amount,
    quoteCurrency: s.quoteCurrency as SubscriptionBody['quoteCurrency'],
    quoteAmount: s.quoteAmount,
    network: s.network,
    token: s.token,
    decimals: s.tokenDecimals,
    paymentOptions: s.paymentOptions,
    description: s.description,
    metadata: s.metadata,
    webhookUrl: s.webhookUrl,
    trialDays: s.trialDays,
    trialEnd: iso(s.trialEnd),
    dueDays: s.dueDays,
    currentPeriodStart: iso(current?.start),
    currentPeriodEnd: iso(current?.end),
    nextOrderAt: iso(clock.nextOrderAt(s)),
    latestOrderReference: s.latestOrderReference,
    manageUrl: manageUrlOf(deps, s),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    pastDueSince: iso(s.pastDueSince),
    canceledAt: iso(s.canceledAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
