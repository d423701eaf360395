import type { Order, Payment } from '../../../../contract';
import { DataTable } from '../DataTable';
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
    <DataTable
      className="responsive"
      columns={['when', { key: 'amount', numeric: true }, 'transaction', 'sender', 'matchedBy']}
    >
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
    </DataTable>
  );
}
