import { createHash } from 'node:crypto';
import { TronWeb } from 'tronweb';
import type { Address, Hex } from 'viem';

/**
 * TRON's names for the things Hardhat names its own way. Addresses: base58check of 0x41 + the 20
 * bytes an EVM address holds; the HTTP API writes them as 42 hex digits starting `41`.
 * Transaction ids: sha256 of the raw_data protobuf. Block ids: the block number in the first 8 bytes
 * and a hash in the other 24 (so a transaction's ref_block_bytes/ref_block_hash point at a block by
 * its number and check it by its id; developers.tron.network/docs/tron-protocol-transaction).
 */

/** `T…` of a 20-byte `0x` address. */
export const base58Of = (address: Address | Hex): string =>
  TronWeb.address.fromHex(`41${address.slice(2).toLowerCase()}`) as string;

/** `41…` (the HTTP API's hex form) of a 20-byte `0x` address. */
export const hex41Of = (address: Address | Hex): string => `41${address.slice(2).toLowerCase()}`;

/**
 * The 20-byte `0x` address of a TRON address given as base58 `T…` or hex `41…`; null when it is
 * neither (wrong checksum, wrong length, another prefix).
 */
export function evmAddressOf(address: string): Address | null {
  if (/^41[0-9a-fA-F]{40}$/.test(address)) return `0x${address.slice(2).toLowerCase()}`;
  if (!TronWeb.isAddress(address) || address.startsWith('41')) return null;
  return `0x${(TronWeb.address.toHex(address) as string).slice(2).toLowerCase()}`;
}

/** TRON's transaction id: sha256 of raw_data's protobuf bytes (64 hex digits, no 0x). */
export const txIdOf = (rawDataHex: string): string =>
  createHash('sha256').update(Buffer.from(rawDataHex, 'hex')).digest('hex');

/** A TRON-shaped id for a transaction the gateway did not see broadcast (a deployment, say). */
export const syntheticTxIdOf = (hardhatHash: Hex): string =>
  createHash('sha256')
    .update(Buffer.from(`stablepay-local-tron:${hardhatHash.toLowerCase()}`))
    .digest('hex');

/** The block id (64 hex digits) of block `number` whose Hardhat hash is `hash`. */
export const blockIdOf = (number: bigint, hash: Hex): string =>
  number.toString(16).padStart(16, '0') + hash.slice(2 + 16).toLowerCase();

/** The block number a block id names (its first 8 bytes). */
export const numberOfBlockId = (blockId: string): bigint =>
  BigInt(`0x${blockId.replace(/^0x/, '').slice(0, 16)}`);

/** A transaction's TaPoS fields for a block (what tronweb's getCurrentRefBlockParams derives). */
export const refBlockOf = (number: bigint, blockId: string) => ({
  ref_block_bytes: (number & 0xffffn).toString(16).padStart(4, '0'),
  ref_block_hash: blockId.slice(16, 32),
});
