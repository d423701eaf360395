import { getAddress, type Address } from 'viem';
import { startLocalEvm, type LocalEvm } from './local-evm';

export type EvmNetworkPlan<N extends string> = { network: N; chainId: number; confirmations: number };
export type EvmNetworkChain = { evm: LocalEvm; usdt: Address };

/**
 * One local Hardhat chain per network with a 6-decimal USDT deployed on each, and the service's
 * settings that point the network at it (RPC, contract, chain id, confirmations).
 */
export async function startEvmNetworks<N extends string>(plans: readonly EvmNetworkPlan<N>[]) {
  const chains = {} as Record<N, EvmNetworkChain>;
  await Promise.all(
    plans.map(async ({ network, chainId }) => {
      const evm = await startLocalEvm({ chainId });
      chains[network] = { evm, usdt: getAddress(await evm.deployToken()) };
    }),
  );
  const env: Record<string, string> = {};
  for (const { network, chainId, confirmations } of plans) {
    env[`${network}_RPC_URL`] = chains[network].evm.url;
    env[`USDT_CONTRACT_${network}`] = chains[network].usdt;
    env[`${network}_CHAIN_ID`] = String(chainId);
    env[`${network}_CONFIRMATIONS`] = String(confirmations);
  }
  const stop = () => Promise.all(Object.values<EvmNetworkChain>(chains).map((c) => c.evm.stop()));
  return { chains, env, stop };
}
