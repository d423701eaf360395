import { parseAbi, type Hex } from 'viem';
import artifact from './PayoutBatch.json' with { type: 'json' };

/**
 * PayoutBatch.sol (this folder): one transaction pays a payout's items of one token on an EVM
 * network, from the merchant's wallet, after it approved the contract for their total. The source
 * and its compiled artifact are committed (sandbox/chains/evm/committed-artifacts.ts rebuilds it,
 * test/unit/committed-artifacts.test.ts checks it); each merchant deploys it once per network.
 */

/** Its interface, as viem encodes and decodes it (test/unit/payout-batch-abi.test.ts: the artifact's). */
export const PAYOUT_BATCH_ABI = parseAbi([
  'function pay(address token, address[] to, uint256[] amounts, bytes32[] tags)',
  'event Paid(bytes32 indexed tag, address indexed token, address indexed to, uint256 amount)',
  'error LengthMismatch()',
  'error SafeERC20FailedOperation(address token)',
]);

/** The creation bytecode a merchant's wallet sends (as a transaction without `to`) to deploy it. */
export const PAYOUT_BATCH_BYTECODE = artifact.bytecode as Hex;

/** The artifact's own ABI, for the check that PAYOUT_BATCH_ABI says the same. */
export const PAYOUT_BATCH_ARTIFACT_ABI: readonly unknown[] = artifact.abi;
