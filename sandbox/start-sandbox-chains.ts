import { generatePrivateKey } from 'viem/accounts';
import type { Network } from '../contract';
import type { SandboxChains } from '../server/sandbox/sandbox-chains';
import type { SandboxKeys } from './sandbox-keys';
import { startSandboxEvm, type SandboxEvm } from './start-evm';
import { startSandboxSolana, type SandboxSolana } from './start-solana';
import { startSandboxTron, type SandboxTron } from './start-tron';

/** The EVM networks of the sandbox: Polygon's USDT has 6 decimals, BSC's 18. */
const SANDBOX_EVM_NETWORKS = ['POLYGON', 'BSC'] as const;
/** Every network of the sandbox (TRON unless it is turned off). */
export const SANDBOX_NETWORKS = ['SOLANA', ...SANDBOX_EVM_NETWORKS, 'TRON'] as const;

/**
 * Starts the sandbox's chains (in memory: every start is afresh) and gives what the service needs:
 * `env` pointing its networks at them, `chains` for deps.sandbox, and `clock` for deps.clock, which
 * `advance` moves forward with the chains' clocks so that the service sees the same time as they do.
 * `tron: false` leaves the local TRON chain out (its Hardhat node is the slowest to start), and TRON
 * off in the service (TRON_RPC_URL=none: never a public network).
 */
export async function startSandboxChains(keys: SandboxKeys, opts: { tron?: boolean } = {}) {
  const started: { stop(): Promise<unknown> }[] = [];
  // The x402 facilitator's gas key: the chains start afresh, so a fresh key funded on each.
  const x402GasKey = generatePrivateKey();
  const stop = () => Promise.all(started.map((c) => c.stop()));
  let solana: SandboxSolana;
  let evm: SandboxEvm[];
  let tron: SandboxTron | null = null;
  try {
    [solana, ...evm] = await Promise.all([
      startSandboxSolana(keys.solana).then((c) => (started.push(c), c)),
      ...SANDBOX_EVM_NETWORKS.map((n) =>
        startSandboxEvm(n, keys.evm, x402GasKey).then((c) => (started.push(c), c)),
      ),
    ]);
    if (opts.tron !== false) started.push((tron = await startSandboxTron(keys.evm)));
  } catch (error) {
    await stop();
    throw error;
  }
  const all = [solana, ...evm, ...(tron ? [tron] : [])];
  const on = (network: Network) => {
    const chain = all.find((c) => c.info.network === network);
    if (!chain) throw new Error(`the sandbox has no ${network} chain`);
    return chain;
  };
  let offsetMs = 0;
  const chains: SandboxChains = {
    info: () => all.map((c) => c.info),
    pay: ({ network, ...payment }) => on(network).pay(payment),
    fund: ({ network, ...grant }) => on(network).fund(grant),
    async advance({ blocks, seconds }) {
      offsetMs += seconds * 1000;
      return Promise.all(all.map((c) => c.advance(blocks, seconds)));
    },
    sendRefund: ({ network, from, transaction }) => on(network).sendRefund(from, transaction),
  };
  const env: Record<string, string> = {
    // Every EVM network the sandbox has no chain for is off: it never reaches a public network.
    ETHEREUM_RPC_URL: 'none',
    TRON_RPC_URL: 'none',
    X402_EVM_PRIVATE_KEY: x402GasKey,
    ...Object.assign({}, ...all.map((c) => c.env)),
  };
  return { chains, tron, env, clock: () => new Date(Date.now() + offsetMs), stop };
}
export type StartedSandboxChains = Awaited<ReturnType<typeof startSandboxChains>>;
