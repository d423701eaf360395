import type { Connection, Finality, TokenBalance } from '@solana/web3.js';
import type { Credit, ObservedTransaction } from '../chain-adapter';
import { solanaRpc } from './rpc';

/** Positive token-balance changes per owner and mint, from the transaction's own metadata. */
export function tokenCredits(
  pre: TokenBalance[] | null | undefined,
  post: TokenBalance[] | null | undefined,
): Credit[] {
  const before = new Map((pre ?? []).map((b) => [b.accountIndex, BigInt(b.uiTokenAmount.amount)]));
  const credits: Credit[] = [];
  for (const balance of post ?? []) {
    const delta = BigInt(balance.uiTokenAmount.amount) - (before.get(balance.accountIndex) ?? 0n);
    if (delta > 0n && balance.owner)
      credits.push({ owner: balance.owner, mint: balance.mint, amountUnits: delta });
  }
  return credits;
}

/**
 * Reads a transaction at `finality`. Absent there, a look at its signature status tells "not final
 * yet" from "not found", so a payment still settling is not rejected as missing.
 */
export async function readSolanaTransaction(
  connection: Connection,
  finality: Finality,
  txId: string,
): Promise<ObservedTransaction> {
  const tx = await solanaRpc('getTransaction', () =>
    connection.getTransaction(txId, { commitment: finality, maxSupportedTransactionVersion: 0 }),
  );
  if (!tx) {
    if (finality === 'confirmed') return { txId, state: 'not_found' };
    const { value } = await solanaRpc('getSignatureStatuses', () =>
      connection.getSignatureStatuses([txId], { searchTransactionHistory: true }),
    );
    return { txId, state: value[0] ? 'not_final' : 'not_found' };
  }
  const keys = tx.transaction.message.getAccountKeys({
    accountKeysFromLookups: tx.meta?.loadedAddresses ?? undefined,
  });
  return {
    txId,
    state: !tx.meta || tx.meta.err ? 'failed' : 'final',
    blockTime: tx.blockTime ? new Date(tx.blockTime * 1000) : null,
    accountKeys: keys
      .keySegments()
      .flat()
      .map((k) => k.toBase58()),
    credits: tokenCredits(tx.meta?.preTokenBalances, tx.meta?.postTokenBalances),
  };
}
