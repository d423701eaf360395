import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors, NETWORKS, publicRoute, URL_MAX, ZAddress, ZNetwork, ZToken, ZTokenDecimals } from './common';

const ZNetworkToken = z.object({
  symbol: ZToken,
  contract: ZAddress.describe('The SPL mint (Solana), ERC-20 contract, or TRC-20 contract (TRON, base58)'),
  decimals: ZTokenDecimals.describe("The token's own base-unit decimals"),
});

export const ZNetworkInfo = z.object({
  network: ZNetwork,
  name: z.string().max(100).describe('The network in words, as payers know it'),
  kind: z.enum(['solana', 'evm', 'tron']),
  chainId: z
    .number()
    .int()
    .min(1)
    .max(2 ** 53 - 1)
    .nullable()
    .describe("EVM chain id, or TRON's (728126428 = 0x2b6653dc on mainnet); null on Solana"),
  walletChain: z
    .string()
    .max(64)
    .nullable()
    .describe(
      "The chain a browser wallet is asked for: Wallet Standard's on Solana (`solana:mainnet`, `solana:devnet`, …), TRON's (`tron:0x2b6653dc`); null on EVM (use chainId)",
    ),
  confirmations: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .nullable()
    .describe(
      'EVM: blocks on top before a payment counts; TRON: blocks beyond the solidified one (0: solidified is final); null on Solana (commitment instead)',
    ),
  // Not an enum: OpenAPI 3.0 cannot say "one of these, or null" for an enum.
  commitment: z
    .string()
    .max(20)
    .nullable()
    .describe('Solana: the commitment payments need (confirmed or finalized); null on EVM'),
  explorer: z
    .object({
      name: z.string().max(100),
      // A URL template, not a URL: braces are not URL characters.
      txUrl: z
        .string()
        .max(URL_MAX)
        .regex(/^https?:\/\/\S*\{tx\}/)
        .describe('A URL template: the transaction id goes where {tx} is'),
    })
    .nullable(),
  tokens: z.array(ZNetworkToken).max(2),
});
export type NetworkInfo = z.infer<typeof ZNetworkInfo>;

const c = initContract();

export const networksContract = c.router({
  list: {
    method: 'GET',
    path: '/networks',
    summary: 'The networks and tokens this service takes payments on',
    description:
      'Each network that is on, with its chain id, confirmations or commitment, explorer and tokens (symbol, mint or contract, decimals). Public and cacheable (Cache-Control: public, max-age=300): it changes only when the operator reconfigures the service. A token whose contract reported other decimals than configured is left out until that is fixed. `sandbox` is true on a sandbox instance (local chains, no real money).',
    metadata: publicRoute,
    responses: {
      200: z.object({
        items: z.array(ZNetworkInfo).max(NETWORKS.length),
        sandbox: z
          .boolean()
          .describe(
            'True on a sandbox (`npm run sandbox`): local chains, no real money, the /sandbox routes',
          ),
      }),
      ...errors(),
    },
  },
});
