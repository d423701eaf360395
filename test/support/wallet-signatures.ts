import { sign } from 'node:crypto';
import type { Keypair } from '@solana/web3.js';
import { encodeBase58 } from '../../server/lib/base58';

/** ed25519 over the UTF-8 message with a web3.js keypair, base58: what a Solana wallet's signMessage gives. */
export function solanaSignMessage(keypair: Keypair, message: string): string {
  const pkcs8 = Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(keypair.secretKey.slice(0, 32)),
  ]);
  return encodeBase58(sign(null, Buffer.from(message, 'utf8'), { key: pkcs8, format: 'der', type: 'pkcs8' }));
}
