import type { Deps } from '../deps';
import { payableNow } from '../orders/payable';
import {
  namesAnOrder,
  orderNamed,
  orderPaidExactly,
  untaggedCreatedBy,
  type PaymentScope,
} from './credited-to';

/**
 * The order a payment to (recipient, token) belongs to, by the evidence the scanner has: the one
 * its tag names, else the one watched order whose amount (or amount still due) on one of its
 * payment options to this recipient and token it pays exactly; none when that amount is several
 * orders' (it is then kept unattributed). Only orders of the address's owner count.
 */
export async function matchOrder(
  deps: Deps,
  scope: PaymentScope,
  tx: { tags: string[]; blockTime: Date | null },
  credited: bigint,
): Promise<string | null> {
  const tagged = await orderNamed(deps.db, scope, tx.tags);
  if (tagged) return tagged.id;
  // Naming an order elsewhere (another wallet's, another shop's), the transaction is that order's.
  if (await namesAnOrder(deps.db, tx.tags)) return null;
  // The one order whose amount or remainder it is; none when several match (amountEvidence).
  const exact = await orderPaidExactly(deps.db, scope, credited, {
    payable: payableNow(deps),
    createdBy: untaggedCreatedBy(tx.blockTime),
  });
  return exact?.id ?? null;
}
