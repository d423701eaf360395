import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  NETWORKS,
  URL_MAX,
  ZAddress,
  ZDecimalAmount,
  ZNetwork,
  ZToken,
  ZTxId,
  errors,
  merchantAuth,
  publicRoute,
} from './common';
import { ZNetworkInfo } from './networks';
import { PAYOUT_ITEMS_MAX, ZPayoutParams } from './payouts';
import { ZRefundIdParam } from './refunds';
import { ZReferenceParams } from './shapes';

/**
 * The sandbox's routes (DESIGN "Sandbox"): they move test money on the sandbox's own local chains.
 * Every one of them answers 404 on an instance that is not a sandbox, with or without credentials.
 */

/** A local chain as GET /networks describes a network, with its RPC URL, tokens and the merchant's key. */
export const ZSandboxChain = ZNetworkInfo.pick({
  network: true,
  kind: true,
  chainId: true,
  tokens: true,
}).extend({
  rpcUrl: z.string().max(URL_MAX).describe("The local chain's JSON-RPC URL"),
  apiUrl: z.string().max(URL_MAX).optional().describe("TRON: the local chain's HTTP API (`/wallet/*`) URL"),
  wallet: z
    .object({
      address: ZAddress,
      privateKey: z
        .string()
        .max(200)
        .describe(
          'A LOCAL TEST KEY (Solana: base58 secret key; EVM and TRON: 0x hex): never on a real network',
        ),
    })
    .describe("The sandbox merchant's receiving wallet on this network, whose key the sandbox holds"),
});
export type SandboxChainInfo = z.infer<typeof ZSandboxChain>;

export const ZSandboxInfo = z.object({ chains: z.array(ZSandboxChain).max(NETWORKS.length) });

export const ZSandboxPayBody = z.object({
  amount: ZDecimalAmount.optional().describe('Tokens to send; default what is still due on the option'),
  network: ZNetwork.optional().describe("The payment option's network (default the order's first option)"),
  token: ZToken.optional().describe("The payment option's token"),
  tagged: z
    .boolean()
    .default(true)
    .describe(
      'Name the order on chain as the transaction request does (Solana: reference key; EVM and TRON: tag after the transfer arguments); false: a plain transfer',
    ),
  report: z
    .boolean()
    .default(false)
    .describe('Also report the transaction as the payer would (POST /pay/{reference}/submit-tx)'),
});

/** The checkout's button chooses only the option: it pays what is due, tagged and reported. */
export const ZSandboxCheckoutPayBody = ZSandboxPayBody.pick({ network: true, token: true });

export const ZSandboxFaucetBody = z.object({
  network: ZNetwork,
  address: ZAddress,
  token: ZToken.optional().describe('Default USDT'),
  amount: ZDecimalAmount.describe(
    'Tokens to mint to the address (it also gets gas: SOL, TRX or the native coin)',
  ),
});

export const ZSandboxAdvanceBody = z.object({
  blocks: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(0)
    .describe('Blocks (EVM, TRON) or slots (Solana) to add'),
  seconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86400)
    .default(0)
    .describe("Seconds to move the chains' clocks and the service's (subscriptions, expiry) forward"),
});

const ZTxIdBody = z.object({ txId: ZTxId });

const sandboxErrors = errors(
  'VALIDATION_ERROR',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'UPSTREAM_UNAVAILABLE',
);

const c = initContract();

