import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Order } from '../../../../contract';
import { api, ok } from '../../api';
import { useI18n } from '../../i18n';
import { useFormat } from '../../lib/format';
import { networkName } from '../../lib/labels';
import { QrCode, TxLink } from '../ui';

/** Seconds left until `iso`, ticking every second. */
function useSecondsLeft(iso: string) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, Math.floor((Date.parse(iso) - now) / 1000));
}

/**
 * The sale being paid: the amount, a large QR code of the option the customer picks, the countdown
 * and the status read every 2 s (a cashier reads its own orders; the event log is not its), then
 * "Paid" with the transaction. A failed read shows "no connection" and goes on trying.
 */
export function SaleScreen({ first, onNewSale }: { first: Order; onNewSale: () => void }) {
  const { t } = useI18n();
  const fmt = useFormat();
  const [picked, setPicked] = useState(0);
  const live = useQuery({
    queryKey: ['pos-sale', first.reference],
    queryFn: async () => ok(await api.orders.get({ params: { reference: first.reference } }), 200),
    initialData: first,
    refetchInterval: (q) =>
      q.state.data?.status === 'PAID' || q.state.data?.status === 'EXPIRED' ? false : 2000,
    refetchIntervalInBackground: true,
    retry: false,
  });
  const order = live.data ?? first;
  const client = useQueryClient();
  // The day's sales count this one once it is paid.
  useEffect(() => {
    if (order.status === 'PAID') void client.invalidateQueries({ queryKey: ['pos-day'] });
  }, [order.status, client]);
  const left = useSecondsLeft(order.expiresAt);
  const option = order.paymentOptions[picked] ?? order.paymentOptions[0];
  const price =
    order.quoteCurrency && order.quoteAmount ? fmt.fiat(order.quoteAmount, order.quoteCurrency) : null;

  if (order.status === 'PAID')
    return (
      <section className="pos-paid" aria-live="polite">
        <p className="pos-paid-mark" aria-hidden="true">
          ✓
        </p>
        <h2 className="pos-paid-title">{t('posPaid')}</h2>
        <p className="pos-total">{price ?? fmt.token(order.amount, order.token)}</p>
        {order.txId && order.paidWith && <TxLink network={order.paidWith.network} txId={order.txId} />}
        <div className="pos-actions">
          <Link className="button secondary" to={`/pos/receipt/${order.reference}`}>
            {t('posReceipt')}
          </Link>
          <button type="button" className="pos-new" onClick={onNewSale} autoFocus>
            {t('posNewSale')}
          </button>
        </div>
      </section>
    );

  return (
    <section className="pos-sale" aria-label={t('posSale')}>
      <p className="pos-total">
        {price ?? fmt.token(option?.amountDue ?? order.amount, option?.token ?? order.token)}
        {price && option && (
          <span className="pos-token-amount">{fmt.token(option.amountDue, option.token)}</span>
        )}
      </p>
      {live.isError && (
        <p className="pos-offline" role="status">
          {t('posNoConnection')}
        </p>
      )}
      {order.status === 'EXPIRED' ? (
        <p className="pos-expired" role="status">
          {t('posExpired')}
        </p>
      ) : (
        option && (
          <>
            <div className="pos-qr">
              <QrCode text={option.qrData} alt={t('qrAlt')} size={320} />
            </div>
            <p className="pos-status" role="status">
              {order.status === 'CONFIRMING' ? t('posConfirming') : t('posWaiting')} ·{' '}
              <span className="pos-countdown">
                {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}
              </span>
            </p>
            {order.paymentOptions.length > 1 && (
              <div className="pos-options" role="radiogroup" aria-label={t('posPayWith')}>
                {order.paymentOptions.map((o, i) => (
                  <button
                    key={`${o.network}-${o.token}`}
                    type="button"
                    role="radio"
                    aria-checked={i === picked}
                    className={i === picked ? 'pos-option picked' : 'pos-option'}
                    onClick={() => setPicked(i)}
                  >
                    {o.token} · {networkName(o.network)}
                  </button>
                ))}
              </div>
            )}
          </>
        )
      )}
      <div className="pos-actions">
        <button type="button" className="secondary" onClick={onNewSale}>
          {order.status === 'EXPIRED' ? t('posNewSale') : t('posCancel')}
        </button>
      </div>
    </section>
  );
}
