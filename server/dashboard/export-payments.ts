import type { Readable } from 'node:stream';
import type { DateRangeQuery } from '../../contract';
import type { Deps } from '../deps';
import { claimOptionSql } from '../orders/payment-options';
import { isoTimeSql, tokenAmountSql } from './csv';
import { fiatAtOrderRateSql } from './fiat';
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

/** Anyone's text among the fields: none (amounts, ids and addresses the service recorded). */
const ANYONES = HEADER.map(() => false);

const DECIMALS = claimOptionSql('pc', 'o', 'token_decimals');

/**
 * The payments ledger (verified payments) recorded in a range of days, oldest first, as a CSV
 * stream. Fiat at the order's own rate, kept at 6 decimals and shown with 2 (half away from zero),
 * as the summary's; times and amounts written by the statement (see exportOrders).
 */
export function exportPayments(deps: Pick<Deps, 'db'>, merchantId: string, query: DateRangeQuery): Readable {
  return keysetCsv(deps, merchantId, query, {
    name: 'payments',
    header: HEADER,
    // Each payment in the token of the option it credited (server/orders/payment-options.ts).
    select: `SELECT pc.created_at::text, pc.id::text, ${isoTimeSql('pc.created_at')}, o.reference,
                    ${claimOptionSql('pc', 'o', 'network')}, ${claimOptionSql('pc', 'o', 'token')},
                    ${tokenAmountSql('pc.amount_units', DECIMALS)}, pc.tx_id, pc.sender, pc.matched_by,
                    ${isoTimeSql('pc.block_time')}, o.quote_currency, o.fx_rate,
                    CASE WHEN o.fx_rate IS NULL THEN NULL
                         ELSE round(round(${fiatAtOrderRateSql('pc.amount_units', 'o.fx_rate', DECIMALS)}, 6), 2)::text END
               FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
              WHERE o.merchant_id = $merchantId AND pc.status = 'VERIFIED'`,
    atColumn: 'pc.created_at',
    idColumn: 'pc.id',
    anyones: ANYONES,
  });
}
