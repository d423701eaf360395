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

/** A payment's key: its id zero-padded, so that text keys keep the ids' order; compared bytewise. */
const PAYMENT_KEY = `lpad(pc.id::text, 19, '0') COLLATE "C"`;
/** A payout item's key: its `pi_` id, which no payment's digits can equal. */
const OUTFLOW_KEY = `pi.id COLLATE "C"`;

/**
 * The payments ledger recorded in a range of days, oldest first, as a CSV stream: money in (verified
 * payments, `direction` IN, recorded when verified) and money out (confirmed payout items, OUT,
 * recorded when confirmed: `sender` the paying wallet, `recipient` the payee). Fiat at the order's
 * own rate, kept at 6 decimals and shown with 2 (half away from zero), as the summary's; times and
 * amounts written by the statement, from the branches' raw values, for the page's rows only.
 *
 * Both kinds page through one keyset of (time, key), the key text: a payment's zero-padded id or a
 * payout item's id, so the two never collide and every page starts where the last ended. Each
 * branch reads its own page through its index (payments by payment_claims_created_idx, as before
 * outflows were added); the two pages are then ordered together and the first of them kept.
 */
export function exportPayments(deps: Pick<Deps, 'db'>, merchantId: string, query: DateRangeQuery): Readable {
  return keysetCsv(deps, merchantId, query, {
    name: 'ledger',
    header: HEADER,
    select: (page) => `
      SELECT ledger.at::text, ledger.key, ${isoTimeSql('ledger.at')}, ledger.order_reference, ledger.network,
             ledger.token, ${tokenAmountSql('ledger.amount_units', 'ledger.decimals')}, ledger.tx_id, ledger.sender,
             ledger.matched_by, ${isoTimeSql('ledger.block_time')}, ledger.quote_currency, ledger.fx_rate,
             CASE WHEN ledger.fx_rate IS NULL THEN NULL
                  ELSE round(round(${fiatAtOrderRateSql('ledger.amount_units', 'ledger.fx_rate', 'ledger.decimals')}, 6), 2)::text END,
             ledger.direction, ledger.recipient, ledger.payout_id, ledger.payout_reference
        FROM (
          -- Each payment in the token of the option it credited (server/orders/payment-options.ts).
          (SELECT pc.created_at AS at, ${PAYMENT_KEY} AS key, o.reference AS order_reference,
                  ${claimOptionSql('pc', 'o', 'network')} AS network, ${claimOptionSql('pc', 'o', 'token')} AS token,
                  pc.amount_units, ${claimOptionSql('pc', 'o', 'token_decimals')} AS decimals, pc.tx_id, pc.sender,
                  pc.matched_by, pc.block_time, o.quote_currency, o.fx_rate, 'IN' AS direction,
                  NULL::text AS recipient, NULL::text AS payout_id, NULL::text AS payout_reference
             FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
            WHERE o.merchant_id = $merchantId AND pc.status = 'VERIFIED'
                  ${page('pc.created_at', PAYMENT_KEY)})
          UNION ALL
          (SELECT pi.confirmed_at, ${OUTFLOW_KEY}, NULL, pi.network, pi.token, pi.amount_units, pi.decimals,
                  pi.tx_id, pi.from_address, NULL, pi.block_time, NULL, NULL, 'OUT', pi.to_address, p.id, pi.reference
             FROM payout_items pi JOIN payouts p ON p.id = pi.payout_id
            WHERE p.merchant_id = $merchantId AND pi.status = 'CONFIRMED'
                  ${page('pi.confirmed_at', OUTFLOW_KEY)})
        ) ledger`,
    atColumn: 'ledger.at',
    idColumn: 'ledger.key',
    idType: 'text',
    anyones: ANYONES,
  });
}
