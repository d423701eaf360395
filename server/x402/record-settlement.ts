import { getAddress } from 'viem';
import type { MemberRow, MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import type { ActingKey } from '../events/audit';
import { createX402Order } from '../orders/create-x402-order';
import { submitPaymentClaim } from '../orders/submit-payment-claim';
import { lockSettlement, updateSettlement } from './settlement-rows';
import { x402EvmNetworks } from './x402-networks';

/** Who the order names: the settle's key and its maker, or (followed up after a crash) the key alone. */
export type SettledBy = {
  merchant: MerchantRow;
  member: Pick<MemberRow, 'id' | 'email' | 'tokenVersion'> | null;
  actingKey: ActingKey;
};

/**
 * Writes the order of kind `x402` of a sent settlement, once: under the settlement's row lock,
 * with the reference chosen when it was claimed, so the settle and the follow-up of a crash
 * (followUpSettlements), on any instance, write one order between them. An order already written
 * (the process died before linking it) gets its claim reported again, which is a no-op when it
 * has it. Returns the order's id, null when the row has nothing to record.
 * Runs on two connections: the lock's, and the order's own statements (which wait on nothing of it).
 */
export async function recordSettlement(
  deps: Deps,
  id: string,
  by: SettledBy,
  /** The settlement's status from now on (the follow-up found its receipt); else as it is. */
  status?: 'settled',
): Promise<string | null> {
  return deps.db.sequelize.transaction(async (transaction) => {
    const row = await lockSettlement(deps, id, transaction);
    if (!row || !row.transaction || !row.order_reference || !row.wallet_id) return null;
    if (row.order_id) return row.order_id;
    const net = x402EvmNetworks(deps).find((n) => n.caip2 === row.network);
    const token = net?.tokens.find((t) => t.contract === getAddress(row.asset));
    if (!net || !token) throw new Error(`x402 is no longer on for ${row.asset} on ${row.network}`);
    const txId = row.transaction.toLowerCase();
    const written = await deps.db.models.Order.findOne({
      where: { reference: row.order_reference },
      attributes: ['id'],
    });
    let orderId: string;
    if (written) {
      await submitPaymentClaim(deps, {
        reference: row.order_reference,
        merchantId: row.merchant_id,
        txId,
        network: net.network,
        source: 'x402',
        actingKey: by.actingKey,
      });
      orderId = String(written.id);
    } else {
      const order = await createX402Order(deps, {
        merchant: by.merchant,
        member: by.member,
        actingKey: by.actingKey,
        reference: row.order_reference,
        network: net.network,
        token: token.symbol as 'USDC',
        tokenMint: token.contract,
        decimals: token.decimals,
        walletId: row.wallet_id,
        recipient: getAddress(row.pay_to),
        amountUnits: BigInt(row.amount_units),
        payer: getAddress(row.payer),
        resource: row.resource,
        txId,
      });
      orderId = order.id;
    }
    await updateSettlement(deps, id, { status: status ?? row.status, orderId }, transaction);
    return orderId;
  });
}
