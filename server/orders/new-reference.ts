import { Keypair } from '@solana/web3.js';

/** A fresh random Solana public key: the Solana Pay reference, and the order's id on every network. */
export function newReference(): string {
  return Keypair.generate().publicKey.toBase58();
}
