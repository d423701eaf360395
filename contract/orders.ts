import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  ZDateTime,
  ZDecimalAmount,
  ZDecimalOut,
  ZFiatCurrency,
  ZNetwork,
  ZOrderStatus,
  ZReference,
  ZToken,
  errors,
  merchantAuth,
} from './common';

const c = initContract();

export const METADATA_MAX_BYTES = 4096;

export const ZHttpUrl = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** Telegram chat ids: a (possibly negative) integer or an @channel username. */
export const ZMessengerChatId = z
  .string()
  .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, 'must be a numeric chat id or an @username');

/** Size as JSON; anything that cannot be serialised (e.g. nested too deep) counts as too big. */
const jsonBytes = (value: unknown) => {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return Infinity;
  }
};

export const ZMetadata = z
  .record(z.unknown())
  .refine((m) => jsonBytes(m) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
  .describe('Free-form object of the merchant, returned as given (at most 4 KB)');

export const ZCreateOrderBody = z
  .object({
    network: ZNetwork,
    token: ZToken,
    amount: ZDecimalAmount.optional().describe('Amount in token units; give this or the quote pair'),
    quoteCurrency: ZFiatCurrency.optional().describe('Fiat currency of the quote (BRL, EUR)'),
    quoteAmount: ZDecimalAmount.optional().describe('Fiat amount converted to token units at a live rate'),
    webhookUrl: ZHttpUrl.optional().describe("Webhook URL for this order only (else the profile's)"),
    returnUrl: ZHttpUrl.optional().describe(
      'Where the hosted checkout page sends the payer after paying ("Back to the shop")',
    ),
    messengerChatId: ZMessengerChatId.optional(),
    merchantWalletId: z
      .string()
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
    description: z.string().trim().min(1).max(200).optional().describe('Shown to the payer'),
    metadata: ZMetadata.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const hasAmount = body.amount !== undefined;
    const hasQuote = body.quoteCurrency !== undefined || body.quoteAmount !== undefined;
    if (hasAmount && hasQuote) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'send either amount or quoteCurrency + quoteAmount, not both',
      });
    } else if (!hasAmount && !hasQuote) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'send either amount or quoteCurrency + quoteAmount',
      });
    } else if (hasQuote && body.quoteCurrency === undefined) {
      ctx.addIssue({ code: 'custom', path: ['quoteCurrency'], message: 'is required with quoteAmount' });
    } else if (hasQuote && body.quoteAmount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['quoteAmount'], message: 'is required with quoteCurrency' });
    }
    if (body.token === 'USDC' && body.network !== 'SOLANA') {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'USDC is only available on SOLANA' });
    }
  });
export type CreateOrderBody = z.infer<typeof ZCreateOrderBody>;

export const ZOrder = z.object({
  reference: ZReference,
  status: ZOrderStatus.describe(
    'PENDING (no payment seen) -> CONFIRMING (a transaction awaits finality) -> PAID (final payments reach amount); UNDERPAID (final payments below amount, still payable until expiry); EXPIRED (expiresAt passed without full payment; a late payment still makes it PAID with paidLate)',
  ),
  network: ZNetwork,
  token: ZToken,
  amount: ZDecimalOut.describe(
    'What the payer must send, in token units (6 decimals). For a quote: quoteAmount / fxRate rounded up, so the merchant never receives less; it may then be raised by a few base units so that no two payable orders to one wallet share an amount (a plain transfer is matched by its exact amount)',
  ),
  amountReceived: ZDecimalOut.describe('Sum of final payments seen on chain'),
  amountUnique: z
    .boolean()
    .describe(
      'Whether no other payable order to this wallet has this amount, so a payment without the order tag is matched by its amount. False only when no free amount was left within 0.001 of the price: such an order is matched by tag or a reported claim',
    ),
  amountRefunded: ZDecimalOut.describe('Sum of verified refunds (GET /orders/{reference}/refunds)'),
  tokenMintOrContract: z.string(),
  recipient: z.string().describe("Merchant's receiving address"),
  quoteCurrency: z.string().nullable(),
  quoteAmount: ZDecimalOut.nullable().describe(
    'The fiat price the order was created with (null for orders given in token units); amount is what is paid',
  ),
  quotedAt: ZDateTime.nullable(),
  fxRate: ZDecimalOut.nullable().describe('Fiat per 1 token'),
  fxRateLabel: z.string().nullable(),
  fxSource: z.string().nullable(),
  payUrl: z.string().describe('Wallet payment URI: Solana Pay transfer request or EIP-681'),
  qrData: z.string().describe('Exactly what a QR code must encode'),
  qrImageUrl: z.string().url(),
  checkoutUrl: z.string().url(),
  txRequestUrl: z.string().nullable().describe('Solana Pay transaction request URL (Solana only)'),
  expiresAt: ZDateTime,
  createdAt: ZDateTime,
  updatedAt: ZDateTime,
  txId: z.string().nullable().describe('The payment transaction, once known'),
  paidAt: ZDateTime.nullable(),
  paidLate: z
    .boolean()
    .describe('True when the payment became final after expiresAt (within LATE_PAYMENT_WINDOW_SECONDS)'),
  webhookUrl: z.string().nullable(),
  returnUrl: z.string().nullable().describe('Where the checkout page sends the payer after paying'),
  messengerChatId: z.string().nullable(),
  merchantWalletId: z.string().uuid(),
  description: z.string().nullable(),
  metadata: z.record(z.unknown()).nullable(),
});
export type Order = z.infer<typeof ZOrder>;

