import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ok } from '../api';
import { ErrorNotice, Loading } from '../components/ui';
import { useI18n } from '../i18n';
import { useFormat } from '../lib/format';
import { networkName } from '../lib/labels';
import { saleOf } from '../lib/pos';
import { useSession } from '../session';

const WIDTHS = ['58', '80'] as const;

/**
 * A sale's receipt for a thermal printer: 58 mm or 80 mm paper (print CSS, styles/pos.css: a named
 * page of the paper's width, the dashboard's frame not printed).
 */
export function PosReceiptPage() {
  const { t } = useI18n();
  const fmt = useFormat();
  const { status } = useSession();
  const { reference = '' } = useParams();
  const [width, setWidth] = useState<(typeof WIDTHS)[number]>('58');
  const order = useQuery({
    queryKey: ['pos-receipt', reference],
    queryFn: async () => ok(await api.orders.get({ params: { reference } }), 200),
  });
  if (order.isPending) return <Loading />;
  if (order.isError) return <ErrorNotice error={order.error} onRetry={() => void order.refetch()} />;
  const o = order.data;
  const sale = saleOf(o);
  const money = (value: string) =>
    sale && sale.currency.length === 3
      ? fmt.fiat(value, sale.currency)
      : fmt.token(value, sale?.currency ?? o.token);
  const shop = status.state === 'signed-in' ? status.session.merchant.full_name : null;
  return (
    <div className={`receipt-page paper-${width}`}>
      <div className="receipt-controls no-print">
        <Link to="/pos">{t('posBack')}</Link>
        <div role="radiogroup" aria-label={t('posPaper')}>
          {WIDTHS.map((w) => (
            <button
              key={w}
              type="button"
              role="radio"
              aria-checked={width === w}
              className={width === w ? 'pos-tip picked' : 'pos-tip'}
              onClick={() => setWidth(w)}
            >
              {w} mm
            </button>
          ))}
        </div>
        <button type="button" onClick={() => window.print()}>
          {t('posPrint')}
        </button>
      </div>
      <article className={`receipt receipt-${width}`} aria-label={t('posReceipt')}>
        <h1 id="page-title" tabIndex={-1}>
          {shop ?? t('appName')}
        </h1>
        <p>{fmt.dateTimeLong(o.paidAt ?? o.createdAt)}</p>
        <hr />
        {sale && (
          <>
            <p className="receipt-line">
              <span>{t('posSubtotal')}</span>
              <span>{money(sale.subtotal)}</span>
            </p>
            {sale.tip !== '0.00' && (
              <p className="receipt-line">
                <span>{t('posTipLine', { percent: sale.tipPercent })}</span>
                <span>{money(sale.tip)}</span>
              </p>
            )}
          </>
        )}
        <p className="receipt-line receipt-total">
          <span>{t('posTotal')}</span>
          <span>
            {o.quoteCurrency && o.quoteAmount
              ? fmt.fiat(o.quoteAmount, o.quoteCurrency)
              : fmt.token(o.amount, o.token)}
          </span>
        </p>
        <hr />
        <p className="receipt-line">
          <span>{t('posStatus')}</span>
          <span>{o.status === 'PAID' ? t('posPaid') : o.status}</span>
        </p>
        {o.paidWith && (
          <p className="receipt-line">
            <span>{t('posPaidWith')}</span>
            <span>
              {fmt.token(o.amountReceived, o.paidWith.token)} · {networkName(o.paidWith.network)}
            </span>
          </p>
        )}
        {o.txId && (
          <p className="receipt-small">
            {t('posTransaction')}: <code>{o.txId}</code>
          </p>
        )}
        <p className="receipt-small">
          {t('reference')}: <code>{o.reference}</code>
        </p>
        {o.createdBy && 'email' in o.createdBy && (
          <p className="receipt-small">{t('posCashier', { who: o.createdBy.email })}</p>
        )}
      </article>
    </div>
  );
}
