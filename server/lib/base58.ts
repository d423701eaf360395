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

/**
 * Digit by digit (base-58 digits kept in a small array, least significant first) rather than
 * through one BigInt: a reference is encoded per order, and the BigInt way took twice as long.
 */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256) / log(58) < 1.37 digits per byte; small integers throughout (carry < 58 * 256).
  const digits = new Uint8Array(Math.ceil((bytes.length - zeros) * 1.37) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < length; j++) {
      carry += digits[j]! << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits[length++] = carry % 58;
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let j = length - 1; j >= 0; j--) out += ALPHABET[digits[j]!];
  return out;
}
