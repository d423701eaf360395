import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { browserTimeZone, localDayStart, todayIn, useFormat } from '../../lib/format';

/**
 * The cashier's sales today: its paid orders since local midnight (a cashier lists only the orders
 * it made), counted, and their total in each currency they were priced in.
 */
export function DaySales() {
  const { t } = useI18n();
  const fmt = useFormat();
  const since = localDayStart(todayIn(browserTimeZone()));
  const paid = useQuery({
    queryKey: ['pos-day', since],
    queryFn: async () =>
      ok(await api.orders.list({ query: { status: 'PAID', created_gte: since, per_page: 50 } }), 200),
    refetchInterval: 15_000,
  });
  if (!paid.data || !('total' in paid.data)) return null;
  const totals = new Map<string, number>();
  for (const o of paid.data.items) {
    const [currency, amount] =
      o.quoteCurrency && o.quoteAmount ? [o.quoteCurrency, o.quoteAmount] : [o.token, o.amount];
    totals.set(currency, (totals.get(currency) ?? 0) + Math.round(Number(amount) * 100));
  }
  const sums = [...totals].map(([currency, cents]) => {
    const text = (cents / 100).toFixed(2);
    return currency.length === 3 ? fmt.fiat(text, currency) : fmt.token(text, currency);
  });
  return (
    <p className="pos-day muted">
      {t('posToday', { count: paid.data.total })}
      {sums.length > 0 && ` · ${sums.join(' · ')}`}
    </p>
  );
}
