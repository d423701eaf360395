/**
 * Base58 (Bitcoin alphabet) decoding. bs58 is only a transitive, untyped dependency of
 * @solana/web3.js, so this small decoder avoids relying on its hoisting.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const VALUES = new Map([...ALPHABET].map((char, index) => [char, BigInt(index)]));

/** The bytes a base58 string encodes, or null when it holds a character outside the alphabet. */
export function decodeBase58(input: string): Uint8Array | null {
  let value = 0n;
  let leadingZeros = 0;
  let leading = true;
  for (const char of input) {
    const digit = VALUES.get(char);
    if (digit === undefined) return null;
    // Each leading '1' stands for one zero byte that the numeric value cannot carry.
    if (leading && digit === 0n) leadingZeros++;
    else leading = false;
    value = value * 58n + digit;
  }
  const body: number[] = [];
  while (value > 0n) {
    body.push(Number(value & 0xffn));
    value >>= 8n;
  }
  const bytes = new Uint8Array(leadingZeros + body.length);
  body.reverse().forEach((byte, i) => (bytes[leadingZeros + i] = byte));
  return bytes;
}

export function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)]! + out;
    value /= 58n;
  }
  let leadingZeros = 0;
  while (leadingZeros < bytes.length && bytes[leadingZeros] === 0) leadingZeros++;
  return '1'.repeat(leadingZeros) + out;
}
