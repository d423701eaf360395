import { pad, type Address, type Hex, type PublicClient } from 'viem';
import type { FoundTransfer, ScanOptions, ScanPage, ScanTarget } from '../chain-adapter';
import { topicAddress } from './address';
import { ChainUnavailableError } from '../chain-errors';
import { evmRpc } from './client';
import { TRANSFER_TOPIC } from './read-transaction';

/** Recipients per eth_getLogs call (an OR over the `to` topic); more go in further calls. */
export const RECIPIENTS_PER_CALL = 100;
/** Log ranges read per scan call; a longer catch-up continues next cycle from the cursor. */
export const MAX_RANGES_PER_SCAN = 50;
/** Blocks before the cursor read again each cycle (see scanEvmTransfers). */
export const RESCAN_BLOCKS = 16n;

export type EvmScanOptions = { network: string; confirmations: number; logRange: number };

type RawLog = { transactionHash: string; blockNumber: string; logIndex: string; topics: string[] };

/** The first block whose timestamp is at or after `time` (head + 1 when none is): a binary search. */
async function firstBlockAtOrAfter(
  client: PublicClient,
  network: string,
  time: Date,
  head: bigint,
): Promise<bigint> {
  const target = BigInt(Math.floor(time.getTime() / 1000));
  const timestampOf = async (n: bigint) =>
    (await evmRpc(network, 'eth_getBlockByNumber', () => client.getBlock({ blockNumber: n }))).timestamp;
  if ((await timestampOf(head)) < target) return head + 1n;
  let lo = 0n;
  let hi = head;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((await timestampOf(mid)) < target) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}

/**
 * ERC-20 Transfer logs of the target's token contract to any of its recipients, from the block
 * after `cursor` up to the final block (head less the confirmations), in ranges of at most
 * `logRange` blocks. The cursor is the last block fully read; a transaction that cannot be settled
 * yet leaves it just before its block, so that block is read again next time.
 */
export async function scanEvmTransfers(
  client: PublicClient,
  opts: EvmScanOptions,
  target: ScanTarget,
  cursor: string | null,
  scan: ScanOptions,
): Promise<ScanPage> {
  const head = await evmRpc(opts.network, 'eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  const final = head - BigInt(opts.confirmations);
  if (final < 0n) return { found: [], cursor };
  // Blocks after the cursor, and the last few before it again: a log query that failed over to an
  // endpoint a little behind the one that gave the head answers without those blocks' logs.
  const start =
    cursor !== null
      ? maxBigint(0n, BigInt(cursor) + 1n - RESCAN_BLOCKS)
      : await firstBlockAtOrAfter(client, opts.network, scan.since, final);
  const recipientTopics = target.recipients.map((r) => pad(r.toLowerCase() as Address));
  const senderTopics = target.senders?.map((s) => pad(s.toLowerCase() as Address)) ?? null;
  const found: FoundTransfer[] = [];
  const seen = new Set<string>();
  let scannedTo = start - 1n;
  let range = BigInt(opts.logRange);
  for (
    let ranges = 0;
    scannedTo < final && ranges < MAX_RANGES_PER_SCAN && found.length < scan.limit;
    ranges++
  ) {
    const fromBlock = scannedTo + 1n;
    const toBlock = fromBlock + range - 1n < final ? fromBlock + range - 1n : final;
    let logs: RawLog[];
    try {
      logs = await transferLogs(
        client,
        opts.network,
        target.key as Address,
        recipientTopics,
        fromBlock,
        toBlock,
        senderTopics,
      );
    } catch (error) {
      // Providers refuse ranges with too many results: ask for half as many blocks.
      if (!(error instanceof ChainUnavailableError) || toBlock === fromBlock) throw error;
      range = maxBigint(1n, (toBlock - fromBlock + 1n) / 2n);
      continue;
    }
    for (const log of logs) {
      const txId = log.transactionHash.toLowerCase();
      const recipient = topicAddress(log.topics[2]!);
      // A transaction pays at most one order, but it may pay several watched recipients (a batch
      // payout): each one is looked at.
      if (seen.has(`${txId}|${recipient}`)) continue;
      seen.add(`${txId}|${recipient}`);
      found.push({ txId, recipient, resumeBefore: (BigInt(log.blockNumber) - 1n).toString() });
    }
    scannedTo = toBlock;
  }
  const kept = cursor !== null && BigInt(cursor) > scannedTo ? cursor : scannedTo.toString();
  return { found, cursor: scannedTo >= 0n ? kept : cursor };
}

const maxBigint = (a: bigint, b: bigint) => (a > b ? a : b);

/** Transfer logs of `token` to any of the recipients (from any of the senders, when given) in [fromBlock, toBlock], oldest first. */
async function transferLogs(
  client: PublicClient,
  network: string,
  token: Address,
  recipientTopics: Hex[],
  fromBlock: bigint,
  toBlock: bigint,
  senderTopics: Hex[] | null = null,
): Promise<RawLog[]> {
  const logs: RawLog[] = [];
  for (let i = 0; i < recipientTopics.length; i += RECIPIENTS_PER_CALL) {
    const chunk = recipientTopics.slice(i, i + RECIPIENTS_PER_CALL);
    const page = (await evmRpc(network, 'eth_getLogs', () =>
      client.request({
        method: 'eth_getLogs',
        params: [
          {
            address: token,
            topics: [TRANSFER_TOPIC, senderTopics, chunk],
            fromBlock: `0x${fromBlock.toString(16)}`,
            toBlock: `0x${toBlock.toString(16)}`,
          },
        ],
      }),
    )) as unknown as RawLog[];
    logs.push(...page);
  }
  return logs.sort(
    (a, b) =>
      Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) ||
      Number(BigInt(a.logIndex) - BigInt(b.logIndex)),
  );
}
