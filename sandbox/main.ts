/**
 * `npm run sandbox`: the service on local chains of its own, for integrators (DESIGN "Sandbox").
 *
 * Starts Solana (litesvm, USDT and USDC mints) and Hardhat chains for POLYGON (chain id 137, USDT
 * of 6 decimals) and BSC (56, USDT of 18 decimals, a block every second), then the service as
 * `npm start` would (embedded PostgreSQL in DATA_DIR, default ./data-sandbox; PORT and
 * EMBEDDED_PG_PORT honoured) with SANDBOX=true, and the merchant sandbox@example.com with a wallet on
 * each chain. Prints how to sign in, each chain and the wallet keys. Ctrl-C stops everything.
 * TRON too: the local TRON-compatible chain (sandbox/chains/tron, a block every 3 s, solidified 2
 * blocks behind the head), its JSON-RPC and HTTP API URLs printed; SANDBOX_TRON=false leaves it out.
 *
 * The chains live in memory: every start is a fresh chain with new token addresses. The database
 * and the wallet keys (DATA_DIR/sandbox-keys.json) are kept, so the merchant, its API keys and its
 * wallets stay; orders of an earlier start name tokens of chains that are gone.
 */
import { printSandbox } from './print-sandbox';
import { startSandbox } from './start-sandbox';

const sandbox = startSandbox(process.env);
// Ctrl-C while starting stops what was started once the start is done (or has failed).
const stop = () =>
  void sandbox
    .then(
      (s) => s.stop(),
      () => {},
    )
    .finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
sandbox.then(
  (s) => printSandbox(s),
  (error: unknown) => {
    console.error('sandbox failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
