import { pad, type Address, type PublicClient } from 'viem';
import type { FoundTransfer, ScanOptions, ScanPage, ScanTarget } from '../chain-adapter';
import { topicAddress } from './address';
import { evmRpc } from './client';
import { TRANSFER_TOPIC } from './read-transaction';

/** Recipients per eth_getLogs call (an OR over the `to` topic); more go in further calls. */
export const RECIPIENTS_PER_CALL = 100;
/** Log ranges read per scan call; a longer catch-up continues next cycle from the cursor. */
export const MAX_RANGES_PER_SCAN = 50;

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
  const start =
    cursor !== null
      ? BigInt(cursor) + 1n
      : await firstBlockAtOrAfter(client, opts.network, scan.since, final);
  const recipientTopics = target.recipients.map((r) => pad(r.toLowerCase() as Address));
  const found: FoundTransfer[] = [];
  const seen = new Set<string>();
  let scannedTo = start - 1n;
  for (
    let ranges = 0;
    scannedTo < final && ranges < MAX_RANGES_PER_SCAN && found.length < scan.limit;
    ranges++
  ) {
    const fromBlock = scannedTo + 1n;
    const toBlock =
      fromBlock + BigInt(opts.logRange) - 1n < final ? fromBlock + BigInt(opts.logRange) - 1n : final;
    const logs: RawLog[] = [];
    for (let i = 0; i < recipientTopics.length; i += RECIPIENTS_PER_CALL) {
      const chunk = recipientTopics.slice(i, i + RECIPIENTS_PER_CALL);
      const page = (await evmRpc(opts.network, 'eth_getLogs', () =>
        client.request({
          method: 'eth_getLogs',
          params: [
            {
              address: target.key as Address,
              topics: [TRANSFER_TOPIC, null, chunk],
              fromBlock: `0x${fromBlock.toString(16)}`,
              toBlock: `0x${toBlock.toString(16)}`,
            },
          ],
        }),
      )) as unknown as RawLog[];
      logs.push(...page);
    }
    logs.sort(
      (a, b) =>
        Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) ||
        Number(BigInt(a.logIndex) - BigInt(b.logIndex)),
    );
    for (const log of logs) {
      const txId = log.transactionHash.toLowerCase();
      if (seen.has(txId)) continue; // one transaction pays at most one order
      seen.add(txId);
      found.push({
        txId,
        recipient: topicAddress(log.topics[2]!),
        resumeBefore: (BigInt(log.blockNumber) - 1n).toString(),
      });
    }
    scannedTo = toBlock;
  }
  return { found, cursor: scannedTo >= 0n ? scannedTo.toString() : cursor };
}
