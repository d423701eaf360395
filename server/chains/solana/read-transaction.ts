import type { Connection, Finality, TokenBalance } from '@solana/web3.js';
import type { ObservedTransaction, Transfer } from '../chain-adapter';
import { solanaRpc } from './rpc';

/**
 * Token movements from the transaction's own balance metadata: every positive change is a
 * transfer to that account's owner, sent by the owner of the largest debit of the same mint.
 */
export function tokenTransfers(
  pre: TokenBalance[] | null | undefined,
  post: TokenBalance[] | null | undefined,
): Transfer[] {
  const before = new Map((pre ?? []).map((b) => [b.accountIndex, BigInt(b.uiTokenAmount.amount)]));
  const changes = (post ?? []).map((b) => ({
    balance: b,
    delta: BigInt(b.uiTokenAmount.amount) - (before.get(b.accountIndex) ?? 0n),
  }));
  const senderOf = (mint: string): string | null => {
    const debits = changes
      .filter((c) => c.balance.mint === mint && c.delta < 0n && c.balance.owner)
      .sort((a, b) => (a.delta < b.delta ? -1 : a.delta > b.delta ? 1 : 0));
    return debits[0]?.balance.owner ?? null;
  };
  return changes
    .filter((c) => c.delta > 0n && c.balance.owner)
    .map((c) => ({
      from: senderOf(c.balance.mint),
      to: c.balance.owner!,
      token: c.balance.mint,
      amountUnits: c.delta,
      position: c.balance.accountIndex,
    }));
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
    // A Solana Pay reference is an account key of the transaction: every key is a candidate tag.
    tags: keys
      .keySegments()
      .flat()
      .map((k) => k.toBase58()),
    transfers: tokenTransfers(tx.meta?.preTokenBalances, tx.meta?.postTokenBalances),
  };
}
