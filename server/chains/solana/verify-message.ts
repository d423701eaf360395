import { createPublicKey, verify } from 'node:crypto';
import { decodeBase58 } from '../../lib/base58';

/** An ed25519 signature: 64 bytes in base58. */
export function normalizeSolanaSignature(signature: string): string | null {
  return signature.length <= 90 && decodeBase58(signature)?.length === 64 ? signature : null;
}

/** Whether the key `address` (base58, 32 bytes) signed the UTF-8 bytes of `message` (ed25519). */
export function verifySolanaMessage(message: string, signature: string, address: string): boolean {
  const sig = normalizeSolanaSignature(signature) ? decodeBase58(signature) : null;
  const key = address.length <= 50 ? decodeBase58(address) : null;
  if (!sig || key?.length !== 32) return false;
  try {
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, Buffer.from(message, 'utf8'), publicKey, sig);
  } catch {
    // Bytes that are no point on the curve: no key, no signature.
    return false;
  }
}
