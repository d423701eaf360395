import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { apiKeyOnly, errors, merchantAuth, URL_MAX, ZDecimalOut, ZNetwork } from './common';

const c = initContract();

/**
 * x402 version 2's facilitator interface (DESIGN "x402: payments per API call"), as @x402/core's
 * HTTPFacilitatorClient speaks it: the ecosystem's @x402/express middleware and @x402/fetch client
 * work against these routes unchanged. The shapes follow @x402/core 2.27's types; unknown fields
 * pass through (the protocol grows by extensions).
 */

const TEXT_MAX = 1000;
/** CAIP-2: `eip155:137`, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`. */
export const ZCaip2 = z
  .string()
  .max(100)
  .regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,64}$/)
  .describe('A network as a CAIP-2 id (eip155:<chain id>, solana:<genesis hash prefix>)');
const ZAtomic = z.string().max(78).regex(/^\d+$/).describe("An amount in the token's base units");
const ZText = z.string().max(TEXT_MAX);
const ZExtra = z
  .record(z.unknown())
  .describe('Scheme-specific data (EVM exact: the EIP-712 name and version)');

export const ZX402Requirements = z
  .object({
    scheme: z.string().max(50).describe('`exact`'),
    network: ZCaip2,
    asset: z.string().max(100).describe('The token contract (EVM) or mint (Solana)'),
    amount: ZAtomic,
    payTo: z.string().max(100).describe("The receiving wallet: one of the key's account's wallets"),
    maxTimeoutSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400 * 366),
    extra: ZExtra.optional(),
  })
  .passthrough()
  .describe('What the paid API asks (x402 PaymentRequirements)');

export const ZX402Payload = z
  .object({
    x402Version: z.number().int().min(1).max(100),
    resource: z
      .object({
        url: z.string().max(URL_MAX).describe('The URL paid for'),
        description: ZText.optional(),
        mimeType: z.string().max(200).optional(),
      })
      .passthrough()
      .optional(),
    accepted: ZX402Requirements,
    payload: z.record(z.unknown()).describe('The signed authorization (EVM) or transaction (Solana)'),
    extensions: z.record(z.unknown()).optional(),
  })
  .passthrough()
  .describe("The payer's signed payment (x402 PaymentPayload)");

export const ZX402Request = z
  .object({
    x402Version: z.number().int().min(1).max(100),
    paymentPayload: ZX402Payload,
    paymentRequirements: ZX402Requirements,
  })
  .passthrough();

export const ZX402VerifyResponse = z
  .object({
    isValid: z.boolean(),
    invalidReason: ZText.optional().describe(
      'Why not, as a code (e.g. `invalid_pay_to`, `amount_too_large`)',
    ),
    invalidMessage: ZText.optional(),
    payer: z.string().max(100).optional(),
  })
  .passthrough();

export const ZX402SettleResponse = z
  .object({
    success: z.boolean(),
    errorReason: ZText.optional().describe(
      'Why not: `already_settled` (with the first transaction), `settlement_pending` (sent, receipt not in time: followed up), `insufficient_gas_funds`, `gas_price_too_high` ...',
    ),
    errorMessage: ZText.optional(),
    payer: z.string().max(100).optional(),
    transaction: z.string().max(200).describe('The transaction id; empty when nothing was sent'),
    network: ZCaip2,
  })
  .passthrough();

export const ZX402Supported = z.object({
  kinds: z
    .array(
      z.object({
        x402Version: z.number().int().min(1).max(100),
        scheme: z.string().max(50),
        network: ZCaip2,
        extra: ZExtra.optional(),
      }),
    )
    .max(100),
  extensions: z.array(z.string().max(100)).max(100),
  signers: z.record(z.array(z.string().max(100)).max(100)).describe('Gas payers by CAIP family'),
});

