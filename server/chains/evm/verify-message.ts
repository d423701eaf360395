import { isAddressEqual, isHex, recoverMessageAddress, type Address, type Hex } from 'viem';
import { signedBy } from '../signed-by';
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
  return signedBy(normalizeEvmSignature(signature), normalizeEvmAddress(address), async (sig, signer) =>
    isAddressEqual(await recoverMessageAddress({ message, signature: sig }), signer as Address),
  );
}
