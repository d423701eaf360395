import { sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { encodeBase58 } from '../../../server/lib/base58';

/** The PKCS#8 DER prefix of a raw 32-byte Ed25519 seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Signs the UTF-8 bytes of `message` as a Solana wallet's signMessage does: ed25519, base58. */
export function signSolanaMessage(keypair: Keypair, message: string): string {
  const key = Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(keypair.secretKey.slice(0, 32))]);
  return encodeBase58(sign(null, Buffer.from(message, 'utf8'), { key, format: 'der', type: 'pkcs8' }));
}
