import fs from 'node:fs';
import type { Abi, Hex } from 'viem';
import type { TokenArtifact } from './compile-token';
import { COMMITTED_CONTRACTS } from './committed-artifacts';

/**
 * UsdcToken.sol: the EIP-3009 USDC of the local EVM chains (x402's `exact` scheme on EVM settles
 * with transferWithAuthorization). It imports OpenZeppelin, so its artifact is committed
 * (committed-artifacts.ts): the chains deploy the committed artifact.
 */

/** The EIP-712 version Circle's USDC uses: the x402 client signs with the name and version read from the token. */
export const USDC_EIP712_VERSION = '2';

/** The committed artifact (ABI and creation bytecode). */
export function usdcTokenArtifact(): TokenArtifact {
  const usdc = COMMITTED_CONTRACTS.find((c) => c.contract === 'UsdcToken')!;
  const stored = JSON.parse(fs.readFileSync(usdc.artifact, 'utf8')) as { abi: Abi; bytecode: Hex };
  return { abi: stored.abi, bytecode: stored.bytecode };
}
