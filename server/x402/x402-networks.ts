import { getAddress, type Address, type PublicClient } from 'viem';
import type { EvmNetwork } from '../../contract';
import { createEvmClient } from '../chains/evm/client';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { ErrorCode } from '../../contract';

/** An EIP-3009 token x402 may settle on one network. */
export type X402Token = { symbol: string; contract: Address; decimals: number };

/** An EVM network x402 settles on: its CAIP-2 id, its EIP-3009 tokens and a client on its RPC. */
export type X402EvmNetwork = {
  network: EvmNetwork;
  caip2: `eip155:${number}`;
  chainId: number;
  tokens: X402Token[];
  client: PublicClient;
};

// Per chain registry: the clients call through its pools (one registry per running service).
const built = new WeakMap<Deps['chains'], X402EvmNetwork[]>();

/**
 * The EVM networks that are on with at least one EIP-3009 token (the network table's `eip3009`,
 * USDC), each at `eip155:<its configured chain id>`. Built once per chain registry; creating the
 * clients contacts nothing. Each client calls through the network's one RPC pool (the chain
 * registry's): x402's calls count against the network's request budget like the scanner's.
 */
export function x402EvmNetworks(deps: Pick<Deps, 'config' | 'chains'>): X402EvmNetwork[] {
  const known = built.get(deps.chains);
  if (known) return known;
  const networks = deps.config.evmNetworks.flatMap((settings) => {
    const tokens = settings.tokens
      .filter((t) => t.eip3009)
      .map((t) => ({ symbol: t.token, contract: getAddress(t.contract), decimals: t.decimals }));
    const pool = deps.chains.rpcPool(settings.network);
    if (tokens.length === 0 || !pool) return [];
    return [
      {
        network: settings.network,
        caip2: `eip155:${settings.chainId}` as const,
        chainId: settings.chainId,
        tokens,
        client: createEvmClient(pool, deps.config.RPC_TIMEOUT_MS),
      },
    ];
  });
  built.set(deps.chains, networks);
  return networks;
}

/** 503 NOT_CONFIGURED naming the variable the operator must set. */
export const notConfigured = (what: string, variable: string) =>
  new ApiError(ErrorCode.NOT_CONFIGURED, `${what} is not configured: set ${variable}`);

/** The EVM gas key, or 503 NOT_CONFIGURED naming X402_EVM_PRIVATE_KEY. */
export function evmGasKey(deps: Pick<Deps, 'config'>): `0x${string}` {
  const key = deps.config.x402.evmPrivateKey;
  if (!key) throw notConfigured('x402 on EVM networks', 'X402_EVM_PRIVATE_KEY');
  return key;
}
