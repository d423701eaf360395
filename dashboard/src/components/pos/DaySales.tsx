import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { browserTimeZone, todayIn, useFormat } from '../../lib/format';

/**
 * The cashier's sales today (in the browser's time zone): its paid orders, counted and summed on
 * the server however many there are (GET /dashboard/sales/mine). A shop that sells in BRL or EUR
 * sees the total in its quote currency; one that sells in token units, per token.
 */
export function DaySales() {
  const { t } = useI18n();
  const fmt = useFormat();
  const timeZone = browserTimeZone();
  const today = todayIn(timeZone);
  const sales = useQuery({
    queryKey: ['pos-day', today, timeZone],
    queryFn: async () =>
      ok(await api.dashboard.mySales({ query: { from: today, to: today, timeZone } }), 200),
    refetchInterval: 15_000,
  });
  if (!sales.data) return null;
  const { ordersPaid, received, receivedFiat } = sales.data;
  // The quote is what the sale was priced in; the tokens it was paid with are the same money.
  const sums =
    receivedFiat.length > 0
      ? receivedFiat.map((f) => fmt.fiat(f.amount, f.currency))
      : received.map((r) => fmt.token(r.amount, r.token));
  return (
    <p className="pos-day muted">
      {t('posToday', { count: ordersPaid })}
      {sums.length > 0 && ` · ${sums.join(' · ')}`}
    </p>
  );
}
