import type { Deps } from '../deps';
import { authorizationOfKey, authorizationUsed, transactionThatUsed } from './eip3009-authorization';
import { adoptTransaction, idleClaims, releaseIdleClaim, type IdleClaim } from './settlement-rows';
import { x402EvmNetworks } from './x402-networks';
import { isSolanaCaip2 } from './x402-solana';

/**
 * Claims a process left before signing (it died after claiming an authorization), idle for
 * X402_SETTLE_TIMEOUT_MS: each is given back when nothing on chain used its authorization (the
 * token's authorizationState), so the payment may be presented again instead of answering
 * `settlement_in_progress` for ever; a settlement still under way that comes to sign after that
 * sends nothing (markSigned). Used on chain (settled by someone else meanwhile), the transaction
 * that used it is taken as the claim's and followed up as a sent one (followUpSettlements). Returns
 * how many were moved on.
 */
export async function expireClaims(deps: Deps): Promise<number> {
  const idleMs = deps.config.x402.settleTimeoutMs;
  const rows = await idleClaims(deps, idleMs, deps.config.JOB_BATCH_SIZE);
  let moved = 0;
  for (const row of rows) {
    try {
      if (await expire(deps, row, idleMs)) moved++;
    } catch (error) {
      deps.logger.warn({ err: error, settlementId: row.id }, 'x402 idle claim not expired: tried again');
    }
  }
  return moved;
}

async function expire(deps: Deps, row: IdleClaim, idleMs: number): Promise<boolean> {
  // Solana: nothing is broadcast before its signature is recorded, and nothing lands without the
  // fee payer's: a claim without one sent nothing.
  if (isSolanaCaip2(row.network)) return releaseIdleClaim(deps, row.id, idleMs);
  const net = x402EvmNetworks(deps).find((n) => n.caip2 === row.network);
  if (!net) return false;
  const authorization = authorizationOfKey(row.settlement_key);
  if (!(await authorizationUsed(net, authorization))) return releaseIdleClaim(deps, row.id, idleMs);
  const transaction = await transactionThatUsed(deps, net, authorization);
  if (!transaction) {
    deps.logger.warn(
      { settlementId: row.id },
      'x402 idle claim: its authorization was used on chain, by a transaction older than EVM_LOG_RANGE blocks',
    );
    return false;
  }
  await adoptTransaction(deps, row.id, transaction, idleMs);
  return true;
}
