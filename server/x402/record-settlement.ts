import type { Token } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { createX402Order } from '../orders/create-x402-order';
import { submitPaymentClaim } from '../orders/submit-payment-claim';
import { endLease, leaseSettlement, type SettlementToRecord } from './settlement-rows';
import { settledToken } from './settled-token';

/** Who the order names: the settle's key and its maker, or (followed up after a crash) the service. */
export type SettledBy = { merchant: MerchantRow; by: Caller | null };

/**
 * Writes the order of kind `x402` of a sent settlement, once: under the settlement's lease, with
 * the reference chosen when it was claimed (unique among orders), so the settle and the follow-up
 * of a crash (followUpSettlements), on any instance, write one order between them. An order
 * already written (its writer died before linking it) gets its claim reported again, which is a
 * no-op when it has it. Returns the order's id; null when there is nothing to write or another
 * writer holds the lease.
 */
export async function recordSettlement(
  deps: Deps,
  id: string,
  by: SettledBy,
  /** The settlement's status from now on (the follow-up found its receipt); else as it is. */
  status?: 'settled',
): Promise<string | null> {
  const row = await leaseSettlement(deps, id);
  if (!row) return null;
  try {
    const orderId = await writeOrder(deps, row, by);
    await endLease(deps, id, { orderId, status: status ?? row.status });
    return orderId;
  } catch (error) {
    await endLease(deps, id);
    throw error;
  }
}

async function writeOrder(deps: Deps, row: SettlementToRecord, by: SettledBy): Promise<string> {
  const reference = row.order_reference!;
  const token = settledToken(deps, row.network, row.asset);
  if (!token || !row.wallet_id) throw new Error(`x402 is no longer on for ${row.asset} on ${row.network}`);
  const txId = token.txId(row.transaction!);
  const writtenId = async () =>
    (await deps.db.models.Order.findOne({ where: { reference }, attributes: ['id'] }))?.id;
  const reportAgain = async (orderId: string | number) => {
    await submitPaymentClaim(deps, {
      reference,
      merchantId: row.merchant_id,
      txId,
      network: token.network,
      source: 'x402',
      by: by.by ?? undefined,
    });
    return String(orderId);
  };
  const written = await writtenId();
  if (written) return reportAgain(written);
  try {
    const order = await createX402Order(deps, {
      merchant: by.merchant,
      by: by.by,
      reference,
      network: token.network,
      token: token.symbol as Token,
      tokenMint: token.contract,
      decimals: token.decimals,
      walletId: row.wallet_id,
      recipient: token.address(row.pay_to),
      amountUnits: BigInt(row.amount_units),
      payer: token.address(row.payer),
      resource: row.resource,
      txId,
    });
    return order.id;
  } catch (error) {
    // A writer whose lease ran out wrote it meanwhile (its reference is unique): that one stands.
    const meanwhile = await writtenId();
    if (meanwhile) return reportAgain(meanwhile);
    throw error;
  }
}
