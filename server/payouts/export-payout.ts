import { PAYOUT_CSV_EXPORT_HEADER } from '../../contract';
import { csvRecord } from '../dashboard/csv';
import type { Deps } from '../deps';
import { findPayout } from './find-payout';
import { presentPayout } from './present-payout';

/** Anyone's text among the fields: the merchant's reference and note (neutralised against formulas). */
const ANYONES = PAYOUT_CSV_EXPORT_HEADER.map((field) => field === 'reference' || field === 'note');

/**
 * GET /payouts/{id}.csv: the batch's items as GET /payouts/{id} presents them (amounts exact in the
 * token's decimals, statuses, transactions), one record each. At most 500 rows: made whole, not
 * streamed page by page as the ledger exports are.
 */
export async function exportPayout(
  deps: Pick<Deps, 'db'>,
  input: { merchantId: string; id: string },
): Promise<string> {
  const payout = await presentPayout(deps, await findPayout(deps, input));
  let text = csvRecord(PAYOUT_CSV_EXPORT_HEADER);
  for (const item of payout.items)
    text += csvRecord(
      [
        item.id,
        item.network,
        item.token,
        item.to,
        item.amount,
        item.reference,
        item.note,
        item.status,
        item.txId,
        item.failureReason,
        item.confirmedAt,
      ],
      ANYONES,
    );
  return text;
}
