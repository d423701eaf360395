import type { Subscription } from '../../../contract';
import type { Translate } from '../i18n';
import type { useFormat } from './format';
import { INTERVAL_KEYS } from './labels';

/** A subscription's price per period in words: "9.90 USDT every month", "R$ 25,00 every 2 weeks". */
export function planText(s: Subscription, t: Translate, f: ReturnType<typeof useFormat>) {
  const keys = INTERVAL_KEYS[s.interval];
  const every = s.intervalCount === 1 ? t(keys.one) : t(keys.many, { n: s.intervalCount });
  const price =
    s.quoteCurrency && s.quoteAmount
      ? f.fiat(s.quoteAmount, s.quoteCurrency)
      : f.token(s.amount ?? '0', s.token);
  return t('planPrice', { price, every });
}

/** The dashboard's link to a subscription's page. */
export const subscriptionPath = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;
