import { Readable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import type { DateRangeQuery } from '../../contract';
import type { Deps } from '../deps';
import { formatUnits, parseUnits } from '../lib/decimal';
import { csvRecord, raw } from './csv';
import { dateRange, RANGE_END_SQL, RANGE_START_SQL } from './date-range';
import { EXPORT_PAGE } from './export-orders';

const HEADER = [
  'recorded_at',
  'order_reference',
  'network',
  'token',
  'amount',
  'tx_id',
  'sender',
  'matched_by',
  'block_time',
  'quote_currency',
  'fx_rate',
  'fiat_amount',
];

type Row = {
  id: string;
  created_at: Date;
  reference: string;
  network: string;
  token: string;
  amount_units: string;
  tx_id: string;
  sender: string | null;
  matched_by: string | null;
  block_time: Date | null;
  quote_currency: string | null;
  fx_rate: string | null;
  fiat: string | null;
};

/** The payments ledger (verified payments) recorded in a range of days, oldest first, as a CSV stream. */
export function exportPayments(deps: Pick<Deps, 'db'>, merchantId: string, query: DateRangeQuery): Readable {
  const range = dateRange(query);
  async function* lines() {
    yield csvRecord(HEADER);
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const rows: Row[] = await deps.db.sequelize.query<Row>(
        `SELECT pc.id, pc.created_at, o.reference, o.network, o.token, pc.amount_units::text, pc.tx_id,
                pc.sender, pc.matched_by, pc.block_time, o.quote_currency, o.fx_rate,
                CASE WHEN o.fx_rate IS NULL THEN NULL
                     ELSE round(pc.amount_units * CAST(o.fx_rate AS numeric) / 1000000, 6)::text END AS fiat
           FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
          WHERE o.merchant_id = $merchantId AND pc.status = 'VERIFIED'
            AND pc.created_at >= ${RANGE_START_SQL} AND pc.created_at < ${RANGE_END_SQL}
            ${after ? 'AND (pc.created_at, pc.id) > ($afterAt, $afterId)' : ''}
          ORDER BY pc.created_at, pc.id
          LIMIT ${EXPORT_PAGE}`,
        {
          bind: {
            merchantId,
            from: range.from,
            to: range.to,
            timeZone: range.timeZone,
            ...(after ? { afterAt: after.at, afterId: after.id } : {}),
          },
          type: QueryTypes.SELECT,
        },
      );
      yield rows.map(paymentRecord).join('');
      const last = rows[rows.length - 1];
      if (!last || rows.length < EXPORT_PAGE) return;
      after = { at: last.created_at, id: last.id };
    }
  }
  return Readable.from(lines());
}

function paymentRecord(p: Row): string {
  return csvRecord([
    raw(p.created_at.toISOString()),
    raw(p.reference),
    raw(p.network),
    raw(p.token),
    raw(formatUnits(BigInt(p.amount_units))),
    raw(p.tx_id),
    raw(p.sender),
    raw(p.matched_by),
    raw(p.block_time?.toISOString()),
    raw(p.quote_currency),
    raw(p.fx_rate),
    raw(p.fiat === null ? null : formatUnits((parseUnits(p.fiat, 6) + 5_000n) / 10_000n, 2, 2)),
  ]);
}
