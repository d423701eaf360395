import { sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { encodeBase58 } from '../../../server/lib/base58';

/** The PKCS#8 DER prefix of a raw 32-byte Ed25519 seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The raw ed25519 signature of `bytes` by `keypair` (64 bytes), as a wallet's signMessage returns it. */
export function signSolanaBytes(keypair: Keypair, bytes: Uint8Array): Uint8Array {
  const key = Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(keypair.secretKey.slice(0, 32))]);
  return new Uint8Array(sign(null, bytes, { key, format: 'der', type: 'pkcs8' }));
}

/** Signs the UTF-8 bytes of `message` as a Solana wallet's signMessage does: ed25519, base58. */
export function signSolanaMessage(keypair: Keypair, message: string): string {
  return encodeBase58(signSolanaBytes(keypair, Buffer.from(message, 'utf8')));
}
