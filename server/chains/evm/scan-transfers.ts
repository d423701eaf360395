import { pad, type Address, type Hex, type PublicClient } from 'viem';
import type { FoundTransfer, RefundTarget, ScanOptions, ScanPage, ScanTarget } from '../chain-adapter';
import { topicAddress } from './address';
import { ChainUnavailableError } from '../chain-errors';
import { evmRpc } from './client';
import { TRANSFER_TOPIC } from './read-transaction';

/**
 * Most addresses named in one eth_getLogs topic (an OR over `from` or `to`). With more watched
 * recipients (or senders) the query names none and the logs are filtered here: one call per range
 * and token contract, whatever the number of wallets.
 */
export const RECIPIENTS_PER_CALL = 100;
/** Log ranges read per scan call; a longer catch-up continues next cycle from the cursor. */
export const MAX_RANGES_PER_SCAN = 50;
/** Blocks before the cursor read again each cycle (see scanEvmTransfers). */
export const RESCAN_BLOCKS = 16n;

export type EvmScanOptions = {
  network: string;
  confirmations: number;
  logRange: number;
  /**
   * The last final block; default the head less `confirmations`. TRON's is its `finalized`
   * (solidified) block less them: its head is not the measure.
   */
  finalBlock?: () => Promise<bigint>;
};

type RawLog = { transactionHash: string; blockNumber: string; logIndex: string; topics: string[] };

