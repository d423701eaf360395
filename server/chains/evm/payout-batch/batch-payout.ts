import {
  decodeEventLog,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  toFunctionSelector,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import type { BatchCall, PayoutTransactionDraft, RefundTarget } from '../../chain-adapter';
import { normalizeEvmAddress } from '../address';
import { evmRpc } from '../client';
import { PAYOUT_BATCH_ABI, tagFromBytes32, tagToBytes32 } from './payout-batch';

/** Gas when a call cannot be simulated yet (pay() before its approve is mined): measured on Hardhat, rounded up. */
export const FALLBACK_APPROVE_GAS = 60_000n;
export const FALLBACK_PAY_GAS = { base: 40_000n, perItem: 40_000n };

/**
 * Most items one pay() carries: each costs about 31,000 gas (a transfer to a new holder and its
 * Paid event), and a transaction may use at most 2^24 gas (EIP-7825, and Hardhat's cap), so 500
 * would not fit in one; 200 leave room for tokens that cost more.
 */
export const PAY_ITEMS_PER_CALL = 200;

const PAY_SELECTOR = toFunctionSelector('function pay(address,address[],uint256[],bytes32[])');

/**
 * The transactions that pay `targets` from `from` through the batch contract at `contract`: for
 * each token, in the items' order, an approve of the contract for the token's total, then one
 * pay() naming every item by its tag (the contract emits a Paid per item), or one per
 * PAY_ITEMS_PER_CALL items beyond that. Fees at today's gas
 * price; pay() is estimated once the allowance is there, else by its measured cost per item.
 */
export async function buildBatchPayout(
  client: PublicClient,
  chain: { network: string; chainId: number },
  from: string,
  contract: string,
  targets: RefundTarget[],
): Promise<PayoutTransactionDraft[]> {
  const account = getAddress(from);
  const batch = getAddress(contract);
  const byToken = new Map<Address, RefundTarget[]>();
  for (const t of targets) {
    const token = getAddress(t.tokenMint);
    byToken.set(token, [...(byToken.get(token) ?? []), t]);
  }
  const gasPrice = await evmRpc(chain.network, 'eth_gasPrice', () => client.getGasPrice());
  const estimate = (to: Address, data: Hex, fallback: bigint) =>
    client.estimateGas({ account, to, data }).catch(() => fallback);
  const drafts: PayoutTransactionDraft[] = [];
  for (const [token, items] of byToken) {
    const ids = items.map((t) => t.id);
    const total = items.reduce((sum, t) => sum + t.amountUnits, 0n);
    const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [batch, total] });
    const body = (to: Address, data: Hex) => ({ chainId: chain.chainId, to, data, value: '0' as const });
    const approveGas = await estimate(token, approve, FALLBACK_APPROVE_GAS);
    drafts.push({
      ids,
      purpose: 'approve',
      transaction: body(token, approve),
      feeUnits: approveGas * gasPrice,
      feeDecimals: 18,
    });
    for (let start = 0; start < items.length; start += PAY_ITEMS_PER_CALL) {
      const part = items.slice(start, start + PAY_ITEMS_PER_CALL);
      const pay = encodeFunctionData({
        abi: PAYOUT_BATCH_ABI,
        functionName: 'pay',
        args: [
          token,
          part.map(recipientOf),
          part.map((t) => t.amountUnits),
          part.map((t) => tagToBytes32(t.tag)),
        ],
      });
      const payGas = await estimate(
        batch,
        pay,
        FALLBACK_PAY_GAS.base + FALLBACK_PAY_GAS.perItem * BigInt(part.length),
      );
      drafts.push({
        ids: part.map((t) => t.id),
        purpose: 'pay',
        transaction: body(batch, pay),
        feeUnits: payGas * gasPrice,
        feeDecimals: 18,
      });
    }
  }
  return drafts;
}

function recipientOf(target: RefundTarget): Address {
  const to = normalizeEvmAddress(target.to);
  if (!to) throw new Error(`payout address is not an EVM address: "${target.to}"`);
  return to;
}

type RawLog = {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: string | number | bigint | null;
};

/**
 * A transaction's pay() call as the chain recorded it: the tags its calldata names and the Paid
 * events the called contract emitted (events of any other contract are left out). Null for any
 * other call. Which contract it is, and whether its Paid events count, the verifier decides.
 */
export function batchCallOf(
  tx: { to?: string | null; input?: string | null },
  logs: readonly RawLog[],
): BatchCall | null {
  if (!tx.to || !tx.input || !tx.input.toLowerCase().startsWith(PAY_SELECTOR)) return null;
  let tags: readonly Hex[];
  try {
    tags = decodeFunctionData({ abi: PAYOUT_BATCH_ABI, data: tx.input as Hex }).args[3] as readonly Hex[];
  } catch {
    return null;
  }
  const contract = getAddress(tx.to);
  const paid = logs
    .filter((log) => log.address.toLowerCase() === contract.toLowerCase())
    .flatMap((log) => {
      try {
        const event = decodeEventLog({
          abi: PAYOUT_BATCH_ABI,
          eventName: 'Paid',
          topics: log.topics as [Hex, ...Hex[]],
          data: log.data as Hex,
        });
        return [
          {
            tag: tagFromBytes32(event.args.tag),
            token: getAddress(event.args.token),
            to: getAddress(event.args.to),
            amountUnits: event.args.amount,
            position: Number(log.logIndex ?? 0),
          },
        ];
      } catch {
        return [];
      }
    });
  return { contract, tags: tags.map(tagFromBytes32), paid };
}
