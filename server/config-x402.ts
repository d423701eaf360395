import { z } from 'zod';

/**
 * x402's part of the configuration (DESIGN "x402: payments per API call"): the facilitator's gas
 * keys and its limits. Without a key, `/x402/*` answers 503 NOT_CONFIGURED naming the variable.
 *   X402_EVM_PRIVATE_KEY       0x + 64 hex: pays the gas of EVM settlements (holds native gas only)
 *   X402_SOLANA_FEE_PAYER_KEY  base58 secret key or a JSON byte array (the Solana CLI's keypair file)
 *   X402_SOLANA_CLUSTER        mainnet, devnet or testnet: the CAIP-2 id of the Solana network
 *   X402_MAX_AMOUNT            the most one payment may be, in token units (default 100)
 *   X402_MAX_GAS_GWEI          a gas price above this is refused, nothing sent (default 1000)
 *   X402_SETTLE_TIMEOUT_MS     the wait for a receipt before `settlement_pending` (default 60,000)
 *   X402_GAS_WARN_SETTLEMENTS  a gas key is low when it pays for fewer settlements than this at
 *                              the network's gas price now (default 100): the dashboard warns
 */
export type X402Settings = {
  evmPrivateKey: `0x${string}` | null;
  solanaFeePayerKey: string | null;
  solanaCluster: 'mainnet' | 'devnet' | 'testnet';
  /** In token units, as a decimal string (compared in each token's base units). */
  maxAmount: string;
  maxGasGwei: number;
  settleTimeoutMs: number;
  /** Counted in settlements, not in coins: one threshold means the same on every network. */
  gasWarnSettlements: number;
};

/** The zod shape of x402's variables, merged into the configuration schema. */
export function x402EnvShape() {
  return {
    X402_EVM_PRIVATE_KEY: z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits')
      .optional(),
    X402_SOLANA_FEE_PAYER_KEY: z
      .string()
      .trim()
      .regex(
        /^([1-9A-HJ-NP-Za-km-z]{80,90}|\[\s*\d{1,3}(\s*,\s*\d{1,3}){63}\s*\])$/,
        'must be a base58 secret key or a JSON array of 64 bytes (a Solana CLI keypair file)',
      )
      .optional(),
    X402_SOLANA_CLUSTER: z.enum(['mainnet', 'devnet', 'testnet']).default('mainnet'),
    X402_MAX_AMOUNT: z
      .string()
      .regex(/^\d{1,12}(\.\d{1,6})?$/, 'a token amount such as 100 or 0.5 (at most 6 decimal places)')
      .default('100'),
    X402_MAX_GAS_GWEI: z.coerce.number().positive().max(1_000_000).default(1000),
    X402_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
    X402_GAS_WARN_SETTLEMENTS: z.coerce.number().int().min(0).max(1_000_000).default(100),
  };
}

type X402Env = { [K in keyof ReturnType<typeof x402EnvShape>]: z.infer<ReturnType<typeof x402EnvShape>[K]> };

/** x402's settings (from the parsed configuration). */
export function x402Settings(parsed: object): X402Settings {
  const env = parsed as X402Env;
  return {
    evmPrivateKey: (env.X402_EVM_PRIVATE_KEY as `0x${string}` | undefined) ?? null,
    solanaFeePayerKey: env.X402_SOLANA_FEE_PAYER_KEY ?? null,
    solanaCluster: env.X402_SOLANA_CLUSTER,
    maxAmount: env.X402_MAX_AMOUNT,
    maxGasGwei: env.X402_MAX_GAS_GWEI,
    settleTimeoutMs: env.X402_SETTLE_TIMEOUT_MS,
    gasWarnSettlements: env.X402_GAS_WARN_SETTLEMENTS,
  };
}