export const sandboxContract = c.router({
  info: {
    method: 'GET',
    path: '/sandbox',
    summary: "The sandbox's local chains and the merchant's wallet keys",
    description:
      "Each local chain's RPC URL, chain id and tokens, and the sandbox merchant's wallet on it with its key (local test keys). 404 on an instance that is not a sandbox.",
    metadata: merchantAuth('orders:read', 'orders:read'),
    responses: { 200: ZSandboxInfo, ...errors('UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND') },
  },
  pay: {
    method: 'POST',
    path: '/sandbox/orders/:reference/pay',
    summary: 'Pay an order from a funded sandbox payer',
    description:
      "Sends a real transfer on the local chain to the option's receiving wallet: `amount` (default what is still due), tagged as the transaction request does or plain, and reported on the public submit-tx route when `report` is true. The order then moves as it would for any payer. 404 for an unknown order or on an instance that is not a sandbox.",
    metadata: merchantAuth('orders:write', 'orders:write'),
    pathParams: ZReferenceParams,
    body: ZSandboxPayBody,
    responses: { 200: ZTxIdBody, ...sandboxErrors, ...errors('CONFLICT') },
  },
  checkoutPay: {
    method: 'POST',
    path: '/sandbox/checkout/:reference/pay',
    summary: 'The checkout\'s "Pay with the sandbox wallet": pay what is due, exactly',
    description:
      "For the hosted checkout, without a token (the reference is the key, as on the other payer routes): pays what is still due on the option (default the order's first) from a funded sandbox payer, tagged as the transaction request does and reported, as `POST /sandbox/orders/{reference}/pay` with no amount would. Only while the order awaits payment (PENDING or UNDERPAID, before expiresAt): 409 otherwise, a payment already in flight (CONFIRMING) included. Rate limited per client address as the payer's routes are. 404 for an unknown order or on an instance that is not a sandbox.",
    metadata: publicRoute,
    pathParams: ZReferenceParams,
    body: ZSandboxCheckoutPayBody,
    responses: {
      200: ZTxIdBody,
      ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', 'UPSTREAM_UNAVAILABLE'),
    },
  },
  faucet: {
    method: 'POST',
    path: '/sandbox/faucet',
    summary: 'Fund any address with test tokens and gas',
    description:
      'Mints `amount` of the token to the address on the local chain and gives it gas (SOL, TRX, or the native coin on EVM). Answers the minting transactions (on TRON: the transfer of the minted tokens). 404 on an instance that is not a sandbox.',
    metadata: merchantAuth('orders:write', 'orders:write'),
    body: ZSandboxFaucetBody,
    responses: { 200: z.object({ txIds: z.array(ZTxId).max(10) }), ...sandboxErrors },
  },
  advance: {
    method: 'POST',
    path: '/sandbox/advance',
    summary: 'Mine blocks and move the clocks',
    description:
      "Adds `blocks` to every local chain (slots on Solana) and moves every chain's clock and the service's own (subscriptions, expiry) `seconds` forward. Answers each chain's block number or slot after it. 404 on an instance that is not a sandbox.",
    metadata: merchantAuth('orders:write', 'orders:write'),
    body: ZSandboxAdvanceBody,
    responses: {
      200: z.object({
        networks: z
          .array(
            z.object({
              network: ZNetwork,
              blockNumber: z
                .number()
                .int()
                .min(0)
                .max(Number.MAX_SAFE_INTEGER)
                .optional()
                .describe('EVM, TRON'),
              slot: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('Solana'),
            }),
          )
          .max(NETWORKS.length),
      }),
      ...sandboxErrors,
    },
  },
  sendRefund: {
    method: 'POST',
    path: '/sandbox/refunds/:id/send',
    summary: "Send a PENDING refund with the sandbox merchant's key",
    description:
      "Signs the refund's unsigned transaction with the key of the order's receiving wallet, which the sandbox holds, and sends it; the refund then SUCCEEDS as any refund does, once verified on chain. 409 when the refund is not PENDING or its wallet is not one the sandbox holds; 404 for an unknown refund or on an instance that is not a sandbox.",
    metadata: merchantAuth('refunds:write', 'refunds:write'),
    pathParams: z.object({ id: ZRefundIdParam }),
    body: c.noBody(),
    responses: { 200: ZTxIdBody, ...sandboxErrors, ...errors('CONFLICT') },
  },
  sendPayout: {
    method: 'POST',
    path: '/sandbox/payouts/:id/send',
    summary: "Pay an APPROVED payout with the sandbox merchant's keys",
    description:
      "Signs each of the payout's unsigned transactions (GET /payouts/{id}/transactions) with the key of its paying wallet, which the sandbox holds, sends it and reports it (POST /payouts/{id}/transactions); the items are then CONFIRMED as any payout's are, once verified on chain. Fund the wallets first (POST /sandbox/faucet). Answers the transactions sent, in order. 409 unless the payout is APPROVED (or SENDING, for its items not yet sent) or when a paying wallet is not one the sandbox holds; 404 for an unknown payout or on an instance that is not a sandbox.",
    metadata: merchantAuth('payouts:write', 'payouts:write'),
    pathParams: ZPayoutParams,
    body: c.noBody(),
    responses: {
      200: z.object({ txIds: z.array(ZTxId).max(PAYOUT_ITEMS_MAX) }),
      ...sandboxErrors,
      ...errors('CONFLICT'),
    },
  },
});
