/**
 * What the payer's Solana helper needs without bundling @solana/web3.js: the account's base58 form,
 * the serialized transaction's bytes and kind, and web3.js loaded on demand.
 */
import type { AccountLike } from './payer';
import { SolanaPaymentError } from './errors';

export function accountString(account: AccountLike | null | undefined, what: string): string {
  if (typeof account === 'string' && account !== '') return account;
  if (account && typeof account === 'object' && typeof account.toBase58 === 'function')
    return account.toBase58();
  throw new TypeError(`${what} is missing: connect the wallet first`);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a serialized transaction carries a versioned (v0) message rather than a legacy one. */
export function isVersionedTransaction(bytes: Uint8Array): boolean {
  let signatures = 0;
  let offset = 0;
  for (let shift = 0; offset < 3; shift += 7) {
    const byte = bytes[offset++] ?? 0;
    signatures |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
  }
  return ((bytes[offset + 64 * signatures] ?? 0) & 0x80) !== 0;
}

export async function loadWeb3(): Promise<typeof import('@solana/web3.js')> {
  try {
    return await import('@solana/web3.js');
  } catch (cause) {
    throw new SolanaPaymentError(
      'payWithSolanaWallet needs @solana/web3.js (^1.98): npm install @solana/web3.js',
      { cause },
    );
  }
}
