import { getAddress, type Hash, type PublicClient } from 'viem';
import type { ObservedTransaction, Transfer } from '../chain-adapter';
import { topicAddress } from './address';
import { evmRpc } from './client';
import { tagOf } from './order-tag';
import { batchCallOf } from './payout-batch/batch-payout';

/** keccak256("Transfer(address,address,uint256)"): the ERC-20 Transfer event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

type RawLog = {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: string | number | bigint | null;
};
type RawReceipt = { status: string; blockNumber: string; blockHash: string; logs: RawLog[] };

/** ERC-20 Transfer logs of a receipt as transfers (any token contract: the judge checks which). */
export function transfersOf(logs: readonly RawLog[]): Transfer[] {
  return logs
    .filter((log) => log.topics.length === 3 && log.topics[0]?.toLowerCase() === TRANSFER_TOPIC)
    .flatMap((log) => {
      let amountUnits: bigint;
      try {
        amountUnits = BigInt(log.data);
      } catch {
        return [];
      }
      return [
        {
          from: topicAddress(log.topics[1]!),
          to: topicAddress(log.topics[2]!),
          token: getAddress(log.address),
          amountUnits,
          position: Number(log.logIndex ?? 0),
        },
      ];
    });
}

export type EvmReadOptions = { network: string; confirmations: number };

/**
 * Reads a transaction: final once `confirmations` blocks stand on top of the block that holds it,
 * and only while that block is still the chain's block at its height (a reorganisation in progress
 * makes it "not final"; one that dropped it makes it "not found").
 */
export async function readEvmTransaction(
  client: PublicClient,
  opts: EvmReadOptions,
  txId: string,
): Promise<ObservedTransaction> {
  const call = <T>(method: string, fn: () => Promise<T>) => evmRpc(opts.network, method, fn);
  const hash = txId as Hash;
  // Raw requests: viem's helpers throw on a missing receipt, which is an answer here, not a failure.
  const receipt = (await call('eth_getTransactionReceipt', () =>
    client.request({ method: 'eth_getTransactionReceipt', params: [hash] }),
  )) as unknown as RawReceipt | null;
  // No receipt: never mined, dropped by a reorganisation, or still waiting in a mempool, where a
  // transaction can wait for ever. All count toward the claim's deadline; if it lands later, the
  // scanner still finds a tagged or exact-amount payment (a claim-only one must be reported again).
  if (!receipt) return { txId, state: 'not_found' };
  const height = BigInt(receipt.blockNumber);
  const head = await call('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  if (head - height < BigInt(opts.confirmations)) return { txId, state: 'not_final' };
  const [block, tx] = await Promise.all([
    call('eth_getBlockByNumber', () => client.getBlock({ blockNumber: height })),
    call('eth_getTransactionByHash', () =>
      client.request({ method: 'eth_getTransactionByHash', params: [hash] }),
    ),
  ]);
  if (!tx || block.hash?.toLowerCase() !== receipt.blockHash.toLowerCase())
    return { txId, state: 'not_final' };
  const transfers = transfersOf(receipt.logs);
  // A tag counts only on a call to a token contract that moved tokens in this transaction.
  const { input, to } = tx as { input?: string; to?: string | null };
  const tag = to && transfers.some((t) => t.token.toLowerCase() === to.toLowerCase()) ? tagOf(input) : null;
  const batchCall = batchCallOf({ to, input }, receipt.logs);
  return {
    txId,
    state: receipt.status === '0x1' ? 'final' : 'failed',
    blockTime: new Date(Number(block.timestamp) * 1000),
    tags: tag ? [tag] : [],
    transfers,
    ...(batchCall ? { batchCall } : {}),
  };
}