export const MAX_PER_PAGE = 50;

export const ZListOrdersQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).optional().describe('Page number (default 1)'),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PER_PAGE)
    .optional()
    .describe('Items per page (default 20, max 50)'),
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe('Cursor mode: empty to start, then the previous nextCursor'),
  status: ZOrderStatus.optional(),
  network: ZNetwork.optional(),
});

export const ZOrderPage = z.object({
  items: z.array(ZOrder),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export const ZOrderCursorPage = z.object({
  items: z.array(ZOrder),
  per_page: z.number().int(),
  nextCursor: z.string().nullable(),
});

export const ZSubmitTxBody = z
  .object({
    txId: z.string().trim().min(1).max(200).describe('Transaction signature (Solana) or hash (EVM)'),
  })
  .strict();

export const ZReferenceParams = z.object({ reference: ZReference });

export const ZIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('Same key and body within 24 h returns the first response; a different body is a 409'),
});

export const ordersContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/orders',
      summary: 'Create a payment order',
      description:
        'Give `amount` (token units) or `quoteCurrency` + `quoteAmount` (a fiat price converted at the live rate; the answer says the rate, its label and its feed). Send an `Idempotency-Key` header: the same key and body within 24 h return the first order (with `Idempotent-Replayed: true`), another body is a 409. Send the payer to `checkoutUrl`, or show `qrData` as a QR code.',
      metadata: merchantAuth,
      headers: ZIdempotencyHeaders,
      body: ZCreateOrderBody,
      responses: {
        201: ZOrder,
        // 404: merchantWalletId names no wallet of this merchant.
        ...errors(
          'VALIDATION_ERROR',
          'UNAUTHENTICATED',
          'NOT_FOUND',
          'CONFLICT',
          'PAYLOAD_TOO_LARGE',
          'UPSTREAM_UNAVAILABLE',
        ),
      },
    },
    list: {
      method: 'GET',
      path: '/users/me/orders',
      summary: "List the merchant's orders, newest first (page or cursor mode)",
      metadata: merchantAuth,
      query: ZListOrdersQuery,
      responses: {
        200: z.union([ZOrderPage, ZOrderCursorPage]),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED'),
      },
    },
    get: {
      method: 'GET',
      path: '/orders/:reference',
      summary: 'Get one order',
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      responses: { 200: ZOrder, ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND') },
    },
    submitTx: {
      method: 'POST',
      path: '/orders/:reference/submit-tx',
      summary: 'Report the transaction that pays an order (server-side integration)',
      description:
        'The txId is a claim: the order becomes PAID only after the transaction is read and verified on chain.',
      metadata: merchantAuth,
      pathParams: ZReferenceParams,
      body: ZSubmitTxBody,
      responses: {
        202: ZOrder,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
  },
  { strictStatusCodes: true },
);
