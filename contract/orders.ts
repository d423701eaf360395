import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  TX_ID_MAX,
  ZDateTime,
  ZDecimalAmount,
  ZFiatCurrency,
  ZNetwork,
  ZOrderKind,
  ZOrderStatus,
  ZToken,
  errors,
  merchantAuth,
} from './common';
import {
  MAX_PAGE,
  ZIdempotencyHeaders,
  ZReferenceParams,
  cursorPage,
  cursorQuery,
  merchantErrors,
  numberedPage,
  orderErrors,
  orderWriteErrors,
} from './shapes';
import { EMAIL_MAX } from './locales';

import {
  MAX_PAYMENT_OPTIONS,
  ZCreateSource,
  ZHttpUrl,
  ZLocale,
  ZMessengerChatId,
  ZMetadata,
  ZNetworkToken,
  checkPrice,
} from './order-fields';
import { ZOrder } from './order-shape';

export * from './order-fields';
export * from './order-shape';

const c = initContract();

export const ZCreateOrderBody = z
  .object({
    network: ZNetwork.describe("The order's first payment option's network"),
    token: ZToken.describe("The order's first payment option's token"),
    paymentOptions: z
      .union([z.literal('all'), z.array(ZNetworkToken).min(1).max(MAX_PAYMENT_OPTIONS)])
      .optional()
      .describe(
        `More ways the payer may pay: a list of {network, token} (each network on and with a receiving wallet of yours, else 400), or "all" (every network and token that is on and has a wallet of yours). The options are network/token first, then the list, without repeats: at most ${MAX_PAYMENT_OPTIONS}. Without it the order has its one option`,
      ),
    amount: ZDecimalAmount.optional().describe('Amount in token units; give this or the quote pair'),
    quoteCurrency: ZFiatCurrency.optional().describe('Fiat currency of the quote (BRL, EUR)'),
    quoteAmount: ZDecimalAmount.optional().describe('Fiat amount converted to token units at a live rate'),
    webhookUrl: ZHttpUrl.optional().describe("Webhook URL for this order only (else the profile's)"),
    returnUrl: ZHttpUrl.optional().describe(
      'Where the hosted checkout page sends the payer after paying ("Back to the shop")',
    ),
    messengerChatId: ZMessengerChatId.optional().describe(
      "Messenger (Telegram) chat to notify for this order (else the profile's)",
    ),
    merchantWalletId: z
      .string()
      .max(36)
      .uuid()
      .optional()
      .describe("Receiving wallet; default: the merchant's wallet for the network"),
    expiresInSeconds: z
      .number()
      .int()
      .min(60)
      .max(86400)
      .optional()
      .describe('Lifetime; default ORDER_TTL_SECONDS (900)'),
    description: z.string().trim().min(1).max(DESCRIPTION_MAX).optional().describe('Shown to the payer'),
    metadata: ZMetadata.optional(),
    customerEmail: z
      .string()
      .trim()
      .max(EMAIL_MAX)
      .email()
      .optional()
      .describe(
        "The payer's e-mail address: with SMTP_URL set on the server, the receipt is mailed there when the order is PAID",
      ),
    customerLanguage: ZLocale.optional().describe("The language of the customer's e-mails (default en)"),
    source: ZCreateSource.optional().describe(
      'Where the order is made: `api` (the default), `dashboard`, `pos` (a sale at the point of sale)',
    ),
  })
  .strict()
  .describe(
    'Give either `amount` (token units) or `quoteCurrency` + `quoteAmount` (a fiat price), never both. USDC only on SOLANA, and only when the server enables it',
  )
  .superRefine(checkPrice);
export type CreateOrderBody = z.infer<typeof ZCreateOrderBody>;

export const ZListOrdersQuery = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE).optional().describe('Page number (default 1)'),
  ...cursorQuery('Cursor mode: empty to start, then the previous nextCursor'),
  status: ZOrderStatus.optional().describe('Only orders in this status'),
  network: ZNetwork.optional().describe(
    'Only orders on this network: one of their payment options is on it (so is the one they were paid on)',
  ),
  token: ZToken.optional().describe('Only orders in this token'),
  kind: ZOrderKind.optional().describe('Only orders of this kind (`x402`: the API payments)'),
  created_gte: ZDateTime.optional().describe(
    'Only orders created at or after this time (ISO-8601 with offset)',
  ),
  created_lt: ZDateTime.optional().describe('Only orders created before this time (ISO-8601 with offset)'),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Search: an order reference, a transaction id or a sender address of one of its payments (exact), or words of its description',
    ),
});

export const ZOrderPage = numberedPage(ZOrder, {
  total: 'Orders matching the filters, on all pages',
}).describe('Page mode (page / per_page)');
export const ZOrderCursorPage = cursorPage(ZOrder).describe('Cursor mode (cursor / per_page)');

const ZReportedTxId = z
  .string()
  .trim()
  .min(1)
  .max(TX_ID_MAX)
  .describe('Transaction signature (Solana) or hash (EVM)');

const ZReportedNetwork = ZNetwork.optional().describe(
  "The network of the transaction, one of the order's payment options' (default: the one option network whose transaction ids have this form; required, else 400, when several have it, as two EVM networks do)",
);

