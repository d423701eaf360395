import { isAddressEqual, isHex, recoverMessageAddress, type Address, type Hex } from 'viem';
import { normalizeEvmAddress } from './address';

/** An EIP-191 signature: 65 bytes (r, s, v) as hex. */
export function normalizeEvmSignature(signature: string): Hex | null {
  return isHex(signature) && signature.length === 132 ? (signature.toLowerCase() as Hex) : null;
}

/** Whether `address` signed the UTF-8 `message` with `personal_sign` (EIP-191). */
export async function verifyEvmMessage(
  message: string,
  signature: string,
  address: string,
): Promise<boolean> {
  const sig = normalizeEvmSignature(signature);
  const signer = normalizeEvmAddress(address);
  if (!sig || !signer) return false;
  try {
    const recovered = await recoverMessageAddress({ message, signature: sig });
    return isAddressEqual(recovered, signer as Address);
  } catch {
    // Not a point on the curve, or a v that is neither 27/28 nor 0/1: nobody's signature.
    return false;
  }
}