export const ZX402GasKey = z.object({
  network: ZNetwork,
  caip2: ZCaip2,
  address: z.string().max(100).describe('The gas key (EVM) or fee payer (Solana) the operator gave'),
  coin: z.string().max(10).describe('What gas is paid in on the network (ETH, POL, SOL ...)'),
  balance: ZDecimalOut.nullable().describe(
    "The key's balance in the network's coin; null when the network could not be asked",
  ),
  settlementsLeft: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .describe('About how many settlements the balance pays for at the gas price now'),
  low: z
    .boolean()
    .nullable()
    .describe(
      'Fewer settlements left than X402_GAS_WARN_SETTLEMENTS: fund the key before settles are refused',
    ),
});
export type X402GasKey = z.infer<typeof ZX402GasKey>;

export const ZX402GasKeys = z.object({
  warnBelowSettlements: z.number().int().min(0).max(1_000_000).describe('X402_GAS_WARN_SETTLEMENTS'),
  gasKeys: z.array(ZX402GasKey).max(100),
  notConfigured: z
    .array(z.string().max(50))
    .max(10)
    .describe('The gas key variables not set (x402 is off where they are needed)'),
});
export type X402GasKeys = z.infer<typeof ZX402GasKeys>;

const x402Errors = errors('UNAUTHENTICATED', 'FORBIDDEN', 'NOT_CONFIGURED');

export const x402Contract = c.router(
  {
    supported: {
      method: 'GET',
      path: '/x402/supported',
      summary: 'x402: the schemes and networks this facilitator settles',
      description:
        '`exact` on each EVM network with an EIP-3009 token (USDC) and on Solana, when the operator gave the gas key (X402_EVM_PRIVATE_KEY, X402_SOLANA_FEE_PAYER_KEY); 503 NOT_CONFIGURED naming the variable when none is.',
      metadata: apiKeyOnly('x402:settle', 'orders:write'),
      responses: { 200: ZX402Supported, ...x402Errors },
    },
    verify: {
      method: 'POST',
      path: '/x402/verify',
      summary: 'x402: check a payment without settling it',
      description:
        "`isValid: false` with the reason when the payment is not one this account may take: `payTo` not one of its wallets, the asset not a configured EIP-3009 token of the network, the amount above X402_MAX_AMOUNT, a bad signature, expired or not yet valid, the payer's balance short. Nothing is sent. 502 UPSTREAM_UNAVAILABLE while the chain cannot be reached.",
      metadata: apiKeyOnly('x402:settle', 'orders:write'),
      body: ZX402Request,
      responses: {
        200: ZX402VerifyResponse,
        ...errors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UPSTREAM_UNAVAILABLE'),
        ...x402Errors,
      },
    },
    settle: {
      method: 'POST',
      path: '/x402/settle',
      summary: 'x402: settle a payment on chain, once',
      description:
        'Verifies, then sends the transfer with the facilitator\'s gas key and answers on inclusion. Each authorization settles once, across instances: presented again, `success: false`, `errorReason: "already_settled"` with the first transaction. A receipt not in X402_SETTLE_TIMEOUT_MS is `settlement_pending` (followed up, never failed). Each settled payment is an order of kind `x402` (CONFIRMING, then PAID when final, with `order.paid`).',
      metadata: apiKeyOnly('x402:settle', 'orders:write'),
      body: ZX402Request,
      responses: {
        200: ZX402SettleResponse,
        ...errors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UPSTREAM_UNAVAILABLE'),
        ...x402Errors,
      },
    },
    gasKeys: {
      method: 'GET',
      path: '/dashboard/x402/gas-keys',
      summary: "x402: the facilitator's gas keys and their balances",
      description:
        "Each gas key the operator gave (X402_EVM_PRIVATE_KEY on each EVM network x402 is on, X402_SOLANA_FEE_PAYER_KEY) with its balance in the network's coin, about how many settlements it pays for at the gas price now, and `low` below X402_GAS_WARN_SETTLEMENTS. A network that cannot be asked has a null balance; the others are still shown. Read by the dashboard (a session opens it).",
      metadata: merchantAuth('x402:settle', 'account:read'),
      responses: { 200: ZX402GasKeys, ...errors('UNAUTHENTICATED', 'FORBIDDEN') },
    },
  },
  { strictStatusCodes: true },
);
