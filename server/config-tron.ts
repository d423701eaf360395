import { z } from 'zod';
// The plain files, not the whole contract: configuration loads first, also in the CLI.
import {
  MAX_TOKEN_DECIMALS,
  MIN_TOKEN_DECIMALS,
  TRON_ADDRESS_FORM,
  TRON_NETWORK_TABLE,
} from '../contract/network-table';
import type { TokenSettings } from './config-networks';

/**
 * TRON's part of the configuration (DESIGN "TRON"). TRON is on when TRON_RPC_URL is set:
 *   TRON_RPC_URL        TRON's Ethereum-style JSON-RPC endpoints (`…/jsonrpc`), comma-separated
 *   TRON_API_URL        TRON's HTTP API (`/wallet/*`) endpoints; default: each RPC URL without its
 *                       `/jsonrpc` (TronGrid serves both on one host)
 *   TRON_API_KEY        sent as the `TRON-PRO-API-KEY` header to every endpoint (TronGrid's key)
 *   TRON_CONFIRMATIONS  blocks asked beyond the solidified one (default 0: solidified is final)
 *   TRON_CHAIN_ID       default mainnet's 0x2b6653dc (Nile 0xcd8690dc, Shasta 0x94a9059e)
 *   TRON_RPC_MAX_RPS    most calls a second to each list (calls beyond wait); default unlimited
 *   USDT_CONTRACT_TRON  base58 (T…); default TRON's USDT; USDT_DECIMALS_TRON default 6
 */
export type TronSettings = {
  rpcUrls: string[];
  apiUrls: string[];
  apiKey: string | null;
  chainId: number;
  confirmations: number;
  rpcMaxRps: number | null;
  tokens: TokenSettings[];
};

/** The zod shape of TRON's variables, merged into the configuration schema. */
export function tronEnvShape(urlList: z.ZodType<string[], z.ZodTypeDef, string>) {
  return {
    TRON_RPC_URL: z.union([z.literal('none'), urlList]).optional(),
    TRON_API_URL: urlList.optional(),
    TRON_API_KEY: z.string().min(1).max(200).optional(),
    TRON_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).optional(),
    // Number() reads 0x… as hex: the form TRON's chain ids are written in.
    TRON_CHAIN_ID: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    TRON_RPC_MAX_RPS: z.coerce.number().positive().max(1_000_000).optional(),
    USDT_CONTRACT_TRON: z
      .string()
      .regex(TRON_ADDRESS_FORM, 'must be a base58 TRON address (T followed by 33 characters)')
      .optional(),
    USDT_DECIMALS_TRON: z.coerce.number().int().min(MIN_TOKEN_DECIMALS).max(MAX_TOKEN_DECIMALS).optional(),
  };
}

type TronEnv = { [K in keyof ReturnType<typeof tronEnvShape>]?: z.infer<ReturnType<typeof tronEnvShape>[K]> };

/** TRON's settings when it is on, else null (from the parsed configuration). */
export function tronSettings(parsed: object): TronSettings | null {
  const env = parsed as TronEnv;
  if (env.TRON_RPC_URL === undefined || env.TRON_RPC_URL === 'none') return null;
  const rpcUrls = env.TRON_RPC_URL;
  return {
    rpcUrls,
    apiUrls: env.TRON_API_URL ?? rpcUrls.map((url) => url.replace(/\/jsonrpc\/?$/, '')),
    apiKey: env.TRON_API_KEY ?? null,
    chainId: env.TRON_CHAIN_ID ?? TRON_NETWORK_TABLE.chainIds.mainnet,
    confirmations: env.TRON_CONFIRMATIONS ?? 0,
    rpcMaxRps: env.TRON_RPC_MAX_RPS ?? null,
    tokens: [
      {
        token: 'USDT',
        contract: env.USDT_CONTRACT_TRON ?? TRON_NETWORK_TABLE.tokens.USDT.contract,
        decimals: env.USDT_DECIMALS_TRON ?? TRON_NETWORK_TABLE.tokens.USDT.decimals,
      },
    ],
  };
}
