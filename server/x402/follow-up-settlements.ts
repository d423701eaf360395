import { TransactionReceiptNotFoundError, type Hex, type TransactionReceipt } from 'viem';
import type { Deps } from '../deps';
import type { Caller } from '../events/actor';
import { authorizationOfKey, authorizationUsed } from './eip3009-authorization';
import { nodeKnows } from './evm-signer';
import { recordSettlement } from './record-settlement';
import {
  pendingSettlements,
  releaseIdleClaim,
  unrecordedSettlements,
  updateSettlement,
  type PendingSettlement,
  type UnrecordedSettlement,
} from './settlement-rows';
import { x402EvmNetworks, type X402EvmNetwork } from './x402-networks';

/**
 * Settlements left behind, each transaction's receipt read again:
 * - sent but without their order (a process died after signing, before the order was written):
 *   included, its order is written (recordSettlement: once, whoever else tries), so the verifier
 *   credits it like any other; reverted, the settlement failed (the authorization's nonce is
 *   unused); not found and unknown to the node with the authorization unused on chain, it never
 *   left (the process died before the broadcast): the authorization is given back; else looked at
 *   again next run. Only rows idle for X402_SETTLE_TIMEOUT_MS: a settle still waiting for its
 *   receipt is left to finish.
 * - `pending` with their order (no receipt in time): `settled` once included (the order goes on
 *   from CONFIRMING to PAID by the network's confirmations, as the verifier does for any), `failed`
 *   if reverted; until then they stay pending, never failed for want of a receipt.
 * Returns how many were moved on.
 */
export async function followUpSettlements(deps: Deps): Promise<number> {
  const limit = deps.config.JOB_BATCH_SIZE;
  const idleMs = deps.config.x402.settleTimeoutMs;
  const unrecorded = await unrecordedSettlements(deps, idleMs, limit);
  const pending = await pendingSettlements(deps, limit);
  let moved = 0;
  const each = async <R extends { transaction: string }>(
    rows: R[],
    followUp: (row: R) => Promise<boolean>,
  ) => {
    for (const row of rows)
      try {
        if (await followUp(row)) moved++;
      } catch (error) {
        deps.logger.warn(
          { err: error, txId: row.transaction },
          'x402 settlement follow-up failed: tried again',
        );
      }
  };
  await each(unrecorded, (row) => recordUnrecorded(deps, row, idleMs));
  await each(pending, (row) => settlePending(deps, row));
  return moved;
}

const networkOf = (deps: Deps, caip2: string) => x402EvmNetworks(deps).find((n) => n.caip2 === caip2);

/** The transaction's receipt; null while there is none. */
async function receiptOf(net: X402EvmNetwork, hash: string): Promise<TransactionReceipt | null> {
  try {
    return await net.client.getTransactionReceipt({ hash: hash as Hex });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

async function recordUnrecorded(deps: Deps, row: UnrecordedSettlement, idleMs: number): Promise<boolean> {
  const net = networkOf(deps, row.network);
  if (!net) return false;
  const receipt = await receiptOf(net, row.transaction);
  if (!receipt) {
    if (await nodeKnows(net.client, row.transaction as Hex)) return false;
    if (await authorizationUsed(net, authorizationOfKey(row.settlement_key))) return false;
    return releaseIdleClaim(deps, row.id, idleMs);
  }
  if (receipt.status !== 'success') {
    await updateSettlement(deps, row.id, { status: 'failed', errorReason: 'transaction_reverted' });
    return true;
  }
  const merchant = await deps.cache.merchants.get(row.merchant_id);
  if (!merchant) return false;
  const orderId = await recordSettlement(
    deps,
    row.id,
    { merchant, by: await settledBy(deps, row) },
    'settled',
  );
  return orderId !== null;
}

async function settlePending(deps: Deps, row: PendingSettlement): Promise<boolean> {
  const net = networkOf(deps, row.network);
  if (!net) return false;
  const receipt = await receiptOf(net, row.transaction);
  if (!receipt) return false;
  await updateSettlement(
    deps,
    row.id,
    receipt.status === 'success'
      ? { status: 'settled' }
      : { status: 'failed', errorReason: 'transaction_reverted' },
  );
  return true;
}

/**
 * Who settled it, as the row kept them: the key and its maker, while the member is still in the
 * account; else the service (null), which records it all the same: the money moved.
 */
async function settledBy(deps: Deps, row: UnrecordedSettlement): Promise<Caller | null> {
  if (!row.member_id) return null;
  const member = await deps.db.models.Member.findOne({
    where: { id: row.member_id, merchantId: row.merchant_id, removedAt: null },
    attributes: ['id', 'email', 'tokenVersion'],
    raw: true,
  });
  if (!member) return null;
  const key = row.api_key_id
    ? await deps.db.models.ApiKey.findByPk(row.api_key_id, { attributes: ['id', 'name'], raw: true })
    : null;
  return { member, apiKey: key && { id: key.id, name: key.name } };
}