/** The first block whose timestamp is at or after `time` (head + 1 when none is): a binary search. */
async function firstBlockAtOrAfter(
  client: PublicClient,
  network: string,
  time: Date,
  head: bigint,
): Promise<bigint> {
  const target = BigInt(Math.floor(time.getTime() / 1000));
  // A raw request: only the timestamp is read, whatever else a chain's blocks carry (TRON's do differ).
  const timestampOf = async (n: bigint) => {
    const block = (await evmRpc(network, 'eth_getBlockByNumber', () =>
      client.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] }),
    )) as { timestamp?: string } | null;
    if (!block?.timestamp) throw new ChainUnavailableError(`${network} RPC has no block ${n}`);
    return BigInt(block.timestamp);
  };
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
  const final = opts.finalBlock
    ? await opts.finalBlock()
    : (await evmRpc(opts.network, 'eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }))) -
      BigInt(opts.confirmations);
  if (final < 0n) return { found: [], cursor };
  // Nothing became final since the last read (scans run every second, blocks come slower): no
  // log query. The next one re-reads the last blocks before the cursor anyway.
  if (cursor !== null && BigInt(cursor) >= final) return { found: [], cursor };
  // Blocks after the cursor, and the last few before it again: a log query that failed over to an
  // endpoint a little behind the one that gave the head answers without those blocks' logs.
  const start =
    cursor !== null
      ? maxBigint(0n, BigInt(cursor) + 1n - RESCAN_BLOCKS)
      : await firstBlockAtOrAfter(client, opts.network, scan.since, final);
  const filter = transferFilter(target);
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
      logs = await transferLogs(client, opts.network, target.key as Address, filter, fromBlock, toBlock);
    } catch (error) {
      if (!(error instanceof ChainUnavailableError)) throw error;
      // Providers refuse ranges with too many results (a result cap, e.g. 10,000 logs, or a
      // response size or time limit; more likely without recipient topics on a busy token): ask
      // for half as many blocks, down to one block, and keep the smaller range for this scan.
      if (toBlock > fromBlock) {
        range = maxBigint(1n, (toBlock - fromBlock + 1n) / 2n);
        continue;
      }
      if (filter.recipientTopics !== null) throw error;
      // One block holds more of the token's transfers than the provider answers: that block's
      // logs are asked for by recipient, RECIPIENTS_PER_CALL at a time (as before the filter).
      logs = await transferLogsByRecipient(client, opts.network, target.key as Address, filter, fromBlock);
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

/** A refund's transfers: Transfer logs of the token from the receiving wallet to the refund address. */
export const refundTransferTarget = (target: RefundTarget): ScanTarget => ({
  key: target.tokenMint,
  token: target.tokenMint,
  recipients: [target.to],
  senders: [target.from],
});

/** One cursor per token contract: all its watched recipients are read by the same log queries. */
export function scanTargetsByToken(watched: { recipient: string; token: string }[]): ScanTarget[] {
  const byToken = new Map<string, Set<string>>();
  for (const w of watched) {
    const set = byToken.get(w.token) ?? new Set<string>();
    set.add(w.recipient);
    byToken.set(w.token, set);
  }
  return [...byToken].map(([token, recipients]) => ({
    key: token,
    token,
    recipients: [...recipients].sort(),
  }));
}

/** What one eth_getLogs query of a target asks for, and what is kept of its answer. */
type TransferFilter = {
  /** Topics 1 (`from`) and 2 (`to`): null matches any (too many to name: filtered here instead). */
  senderTopics: Hex[] | null;
  recipientTopics: Hex[] | null;
  /** Lower-case addresses the logs must match; null: any. */
  senders: Set<string> | null;
  recipients: Set<string>;
};

/**
 * The target's recipients (and senders) as topics while one call can name them all, else none;
 * either way the logs are checked against them here.
 */
export function transferFilter(target: ScanTarget): TransferFilter {
  const recipients = new Set(target.recipients.map((r) => r.toLowerCase()));
  const senders = target.senders ? new Set(target.senders.map((s) => s.toLowerCase())) : null;
  const topics = (addresses: Set<string>) =>
    addresses.size <= RECIPIENTS_PER_CALL ? [...addresses].map((a) => pad(a as Address)) : null;
  return {
    recipientTopics: topics(recipients),
    senderTopics: senders ? topics(senders) : null,
    recipients,
    senders,
  };
}

/** Whether a log is an ERC-20 Transfer between the filter's addresses. */
function matches(log: RawLog, filter: TransferFilter): boolean {
  // A Transfer event with the amount indexed too (ERC-721's form) or malformed topics is no ERC-20 payment.
  if (log.topics.length !== 3 || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) return false;
  const address = (topic: string) => `0x${topic.slice(-40)}`.toLowerCase();
  if (!filter.recipients.has(address(log.topics[2]!))) return false;
  return filter.senders === null || filter.senders.has(address(log.topics[1]!));
}

/** Transfer logs of `token` matching the filter in [fromBlock, toBlock], oldest first: one eth_getLogs call. */
async function transferLogs(
  client: PublicClient,
  network: string,
  token: Address,
  filter: TransferFilter,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<RawLog[]> {
  const logs = await getLogs(
    client,
    network,
    token,
    [filter.senderTopics, filter.recipientTopics],
    fromBlock,
    toBlock,
  );
  return oldestFirst(logs.filter((log) => matches(log, filter)));
}

/** The block's Transfer logs of `token` matching the filter, its recipients named RECIPIENTS_PER_CALL a call. */
async function transferLogsByRecipient(
  client: PublicClient,
  network: string,
  token: Address,
  filter: TransferFilter,
  block: bigint,
): Promise<RawLog[]> {
  const recipients = [...filter.recipients].sort().map((r) => pad(r as Address));
  const logs: RawLog[] = [];
  for (let i = 0; i < recipients.length; i += RECIPIENTS_PER_CALL)
    logs.push(
      ...(await getLogs(
        client,
        network,
        token,
        [filter.senderTopics, recipients.slice(i, i + RECIPIENTS_PER_CALL)],
        block,
        block,
      )),
    );
  return oldestFirst(logs.filter((log) => matches(log, filter)));
}

/** One eth_getLogs call: Transfer logs of `token` with these `from` and `to` topics (null: any). */
async function getLogs(
  client: PublicClient,
  network: string,
  token: Address,
  [senderTopics, recipientTopics]: [Hex[] | null, Hex[] | null],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<RawLog[]> {
  return (await evmRpc(network, 'eth_getLogs', () =>
    client.request({
      method: 'eth_getLogs',
      params: [
        {
          address: token,
          topics: [TRANSFER_TOPIC, senderTopics, recipientTopics],
          fromBlock: `0x${fromBlock.toString(16)}`,
          toBlock: `0x${toBlock.toString(16)}`,
        },
      ],
    }),
  )) as unknown as RawLog[];
}

function oldestFirst(logs: RawLog[]): RawLog[] {
  return logs.sort(
    (a, b) =>
      Number(BigInt(a.blockNumber) - BigInt(b.blockNumber)) ||
      Number(BigInt(a.logIndex) - BigInt(b.logIndex)),
  );
}
