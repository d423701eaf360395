import { z } from 'zod';
// The plain files, not the whole contract: configuration loads first, also in the CLI.
import { TOKENS, type Token } from '../contract/common';
import {
  EVM_NETWORK_TABLE,
  EVM_NETWORKS,
  MAX_TOKEN_DECIMALS,
  MIN_TOKEN_DECIMALS,
  SOLANA_TOKEN_TABLE,
  type EvmNetwork,
} from '../contract/network-table';
import { tronEnvShape } from './config-tron';

export { tronSettings } from './config-tron';

/**
 * The network part of the configuration, generated from contract/network-table.ts so that a further
 * EVM network needs no change here. Per EVM network:
 *   <NETWORK>_RPC_URL        endpoints, comma-separated; the network is on when set (POLYGON and
 *                            ETHEREUM are on by default, with a public endpoint); `none` turns it off
 *   <NETWORK>_CHAIN_ID       default: the mainnet's
 *   <NETWORK>_CONFIRMATIONS  default: the table's
 *   <NETWORK>_RPC_MAX_RPS    most JSON-RPC calls a second to its endpoints (calls beyond wait); default: unlimited
 *   <NETWORK>_EXPLORER_URL   a transaction URL with {tx}; default: the mainnet explorer on its chain id
 *   <TOKEN>_CONTRACT_<NETWORK>  default: the mainnet contract (USDC on POLYGON/ETHEREUM: none); `none` turns it off
 *   <TOKEN>_DECIMALS_<NETWORK>  default: the mainnet token's decimals
 * and <TOKEN>_DECIMALS_SOLANA for the Solana mints (USDT_MINT_SOLANA, USDC_MINT_SOLANA), and
 * SOLANA_RPC_MAX_RPS; TRON's variables are in config-tron.ts.
 */

/** A token as the service uses it on one network. */
export type TokenSettings = {
  token: Token;
  contract: string;
  decimals: number;
  /** EIP-3009 transferWithAuthorization: x402's `exact` scheme may settle it (the table's `eip3009`). */
  eip3009?: boolean;
};

export type EvmNetworkSettings = {
  network: EvmNetwork;
  name: string;
  mainnetChainId: number;
  rpcUrls: string[];
  chainId: number;
  confirmations: number;
  /** `<NETWORK>_RPC_MAX_RPS`: the RPC budget in calls a second; null: unlimited. */
  rpcMaxRps: number | null;
  /** Set by `<NETWORK>_EXPLORER_URL`; null: the chain layer picks a known explorer for the chain id. */
  explorerTxUrl: string | null;
  tokens: TokenSettings[];
};

const decimals = z.coerce
  .number()
  .int()
  .min(MIN_TOKEN_DECIMALS, `at least ${MIN_TOKEN_DECIMALS} (amounts carry up to 6 decimal places)`)
  .max(MAX_TOKEN_DECIMALS);
const confirmations = z.coerce.number().int().min(0).max(10_000);
const maxRps = z.coerce.number().positive().max(1_000_000);
const explorerUrl = z
  .string()
  .url()
  .refine((v) => v.includes('{tx}'), 'must hold {tx} where the transaction id goes');

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const key = {
  rpc: (n: EvmNetwork) => `${n}_RPC_URL`,
  chainId: (n: EvmNetwork) => `${n}_CHAIN_ID`,
  confirmations: (n: EvmNetwork) => `${n}_CONFIRMATIONS`,
  maxRps: (n: EvmNetwork | 'SOLANA') => `${n}_RPC_MAX_RPS`,
  explorer: (n: EvmNetwork) => `${n}_EXPLORER_URL`,
  contract: (t: Token, n: EvmNetwork) => `${t}_CONTRACT_${n}`,
  decimals: (t: Token, n: EvmNetwork | 'SOLANA') => `${t}_DECIMALS_${n}`,
};

export type NetworkEnv = Record<string, string[] | number | string | undefined>;

/** The zod shape of every network variable, merged into the configuration schema. */
export function networkEnvShape(urlList: z.ZodType<string[], z.ZodTypeDef, string>) {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const network of EVM_NETWORKS) {
    shape[key.rpc(network)] = z.union([z.literal('none'), urlList]).optional();
    shape[key.chainId(network)] = z.coerce.number().int().positive().optional();
    shape[key.confirmations(network)] = confirmations.optional();
    shape[key.maxRps(network)] = maxRps.optional();
    shape[key.explorer(network)] = explorerUrl.optional();
    for (const token of TOKENS) {
      shape[key.contract(token, network)] = z.string().optional();
      shape[key.decimals(token, network)] = decimals.optional();
    }
  }
  for (const token of TOKENS) shape[key.decimals(token, 'SOLANA')] = decimals.optional();
  shape[key.maxRps('SOLANA')] = maxRps.optional();
  return { ...shape, ...tronEnvShape(urlList) };
}

