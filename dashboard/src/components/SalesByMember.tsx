import { useQuery } from '@tanstack/react-query';
import type { MemberSales } from '../../../contract';
import { api, ok } from '../api';
import { useI18n } from '../i18n';
import { useFormat } from '../lib/format';
import { DataTable } from './DataTable';
import { Empty, ErrorNotice, Loading } from './ui';

/** The days, the zone and a heading for a range of the sales by member. */
export type SalesRange = { from: string; to: string; timeZone: string };

/**
 * Each member's sales in a range (the owner's view of its cashiers, DESIGN.md "Point of sale"):
 * orders made and paid, and what they received per token and at their quote, counted on the server
 * (GET /dashboard/summary?by=member), most paid first.
 */
export function SalesByMember({ range, caption }: { range: SalesRange; caption: string }) {
  const { t } = useI18n();
  const sales = useQuery({
    queryKey: ['sales-by-member', range],
    queryFn: async () =>
      ok(await api.dashboard.summary({ query: { ...range, by: 'member' } }), 200).byMember ?? [],
  });
  if (sales.isPending) return <Loading />;
  if (sales.isError)
    return (
      <ErrorNotice
        error={sales.error}
        onRetry={() => void sales.refetch()}
        title={t('salesByMemberFailed')}
      />
    );
  if (sales.data.length === 0) return <Empty>{t('salesByMemberNone')}</Empty>;
  return (
    <DataTable
      caption={caption}
      className="sales-by-member"
      columns={[
        'salesMember',
        { key: 'seriesCreated', numeric: true },
        { key: 'seriesPaid', numeric: true },
        'received',
      ]}
    >
      {sales.data.map((row) => (
        <MemberRow key={row.memberId} row={row} />
      ))}
    </DataTable>
  );
}

function MemberRow({ row }: { row: MemberSales }) {
  const f = useFormat();
  const amounts = [
    ...row.receivedFiat.map((r) => f.fiat(r.amount, r.currency)),
    ...row.received.map((r) => f.token(r.amount, r.token)),
  ];
  return (
    <tr>
      <th scope="row">
        {row.name ?? row.email}
        {row.name && <div className="muted small-text">{row.email}</div>}
      </th>
      <td className="num">{f.int(row.ordersCreated)}</td>
      <td className="num">{f.int(row.ordersPaid)}</td>
      <td>{amounts.length === 0 ? '—' : amounts.join(' · ')}</td>
    </tr>
  );
}
