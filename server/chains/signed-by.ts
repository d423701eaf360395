/**
 * Whether `signer` signed with `signature`, as `recoversSigner` tells for the well-formed pair: a
 * malformed signature or address, or one the curve math refuses (not a point on the curve, a v
 * that is neither 27/28 nor 0/1), is nobody's signature.
 */
export async function signedBy<S, A>(
  signature: S | null,
  signer: A | null,
  recoversSigner: (signature: S, signer: A) => boolean | Promise<boolean>,
): Promise<boolean> {
  if (!signature || !signer) return false;
  try {
    return await recoversSigner(signature, signer);
  } catch {
    return false;
  }
}
