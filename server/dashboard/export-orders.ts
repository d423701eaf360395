import type { Readable } from 'node:stream';
import type { OrdersExportQuery } from '../../contract';
import type { Deps } from '../deps';
import { isoTimeSql, quoteAmountSql, tokenAmountSql } from './csv';
import { orderOnNetworkSql } from '../orders/payment-options';
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
  'kind',
  'resource',
  'payer',
];

/** Anyone's text among the fields (neutralised): the description, and an x402 payment's resource URL. */
const ANYONES = HEADER.map((field) => field === 'description' || field === 'resource');

/**
 * The orders created in a range of days, oldest first, as CSV (streamed, see keysetCsv). Payments'
 * transaction ids and senders are joined with ";". Times are ISO 8601 in UTC to the millisecond,
 * token amounts at least 6 decimals (formatAmount), the quote at least 2, all written by
 * the statement from the exact values. With `network`, only the orders on it (any payment option).
 * x402 payments (kind `x402`) are orders too, with the URL paid for and the payer.
 */
export function exportOrders(deps: Pick<Deps, 'db'>, merchantId: string, query: OrdersExportQuery): Readable {
  return keysetCsv(deps, merchantId, query, {
    name: query.network ? 'orders_on_network' : 'orders',
    header: HEADER,
    select: `SELECT o.created_at::text, o.id::text, o.reference, ${isoTimeSql('o.created_at')},
                    ${isoTimeSql('o.paid_at')}, o.status, o.network, o.token, ${tokenAmountSql('o.amount_units', 'o.token_decimals')},
                    o.quote_currency, ${quoteAmountSql('o.quote_units')}, o.fx_rate,
                    ${tokenAmountSql('o.amount_received_units', 'coalesce(o.sum_decimals, o.token_decimals)')},
                    ${tokenAmountSql('o.amount_refunded_units', 'coalesce(o.sum_decimals, o.token_decimals)')},
                    o.description, p.tx_ids, p.senders, o.kind, o.resource, o.payer
               FROM orders o
               LEFT JOIN LATERAL (SELECT string_agg(tx_id, ';' ORDER BY id) AS tx_ids,
                                         string_agg(sender, ';' ORDER BY id) AS senders
                                    FROM payment_claims WHERE order_id = o.id AND status = 'VERIFIED') p ON true
              WHERE o.merchant_id = $merchantId
                    ${query.network ? `AND ${orderOnNetworkSql('o', 'CAST($network AS text)')}` : ''}`,
    ...(query.network ? { values: { network: query.network } } : {}),
    atColumn: 'o.created_at',
    idColumn: 'o.id',
    anyones: ANYONES,
  });
}
