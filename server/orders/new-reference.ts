import { encodeBase58 } from '../lib/base58';
import { randomBytesPooled } from '../lib/random-pool';

/**
 * A fresh random 32-byte key in base58: the Solana Pay reference and the order's id on every
 * network. Any 32 bytes name an account for lookups, so no key pair is made (generating one cost
 * more than the rest of order creation's CPU).
 */
export function newReference(): string {
  return encodeBase58(randomBytesPooled(32));
}
