import type { Order, Payment } from '../../../../contract';
import { useI18n, type MessageKey } from '../../i18n';
import { useFormat } from '../../lib/format';
import { TxLink } from '../ui';

const MATCHED_KEYS: Record<string, MessageKey> = {
  tag: 'matchedTag',
  amount: 'matchedAmount',
  claim: 'matchedClaim',
};

/** The transfers credited to the order (its payments ledger), with the evidence that tied each. */
export function PaymentsTable({ order, payments }: { order: Order; payments: Payment[] }) {
  const { t } = useI18n();
  const f = useFormat();
  return (
    <div className="table-wrap">
      <table className="responsive">
        <thead>
          <tr>
            <th scope="col">{t('when')}</th>
            <th scope="col" className="num">
              {t('amount')}
            </th>
            <th scope="col">{t('transaction')}</th>
            <th scope="col">{t('sender')}</th>
            <th scope="col">{t('matchedBy')}</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((p) => (
            <tr key={`${p.txId}-${p.createdAt}`}>
              <td data-label={t('when')}>{f.dateTime(p.blockTime ?? p.createdAt)}</td>
              <td data-label={t('amount')} className="num">
                {f.token(p.amount, order.token)}
              </td>
              <td data-label={t('transaction')}>
                <TxLink network={p.network} txId={p.txId} />
              </td>
              <td data-label={t('sender')}>{p.from ? <code className="wrap">{p.from}</code> : '—'}</td>
              <td data-label={t('matchedBy')}>
                {MATCHED_KEYS[p.matchedBy] ? t(MATCHED_KEYS[p.matchedBy]!) : p.matchedBy}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
