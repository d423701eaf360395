/**
 * A standalone local Solana chain (litesvm behind JSON-RPC) for the demo and manual testing:
 *
 *   npm run chain:solana [-- --port 8899] [-- --fund <wallet address> ...]
 *
 * Creates 6-decimal USDT and USDC stand-in mints, optionally funds wallets with SOL and both
 * tokens, prints the env lines that point the service at it, and runs until Ctrl-C.
 * State lives in memory only: every start is a fresh chain with new mints.
 */
import { parseArgs } from 'node:util';
import { PublicKey } from '@solana/web3.js';
import { startLocalSolana } from '../sandbox/chains/solana/local-solana';

const FUND_SOL = 10_000_000_000n; // 10 SOL
const FUND_UNITS = 1_000_000_000n; // 1000 tokens at 6 decimals

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    fund: { type: 'string', multiple: true, default: [] },
  },
});

const port = Number(values.port ?? process.env.PORT ?? 8899);
if (!Number.isInteger(port) || port <= 0 || port >= 65535) {
  console.error(`Invalid port: ${values.port ?? process.env.PORT}`);
  process.exit(1);
}

const chain = await startLocalSolana({ port, host: values.host });
const usdt = await chain.createMint({ decimals: 6 });
const usdc = await chain.createMint({ decimals: 6 });

for (const wallet of values.fund) {
  const owner = new PublicKey(wallet);
  await chain.fundSol(owner, FUND_SOL);
  await chain.mintTo(owner, usdt, FUND_UNITS);
  await chain.mintTo(owner, usdc, FUND_UNITS);
}

console.log(`Local Solana chain (litesvm) running
  RPC URL:   ${chain.url}
  WS URL:    ${chain.wsUrl}
  USDT mint: ${usdt.toBase58()}
  USDC mint: ${usdc.toBase58()}
${values.fund.map((wallet) => `  funded:    ${wallet} (10 SOL, 1000 USDT, 1000 USDC)\n`).join('')}
Point the service at it:

SOLANA_RPC_URL=${chain.url}
USDT_MINT_SOLANA=${usdt.toBase58()}
USDC_MINT_SOLANA=${usdc.toBase58()}

requestAirdrop works for SOL. Press Ctrl-C to stop (state is not kept).`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await chain.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
