import { setTimeout as sleep } from 'node:timers/promises';
import type { Hex } from 'viem';
import type { LocalEvm } from '../../test/support/harness';

/**
 * Polygon's pace: a block every 2 s on average, each 1.5 to 2.5 s after the last, so that blocks
 * do not keep one phase to the service's schedules (cron on whole seconds) as a fixed grid would.
 */
export const BLOCK_INTERVAL_MS = 2000;
const BLOCK_JITTER_MS = 500;
/** How often a sent transaction's receipt is looked for (on the node, not through the counted proxy). */
const RECEIPT_POLL_MS = 50;

export type BlockTicker = {
  /** When `block` was mined (Date.now() after evm_mine answered), waiting for it if need be. */
  minedAt(block: bigint, timeoutMs: number): Promise<number>;
  /** The block holding `hash`, once the ticker has mined it. */
  blockOf(hash: Hex, timeoutMs: number): Promise<bigint>;
  /** Blocks mined so far. */
  readonly mined: number;
  /** Stops mining and turns automine back on (the other parts send and expect an answer with a receipt). */
  stop(): Promise<void>;
};

/**
 * The local EVM chain as a live one: automine off, a block about every `intervalMs` mined here (each
 * with whatever was sent meanwhile), its time noted, so that a payment's "final" is the moment the
 * block giving it its confirmations was mined. The chain's helpers that mint (newWallet, mint) mine
 * blocks of their own while automine is off: make wallets before starting.
 */
export async function startBlockTicker(
  chain: LocalEvm,
  intervalMs = BLOCK_INTERVAL_MS,
): Promise<BlockTicker> {
  await chain.setAutomine(false);
  const minedAt = new Map<bigint, number>();
  let stopped = false;
  let lastError: unknown;

  const loop = (async () => {
    // Each block timed from when the last was due, so a slow evm_mine does not shift later ones.
    for (let due = Date.now(); !stopped;) {
      due += intervalMs + (Math.random() * 2 - 1) * BLOCK_JITTER_MS;
      await sleep(Math.max(0, due - Date.now()));
      if (stopped) break;
      try {
        await chain.rpc('evm_mine');
        const at = Date.now();
        minedAt.set(BigInt(await chain.rpc<Hex>('eth_blockNumber')), at);
      } catch (error) {
        lastError = error;
        stopped = true;
      }
    }
  })();

  async function until<T>(what: string, timeoutMs: number, value: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await value();
      if (found !== undefined) return found;
      if (stopped) throw new Error(`the block ticker stopped before ${what}: ${String(lastError)}`);
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(RECEIPT_POLL_MS);
    }
  }

  return {
    minedAt: (block, timeoutMs) => until(`block ${block} mined`, timeoutMs, async () => minedAt.get(block)),
    blockOf: (hash, timeoutMs) =>
      until(`transaction ${hash} mined`, timeoutMs, async () => {
        const receipt = await chain.rpc<{ blockNumber: Hex } | null>('eth_getTransactionReceipt', [hash]);
        return receipt ? BigInt(receipt.blockNumber) : undefined;
      }),
    get mined() {
      return minedAt.size;
    },
    async stop() {
      stopped = true;
      await loop;
      await chain.setAutomine(true);
    },
  };
}