/** The merchant's report: its word attributes a transfer to the order. */
export const ZSubmitTxBody = z.object({ txId: ZReportedTxId, network: ZReportedNetwork }).strict();

/** Longest message signature accepted (EVM: 132 characters of hex; Solana: about 88 of base58). */
export const PROOF_SIGNATURE_MAX = 200;

/** A payer's report on the public route, with the sending wallet's signature as proof when it has one. */
export const ZPublicSubmitTxBody = z
  .object({
    txId: ZReportedTxId,
    network: ZReportedNetwork,
    signature: z
      .string()
      .trim()
      .min(1)
      .max(PROOF_SIGNATURE_MAX)
      .optional()
      .describe(
        "Proof that the reporter controls the sending wallet: the sender's signature of the UTF-8 message `stablepay claim <reference> <txId>` (txId exactly as in this body). EVM: EIP-191 personal_sign, 0x hex (65 bytes). Solana: ed25519 over the message bytes, base58 (64 bytes). Needed only for a transfer that neither names the order (its tag) nor pays its exact amount.",
      ),
  })
  .strict();

export const ordersContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/orders',
      summary: 'Create a payment order',
      description:
        'Give `amount` (token units) or `quoteCurrency` + `quoteAmount` (a fiat price converted at the live rate, `amount = quoteAmount / fxRate` rounded up to 6 decimals so the merchant never receives less; the answer says the rate, its label and its feed). When another payable order to the same wallet already has that amount, the new one is raised by a few base units so a plain transfer can be matched by its exact amount; if no free amount is left within 0.001, it keeps its price with `amountUnique: false` and is matched by tag or claim only. The order starts PENDING and expires after `expiresInSeconds` (default 15 min).\n\nSend an `Idempotency-Key` header: the same key and body from the same member or API key within 24 h return the first order (with `Idempotent-Replayed: true`); another body, or another member or key, is a 409 CONFLICT. Send the payer to `checkoutUrl`, or show `qrData` as a QR code.\n\nErrors: 400 for a bad field, both or neither of amount and quote, USDC off Solana or not enabled, or no receiving wallet on the network; 404 when `merchantWalletId` names no wallet of this merchant; 502 when the rate feed cannot be reached.',
      metadata: merchantAuth('orders:write', 'orders:write'),
      headers: ZIdempotencyHeaders,
      body: ZCreateOrderBody,
      responses: {
        201: ZOrder,
        // 404: merchantWalletId names no wallet of this merchant.
        ...orderWriteErrors,
        ...errors('UPSTREAM_UNAVAILABLE'),
      },
    },
    list: {
      method: 'GET',
      path: '/users/me/orders',
      summary: "List the merchant's orders, newest first (page or cursor mode)",
      description:
        "Page mode (default): `page` (from 1) and `per_page` (default 20, at most 50) give `{items, page, per_page, total}`, `total` counting every order that matches the filters. Cursor mode, which costs the same at any depth: start with `cursor=` (empty, without `page`), then pass each answer's `nextCursor` until it is null; the answer is `{items, per_page, nextCursor}`. A non-empty cursor with `page` is a 400, as are `per_page` over 50 and a cursor this API did not return. Filter with `status` and `network` (an order is on each network of its payment options).",
      metadata: merchantAuth('orders:read', 'orders:read'),
      query: ZListOrdersQuery,
      responses: {
        200: z.union([ZOrderPage, ZOrderCursorPage]),
        ...merchantErrors,
      },
    },
    get: {
      method: 'GET',
      path: '/orders/:reference',
      summary: 'Get one order',
      description:
        "The order as it is now: poll it, or better, listen to webhooks. Status goes PENDING -> CONFIRMING (a payment awaits finality) -> PAID; UNDERPAID when final payments fall short (still payable until expiry); EXPIRED at `expiresAt` without a full payment. A payment that becomes final after expiry (within the late-payment window) still makes the order PAID with `paidLate: true`. PAID is terminal. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: ZOrder, ...orderErrors },
    },
    submitTx: {
      method: 'POST',
      path: '/orders/:reference/submit-tx',
      summary: 'Report the transaction that pays an order (server-side integration)',
      description:
        "The merchant's attribution of a transfer to this order (an unattributed payment, or a payer's unproven report). The txId is still checked: the order moves to CONFIRMING (202) and becomes PAID only after the service reads the transaction from the chain and finds it succeeded, final, of the right token, to the order's receiving wallet, crediting the order. A transfer that names another order or pays another open order's exact amount is not taken from it. A claim that fails verification is rejected (recorded in the audit with the reason) and the order goes back to PENDING or UNDERPAID. Payments are also found without this call, by scanning the chain. Reporting the same txId again for the same order is accepted; 409 when the transaction was already credited to another order or the order can no longer be paid (PAID, or expired past the late-payment window).",
      metadata: merchantAuth('orders:write', 'orders:write'),
      pathParams: ZReferenceParams,
      body: ZSubmitTxBody,
      responses: {
        202: ZOrder,
        ...orderWriteErrors,
      },
    },
  },
  { strictStatusCodes: true },
);
