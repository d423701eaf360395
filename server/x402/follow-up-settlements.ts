import { TransactionReceiptNotFoundError, type Hex } from 'viem';
import type { Deps } from '../deps';
import { recordSettlement } from './record-settlement';
import { unrecordedSettlements, updateSettlement, type UnrecordedSettlement } from './settlement-rows';
import { x402EvmNetworks } from './x402-networks';

/**
 * Settlements a process left sent but without their order (it died after the broadcast, before
 * the order was written): each transaction's receipt is read; included, its order is written
 * (recordSettlement: once, whoever else tries), so the verifier credits it like any other;
 * reverted, the settlement failed (the authorization's nonce is unused); not found yet, it is
 * looked at again next run. Only rows idle for X402_SETTLE_TIMEOUT_MS: a settle still waiting for
 * its receipt is left to finish. Returns how many were moved on.
 */
export async function followUpSettlements(deps: Deps): Promise<number> {
  const rows = await unrecordedSettlements(
    deps,
    deps.config.x402.settleTimeoutMs,
    deps.config.JOB_BATCH_SIZE,
  );
  let moved = 0;
  for (const row of rows) {
    try {
      if (await followUp(deps, row)) moved++;
    } catch (error) {
      deps.logger.warn(
        { err: error, txId: row.transaction },
        'x402 settlement follow-up failed: tried again',
      );
    }
  }
  return moved;
}

async function followUp(deps: Deps, row: UnrecordedSettlement): Promise<boolean> {
  const net = x402EvmNetworks(deps).find((n) => n.caip2 === row.network);
  if (!net) return false;
  let receipt;
  try {
    receipt = await net.client.getTransactionReceipt({ hash: row.transaction as Hex });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return false;
    throw error;
  }
  if (receipt.status !== 'success') {
    await updateSettlement(deps, row.id, { status: 'failed', errorReason: 'transaction_reverted' });
    return true;
  }
  const merchant = await deps.cache.merchants.get(row.merchant_id);
  if (!merchant) return false;
  // The service writes it: the member who settled may have left since (the row keeps its key and
  // member ids); the money moved all the same.
  const orderId = await recordSettlement(deps, row.id, { merchant, by: null }, 'settled');
  return orderId !== null;
}
