import { Keypair } from '@solana/web3.js';
import { generatePrivateKey } from 'viem/accounts';
import { SANDBOX_SERVICE_ENV } from '../../sandbox/start-sandbox';
import { startSandboxChains } from '../../sandbox/start-sandbox-chains';
import { startTestServer } from './test-server';

/**
 * The sandbox's pieces in-process, as `npm run sandbox` puts them together: its chains (fresh keys),
 * and the service with SANDBOX=true over them (deps.sandbox, and the clock `advance` moves), its
 * jobs on and checking at their fastest. `addWallets` gives a merchant the sandbox's receiving
 * wallet on every chain, whose keys the sandbox holds (an address has one owner: one merchant).
 * TRON only with `tron: true` (sandbox-tron.test.ts): its chain is the slowest to start.
 */
export async function startSandboxStack(env: Record<string, string> = {}, opts: { tron?: boolean } = {}) {
  const chains = await startSandboxChains(
    { solana: Keypair.generate(), evm: generatePrivateKey() },
    { tron: opts.tron ?? false },
  );
  let server: Awaited<ReturnType<typeof startTestServer>>;
  try {
    server = await startTestServer(
      {
        ...chains.env,
        ...SANDBOX_SERVICE_ENV,
        JOBS: 'all',
        PAYMENT_RECHECK_MS: '100',
        ...env,
      },
      { sandbox: chains.chains, clock: chains.clock },
    );
  } catch (error) {
    await chains.stop();
    throw error;
  }
  async function addWallets(token: string) {
    for (const c of chains.chains.info()) {
      const res = await server.api('POST', '/users/me/wallets', {
        token,
        body: { network: c.network, public_address: c.wallet.address },
      });
      if (res.status !== 201) throw new Error(`wallet on ${c.network} refused: ${res.text}`);
    }
  }
  return {
    chains,
    server,
    addWallets,
    async stop() {
      await server.stop();
      await chains.stop();
    },
  };
}
export type SandboxStack = Awaited<ReturnType<typeof startSandboxStack>>;
