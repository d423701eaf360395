import { signedBy } from '../signed-by';
import { normalizeTronAddress } from './address';
import { loadTronWeb } from './build-transfer';

/** A TIP-191 signature as `signMessageV2` gives it: 65 bytes (r, s, v) as 0x hex, lower-cased. */
export function normalizeTronSignature(signature: string): string | null {
  return /^0x[0-9a-fA-F]{130}$/.test(signature) ? signature.toLowerCase() : null;
}

/**
 * Whether `address` (base58) signed the UTF-8 `message` TIP-191 style (TronLink's
 * `signMessageV2`: keccak256 of "\x19TRON Signed Message:\n" + length + message). tronweb recovers
 * the signer's base58 address. Pure: no RPC call.
 */
export async function verifyTronMessage(
  message: string,
  signature: string,
  address: string,
): Promise<boolean> {
  const { utils } = await loadTronWeb();
  return signedBy(
    normalizeTronSignature(signature),
    normalizeTronAddress(address),
    (sig, signer) => utils.message.verifyMessage(message, sig) === signer,
  );
}
