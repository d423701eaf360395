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
import { solanaOutcome } from './solana-outcome';
import { x402EvmNetworks, type X402EvmNetwork } from './x402-networks';
import { isSolanaCaip2 } from './x402-solana';

/**
 * Settlements left behind, each transaction looked up again (EVM: its receipt; Solana: its
 * signature's status, and whether its blockhash is still valid):
 * - sent but without their order (a process died after signing, before the order was written):
 *   included, its order is written (recordSettlement: once, whoever else tries), so the verifier
 *   credits it like any other; reverted, the settlement failed (EVM: the authorization's nonce is
 *   unused); not found: on EVM, unknown to the node with the authorization unused on chain, it
 *   never left (the process died before the broadcast) and the authorization is given back; on
 *   Solana, once its blockhash has expired it can never land and is given back too; else looked at
 *   again next run. Only rows idle for X402_SETTLE_TIMEOUT_MS: a settle still waiting is left to
 *   finish.
 * - `pending` with their order (not confirmed in time): `settled` once included (the order goes on
 *   from CONFIRMING to PAID by the network's confirmations, as the verifier does for any), `failed`
 *   if reverted, or (Solana) once its blockhash expired with the transaction not on chain: it can
 *   never land then. Until then they stay pending, never failed for want of a receipt.
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

type Row = { network: string; settlement_key: string; transaction: string; valid_before: Date | null };

/**
 * What became of a settlement's transaction (solanaOutcome's answers); undefined when x402 is no
 * longer on for its network. An EVM one without a receipt is `expired` once the chain's time is
 * past its authorization's validBefore with the authorization unused: the token refuses it then.
 */
async function outcomeOf(
  deps: Deps,
  row: Row,
): Promise<Awaited<ReturnType<typeof solanaOutcome>> | undefined> {
  if (isSolanaCaip2(row.network)) return solanaOutcome(deps, row);
  const net = networkOf(deps, row.network);
  if (!net) return undefined;
  const receipt = await receiptOf(net, row.transaction);
  if (receipt) return receipt.status === 'success' ? 'included' : 'reverted';
  if (!row.valid_before) return null;
  const { timestamp } = await net.client.getBlock({ blockTag: 'latest' });
  if (timestamp * 1000n <= BigInt(row.valid_before.getTime())) return null;
  if (await authorizationUsed(net, authorizationOfKey(row.settlement_key))) return null;
  // It may have been mined between the two reads: looked at once more, after.
  return (await receiptOf(net, row.transaction)) ? null : 'expired';
}

/** Whether an EVM transaction not found never left: unknown to the node, its authorization unused. */
async function evmNeverLeft(deps: Deps, row: Row): Promise<boolean> {
  const net = networkOf(deps, row.network);
  if (!net || (await nodeKnows(net.client, row.transaction as Hex))) return false;
  return !(await authorizationUsed(net, authorizationOfKey(row.settlement_key)));
}

const failed = (errorReason: string) => ({ status: 'failed' as const, errorReason });

async function recordUnrecorded(deps: Deps, row: UnrecordedSettlement, idleMs: number): Promise<boolean> {
  const outcome = await outcomeOf(deps, row);
  if (outcome === undefined) return false;
  if (outcome === null) {
    if (isSolanaCaip2(row.network) || !(await evmNeverLeft(deps, row))) return false;
    return releaseIdleClaim(deps, row.id, idleMs);
  }
  if (outcome === 'expired') {
    if (await releaseIdleClaim(deps, row.id, idleMs)) return true;
    await updateSettlement(deps, row.id, failed('transaction_expired'));
    return true;
  }
  if (outcome === 'reverted') {
    await updateSettlement(deps, row.id, failed('transaction_reverted'));
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
  const outcome = await outcomeOf(deps, row);
  if (!outcome) return false;
  await updateSettlement(
    deps,
    row.id,
    outcome === 'included'
      ? { status: 'settled' }
      : failed(outcome === 'expired' ? 'transaction_expired' : 'transaction_reverted'),
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
