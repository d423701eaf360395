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
  'direction',
  'recipient',
  'payout_id',
  'payout_reference',
];

/** Anyone's text among the fields: a payout item's reference (the rest the service recorded). */
const ANYONES = HEADER.map((field) => field === 'payout_reference');

const DECIMALS = claimOptionSql('pc', 'o', 'token_decimals');

/**
 * The payments ledger recorded in a range of days, oldest first, as a CSV stream: money in (verified
 * payments, `direction` IN, recorded when verified) and money out (confirmed payout items, OUT,
 * recorded when confirmed: `sender` the paying wallet, `recipient` the payee). Fiat at the order's
 * own rate, kept at 6 decimals and shown with 2 (half away from zero), as the summary's; times and
 * amounts written by the statement (see exportOrders).
 *
 * Both kinds page through one keyset of (time, key): the key is text, a payment's id zero-padded
 * (numbers in their order) or a payout item's `pi_` id, compared bytewise (COLLATE "C"), so the two
 * never collide and every page starts where the last ended. PostgreSQL takes the range and keyset
 * conditions into each branch of the UNION ALL, so each still reads only its own range.
 */
export function exportPayments(deps: Pick<Deps, 'db'>, merchantId: string, query: DateRangeQuery): Readable {
  return keysetCsv(deps, merchantId, query, {
    name: 'ledger',
    header: HEADER,
    select: `SELECT ledger.at::text, ledger.key, ${HEADER.map((field) => `ledger.${field}`).join(', ')}
               FROM (
                 -- Each payment in the token of the option it credited (server/orders/payment-options.ts).
                 SELECT pc.created_at AS at, lpad(pc.id::text, 19, '0') COLLATE "C" AS key, o.merchant_id,
                        ${isoTimeSql('pc.created_at')} AS recorded_at, o.reference AS order_reference,
                        ${claimOptionSql('pc', 'o', 'network')} AS network, ${claimOptionSql('pc', 'o', 'token')} AS token,
                        ${tokenAmountSql('pc.amount_units', DECIMALS)} AS amount, pc.tx_id, pc.sender, pc.matched_by,
                        ${isoTimeSql('pc.block_time')} AS block_time, o.quote_currency, o.fx_rate::text AS fx_rate,
                        CASE WHEN o.fx_rate IS NULL THEN NULL
                             ELSE round(round(${fiatAtOrderRateSql('pc.amount_units', 'o.fx_rate', DECIMALS)}, 6), 2)::text END AS fiat_amount,
                        'IN' AS direction, NULL::text AS recipient, NULL::text AS payout_id, NULL::text AS payout_reference
                   FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
                  WHERE pc.status = 'VERIFIED'
                 UNION ALL
                 SELECT pi.confirmed_at, pi.id COLLATE "C", p.merchant_id,
                        ${isoTimeSql('pi.confirmed_at')}, NULL, pi.network, pi.token,
                        ${tokenAmountSql('pi.amount_units', 'pi.decimals')}, pi.tx_id, pi.from_address, NULL,
                        ${isoTimeSql('pi.block_time')}, NULL, NULL, NULL,
                        'OUT', pi.to_address, p.id, pi.reference
                   FROM payout_items pi JOIN payouts p ON p.id = pi.payout_id
                  WHERE pi.status = 'CONFIRMED'
               ) ledger
              WHERE ledger.merchant_id = $merchantId`,
    atColumn: 'ledger.at',
    idColumn: 'ledger.key',
    idType: 'text',
    anyones: ANYONES,
  });
}
