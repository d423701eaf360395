import type { Readable } from 'node:stream';
import type { DateRangeQuery } from '../../contract';
import type { Deps } from '../deps';
import { formatAmount, formatUnits } from '../lib/decimal';
import { csvRecord, raw } from './csv';
import { keysetCsv } from './keyset-csv';

const HEADER = [
  'reference',
  'created_at',
  'paid_at',
  'status',
  'network',
  'token',
  'amount',
  'quote_currency',
  'quote_amount',
  'fx_rate',
  'amount_received',
  'amount_refunded',
  'description',
  'tx_ids',
  'senders',
];

type Row = {
  id: string;
  reference: string;
  at: Date;
  paid_at: Date | null;
  status: string;
  network: string;
  token: string;
  token_decimals: number;
  amount_units: string;
  quote_currency: string | null;
  quote_units: string | null;
  fx_rate: string | null;
  amount_received_units: string;
  amount_refunded_units: string;
  description: string | null;
  tx_ids: string | null;
  senders: string | null;
};

/**
 * The orders created in a range of days, oldest first, as CSV (streamed, see keysetCsv). Payments'
 * transaction ids and senders are joined with ";".
 */
export function exportOrders(deps: Pick<Deps, 'db'>, merchantId: string, query: DateRangeQuery): Readable {
  return keysetCsv<Row>(deps, merchantId, query, {
    header: HEADER,
    select: `SELECT o.id, o.created_at AS at, o.reference, o.paid_at, o.status, o.network, o.token,
                    o.token_decimals, o.amount_units::text, o.quote_currency, o.quote_units::text, o.fx_rate,
                    o.amount_received_units::text, o.amount_refunded_units::text, o.description,
                    p.tx_ids, p.senders
               FROM orders o
               LEFT JOIN LATERAL (SELECT string_agg(tx_id, ';' ORDER BY id) AS tx_ids,
                                         string_agg(sender, ';' ORDER BY id) AS senders
                                    FROM payment_claims WHERE order_id = o.id AND status = 'VERIFIED') p ON true
              WHERE o.merchant_id = $merchantId`,
    atColumn: 'o.created_at',
    idColumn: 'o.id',
    record: orderRecord,
  });
}

function orderRecord(o: Row): string {
  return csvRecord([
    raw(o.reference),
    raw(o.at.toISOString()),
    raw(o.paid_at?.toISOString()),
    raw(o.status),
    raw(o.network),
    raw(o.token),
    raw(formatAmount(BigInt(o.amount_units), o.token_decimals)),
    raw(o.quote_currency),
    raw(o.quote_units === null ? null : formatUnits(BigInt(o.quote_units), 6, 2)),
    raw(o.fx_rate),
    raw(formatAmount(BigInt(o.amount_received_units), o.token_decimals)),
    raw(formatAmount(BigInt(o.amount_refunded_units), o.token_decimals)),
    o.description,
    raw(o.tx_ids),
    raw(o.senders),
  ]);
}
