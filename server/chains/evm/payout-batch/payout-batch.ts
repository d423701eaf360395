import { parseAbi, toHex, type Hex } from 'viem';
import { decodeBase58, encodeBase58 } from '../../../lib/base58';
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

/**
 * The runtime code a deployment leaves on chain (what eth_getCode answers at a verified contract):
 * the part of the creation bytecode its constructor copies out. solc's constructor ends with
 * `PUSH2 length DUP1 PUSH2 offset PUSH0 CODECOPY PUSH0 RETURN INVALID`; the contract takes no
 * constructor arguments and has no immutables, so the code is that slice exactly.
 */
export const PAYOUT_BATCH_RUNTIME: Hex = runtimeOf(PAYOUT_BATCH_BYTECODE);

function runtimeOf(creation: Hex): Hex {
  const match = /^0x[0-9a-f]*?61([0-9a-f]{4})8061([0-9a-f]{4})5f395ff3fe/.exec(creation);
  if (!match) throw new Error('PayoutBatch.json: no runtime code found in its creation bytecode');
  const length = parseInt(match[1]!, 16);
  const offset = parseInt(match[2]!, 16);
  const runtime = creation.slice(2 + offset * 2, 2 + (offset + length) * 2);
  if (runtime.length !== length * 2 || 2 + (offset + length) * 2 !== creation.length)
    throw new Error('PayoutBatch.json: its runtime code is not the end of its creation bytecode');
  return `0x${runtime}`;
}

/** An item's tag (a 32-byte key, base58) as pay() takes it, and back. */
export const tagToBytes32 = (tag: string): Hex => {
  const bytes = decodeBase58(tag);
  if (!bytes || bytes.length !== 32) throw new Error(`payout tag is not a 32-byte key: "${tag}"`);
  return toHex(bytes);
};
export const tagFromBytes32 = (word: string): string => encodeBase58(Buffer.from(word.slice(2), 'hex'));