/** The contract a token uses on an EVM network, `null` when it is off there. */
function evmContract(env: NetworkEnv, token: Token, network: EvmNetwork): string | null {
  const given = env[key.contract(token, network)] as string | undefined;
  if (given !== undefined) return given.toLowerCase() === 'none' ? null : given;
  const mainnet = EVM_NETWORK_TABLE[network].tokens[token];
  return mainnet.optIn ? null : mainnet.contract;
}

const isOn = (env: NetworkEnv, network: EvmNetwork) => {
  const rpc = env[key.rpc(network)];
  return rpc === undefined ? EVM_NETWORK_TABLE[network].defaultRpcUrl !== null : rpc !== 'none';
};

/** Problems a variable-by-variable schema cannot see: contracts that are not addresses, a network without tokens. */
export function checkNetworkSettings(env: NetworkEnv, ctx: z.RefinementCtx): void {
  for (const network of EVM_NETWORKS) {
    if (!isOn(env, network)) continue;
    const tokens = TOKENS.filter((token) => evmContract(env, token, network) !== null);
    for (const token of tokens) {
      const contract = evmContract(env, token, network)!;
      // The form only: the chain layer checks an EIP-55 checksum when it builds the network (and
      // writes contracts checksummed); this module stays free of viem, for the CLI's start-up.
      if (!EVM_ADDRESS.test(contract))
        ctx.addIssue({
          code: 'custom',
          path: [key.contract(token, network)],
          message: `must be a 0x contract address (40 hex digits, EIP-55 checksum when mixed case) or none, not "${contract}"`,
        });
    }
    if (tokens.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: [key.rpc(network)],
        message: `turns ${network} on, but no token is: set ${TOKENS.map((t) => key.contract(t, network)).join(' or ')}`,
      });
  }
}

/** The EVM networks that are on, with their settings and tokens. */
export function evmNetworkSettings(env: NetworkEnv): EvmNetworkSettings[] {
  return EVM_NETWORKS.filter((network) => isOn(env, network)).map((network) => networkSettings(env, network));
}

/** A network at its mainnet values (the registry shows an order of a network now off with them). */
export const mainnetNetworkSettings = (network: EvmNetwork): EvmNetworkSettings =>
  networkSettings({}, network);

/** One EVM network's settings: each variable given, else the table's mainnet value. */
function networkSettings(env: NetworkEnv, network: EvmNetwork): EvmNetworkSettings {
  const table = EVM_NETWORK_TABLE[network];
  return {
    network,
    name: table.name,
    mainnetChainId: table.chainId,
    rpcUrls:
      (env[key.rpc(network)] as string[] | undefined) ?? (table.defaultRpcUrl ? [table.defaultRpcUrl] : []),
    chainId: (env[key.chainId(network)] as number | undefined) ?? table.chainId,
    confirmations: (env[key.confirmations(network)] as number | undefined) ?? table.confirmations,
    rpcMaxRps: (env[key.maxRps(network)] as number | undefined) ?? null,
    explorerTxUrl: (env[key.explorer(network)] as string | undefined) ?? null,
    tokens: TOKENS.flatMap((token) => {
      const contract = evmContract(env, token, network);
      if (contract === null) return [];
      return [
        {
          token,
          contract,
          decimals: (env[key.decimals(token, network)] as number | undefined) ?? table.tokens[token].decimals,
          ...('eip3009' in table.tokens[token] ? { eip3009: true } : {}),
        },
      ];
    }),
  };
}

/** Solana's tokens: USDT (mainnet mint by default), USDC only with USDC_MINT_SOLANA. */
export function solanaTokens(env: NetworkEnv): TokenSettings[] {
  const mints: Record<Token, string | undefined> = {
    USDT: env.USDT_MINT_SOLANA as string | undefined,
    USDC: env.USDC_MINT_SOLANA as string | undefined,
  };
  return TOKENS.flatMap((token) => {
    const mint = mints[token];
    if (mint === undefined) return [];
    const decimals =
      (env[key.decimals(token, 'SOLANA')] as number | undefined) ?? SOLANA_TOKEN_TABLE[token].decimals;
    return [{ token, contract: mint, decimals }];
  });
}

/** SOLANA_RPC_MAX_RPS: Solana's RPC budget in calls a second; null: unlimited. */
export const solanaRpcMaxRps = (env: NetworkEnv): number | null =>
  (env[key.maxRps('SOLANA')] as number | undefined) ?? null;
