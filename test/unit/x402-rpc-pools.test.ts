import { describe, expect, it } from 'vitest';
import { createChainRegistry } from '../../server/chains/registry';
import { loadConfig } from '../../server/config';
import { x402EvmNetworks } from '../../server/x402/x402-networks';
import { x402SolanaNetwork } from '../../server/x402/x402-solana';

/**
 * x402's calls go through the network's one RPC pool, the chain registry's: they count against the
 * network's request budget with the scanner's, and what they learn of an endpoint (down, why) is
 * what /metrics and the failover of every other caller see. Shown by an endpoint that refuses
 * connections: a call made by x402 is a failure the network's pool counts.
 */
const REFUSING = 'http://127.0.0.1:1';

const failuresOf = (chains: ReturnType<typeof createChainRegistry>, network: string) =>
  chains
    .endpointHealth()
    .filter((e) => e.network === network)
    .reduce((sum, e) => sum + e.failures, 0);

describe("x402 on the network's RPC pool", () => {
  const config = loadConfig({
    SOLANA_RPC_URL: REFUSING,
    POLYGON_RPC_URL: REFUSING,
    // USDC is opt-in on Polygon; Circle's contract there.
    USDC_CONTRACT_POLYGON: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    RPC_TIMEOUT_MS: '2000',
  });
  const chains = createChainRegistry(config);

  it('EVM: a call of x402 fails over and counts in the network’s endpoints, as any other call', async () => {
    const polygon = x402EvmNetworks({ config, chains }).find((n) => n.network === 'POLYGON');
    expect(polygon, 'x402 on Polygon (its USDC is EIP-3009)').toBeDefined();
    expect(failuresOf(chains, 'POLYGON')).toBe(0);
    await expect(polygon!.client.getBlockNumber()).rejects.toThrow();
    expect(failuresOf(chains, 'POLYGON')).toBeGreaterThan(0);
    expect(chains.endpointHealth().filter((e) => e.network === 'POLYGON')).toHaveLength(1);
  });

  it('Solana: the same', async () => {
    const solana = x402SolanaNetwork({ config, chains });
    expect(failuresOf(chains, 'SOLANA')).toBe(0);
    await expect(solana.connection.getSlot()).rejects.toThrow();
    expect(failuresOf(chains, 'SOLANA')).toBeGreaterThan(0);
  });
});
