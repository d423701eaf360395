import type { Readable } from 'node:stream';
import type { DateRangeQuery } from '../../contract';
import type { Deps } from '../deps';
import { formatAmount, parseUnits } from '../lib/decimal';
import { csvRecord, raw } from './csv';
import { fiatAtOrderRateSql, formatFiatCents } from './fiat';
import { keysetCsv } from './keyset-csv';

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
  at: Date;
  reference: string;
  network: string;
  token: string;
  token_decimals: number;
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
  return keysetCsv<Row>(deps, merchantId, query, {
    header: HEADER,
    select: `SELECT pc.id, pc.created_at AS at, o.reference, o.network, o.token, o.token_decimals, pc.amount_units::text, pc.tx_id,
                    pc.sender, pc.matched_by, pc.block_time, o.quote_currency, o.fx_rate,
                    CASE WHEN o.fx_rate IS NULL THEN NULL
                         ELSE round(${fiatAtOrderRateSql('pc.amount_units', 'o.fx_rate', 'o.token_decimals')}, 6)::text END AS fiat
               FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
              WHERE o.merchant_id = $merchantId AND pc.status = 'VERIFIED'`,
    atColumn: 'pc.created_at',
    idColumn: 'pc.id',
    record: paymentRecord,
  });
}

function paymentRecord(p: Row): string {
  return csvRecord([
    raw(p.at.toISOString()),
    raw(p.reference),
    raw(p.network),
    raw(p.token),
    raw(formatAmount(BigInt(p.amount_units), p.token_decimals)),
    raw(p.tx_id),
    raw(p.sender),
    raw(p.matched_by),
    raw(p.block_time?.toISOString()),
    raw(p.quote_currency),
    raw(p.fx_rate),
    raw(p.fiat === null ? null : formatFiatCents(parseUnits(p.fiat, 6))),
  ]);
}
