import type { SandboxChainInfo } from '../contract';
import { SANDBOX_EMAIL, SANDBOX_PASSWORD } from './sandbox-merchant';

/** What an integrator needs to start: how to sign in, where each chain is, the wallets' keys. */
export function printSandbox(o: { url: string; dataDir: string; chains: SandboxChainInfo[]; ms: number }) {
  const lines = [
    `stablepay sandbox ready in ${(o.ms / 1000).toFixed(1)} s: NO REAL MONEY, local chains only.`,
    '',
    `  API        ${o.url}   (reference: ${o.url}/docs)`,
    `  Dashboard  ${o.url}/dashboard`,
    `  Sign in    ${SANDBOX_EMAIL} / ${SANDBOX_PASSWORD}`,
    `  Data       ${o.dataDir} (the chains start afresh at every start; the database and wallet keys are kept)`,
    '',
    ...o.chains.flatMap((c) =>
      chainLines(
        `  ${c.network}${c.chainId === null ? '' : ` (chain id ${c.chainId})`}  RPC ${c.rpcUrl}${c.apiUrl ? `  HTTP API ${c.apiUrl}` : ''}`,
        c,
      ),
    ),
    '',
    'Sandbox routes (merchant auth): GET /sandbox, POST /sandbox/orders/{reference}/pay, /sandbox/faucet,',
    '/sandbox/advance, /sandbox/refunds/{id}/send.',
    `x402 facilitator: ${o.url}/x402 (an API key with x402:settle; USDC with EIP-3009 on POLYGON, USDC and USDT on SOLANA with a fee payer). Ctrl-C stops everything.`,
  ];
  console.log(lines.join('\n'));
}

/** A chain's heading, its tokens and the merchant's wallet on it with its key. */
function chainLines(
  heading: string,
  c: {
    tokens: { symbol: string; contract: string; decimals: number }[];
    wallet: { address: string; privateKey: string };
  },
): string[] {
  return [
    heading,
    ...c.tokens.map((t) => `    ${t.symbol} ${t.contract} (${t.decimals} decimals)`),
    `    merchant wallet ${c.wallet.address}`,
    `    its key (LOCAL TEST KEY, never on a real network) ${c.wallet.privateKey}`,
  ];
}
