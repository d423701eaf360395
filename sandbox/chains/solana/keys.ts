import { getBase58Decoder, getBase58Encoder } from '@solana/kit';

/**
 * Base58 for 32-byte keys and 64-byte signatures, memoized: kit's codec does BigInt arithmetic
 * per character, and the ledger converts the same few hundred keys over and over.
 */

const toText = getBase58Decoder();
const toBytes = getBase58Encoder();
const MAX_ENTRIES = 100_000;
const textByHex = new Map<string, string>();
const bytesByText = new Map<string, Uint8Array>();

export function base58(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
  let text = textByHex.get(hex);
  if (text === undefined) {
    if (textByHex.size >= MAX_ENTRIES) textByHex.clear();
    text = toText.decode(bytes);
    textByHex.set(hex, text);
  }
  return text;
}

/** The bytes of a base58 string; throws on characters outside the alphabet. */
export function base58Bytes(text: string): Uint8Array {
  let bytes = bytesByText.get(text);
  if (bytes === undefined) {
    if (bytesByText.size >= MAX_ENTRIES) bytesByText.clear();
    bytes = Uint8Array.from(toBytes.encode(text));
    bytesByText.set(text, bytes);
  }
  return bytes;
}

export const base64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
