import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  TX_ID_MAX,
  URL_MAX,
  ZAddress,
  ZDateTime,
  ZDecimalAmount,
  ZDecimalOut,
  ZFiatCurrency,
  ZNetwork,
  ZOrderKind,
  ZOrderStatus,
  ZPaymentUri,
  ZQrData,
  ZReference,
  ZToken,
  ZTokenDecimals,
  ZTxId,
  ZUrlOut,
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
import { EMAIL_MAX, LOCALES } from './locales';

const c = initContract();

export const METADATA_MAX_BYTES = 4096;

/** A language of the customer's pages and e-mails. */
export const ZLocale = z.enum(LOCALES);

export const ZHttpUrl = z
  .string()
  .max(URL_MAX)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** Telegram chat ids: a (possibly negative) integer or an @channel username. */
export const ZMessengerChatId = z
  .string()
  .max(33)
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

/** A way to pay as a request names it: a network and a token. */
export const ZNetworkToken = z.object({ network: ZNetwork, token: ZToken }).strict();
export type NetworkToken = z.infer<typeof ZNetworkToken>;

/** Most ways an order can be paid, its first (network, token) included. */
export const MAX_PAYMENT_OPTIONS = 16;

/**
 * The price rule of an order and of a subscription: `amount` (token units) or `quoteCurrency` +
 * `quoteAmount` (a fiat price), never both.
 */
export function checkPrice(
  body: { amount?: string; quoteCurrency?: string; quoteAmount?: string },
  ctx: z.RefinementCtx,
): void {
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
}

export const ORDER_SOURCES = ['api', 'dashboard', 'pos', 'subscription'] as const;
export const ZOrderSource = z.enum(ORDER_SOURCES);
export type OrderSource = z.infer<typeof ZOrderSource>;
/** What POST /orders may say it comes from (a subscription's orders are the server's own). */
export const ZCreateSource = z.enum(['api', 'dashboard', 'pos']);

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

/** One way to pay an order: its own token, receiving wallet, amount and links. */
export const ZPaymentOption = z
  .object({
    network: ZNetwork,
    token: ZToken,
    tokenMintOrContract: ZAddress.describe('The token: SPL mint (Solana) or ERC-20 contract'),
    decimals: ZTokenDecimals.describe("The token's base-unit decimals"),
    recipient: ZAddress.describe("Merchant's receiving address on this network"),
    amount: ZDecimalOut.describe(
      "What the payer sends on this option, in its token's units: the order's price, raised by a few base units when another payable order to this wallet and token has it (so a plain transfer is matched by its exact amount)",
    ),
    amountUnique: z
      .boolean()
      .describe(
        'Whether this amount identifies the order on its wallet and token (false: matched by tag or claim only)',
      ),
    amountDue: ZDecimalOut.describe(
      "What is still due on this option: its amount less what the order received (on any option), rounded up to the token's base units; 0 once paid",
    ),
    payUrl: ZPaymentUri.describe("This option's wallet payment URI (for what is still due on it)"),
    qrData: ZQrData.describe(
      'What a QR code must encode (the same as payUrl; on TRON the bare receiving address)',
    ),
    qrImageUrl: ZUrlOut.describe('The QR code: GET /pay/{reference}/qr.svg?network=&token='),
    txRequestUrl: z
      .string()
      .max(URL_MAX)
      .regex(/^solana:/)
      .nullable()
      .describe('Solana Pay transaction request URL for this option (null off Solana)'),
  })
  .describe('A way to pay the order: the payer picks one');
export type PaymentOption = z.infer<typeof ZPaymentOption>;

/** The period of a subscription an order bills (its index from 0, and its bounds). */
export const ZOrderPeriod = z.object({
  index: z.number().int().min(0).max(1_000_000).describe('0 for the first period'),
  start: ZDateTime,
  end: ZDateTime,
});

/** Who made an order: a member (its sign-in), an API key, or null for the system (and orders made before members). */
export const ZCreatedBy = z
  .union([
    z.object({ memberId: z.string().uuid().max(36), email: z.string().max(254) }).strict(),
    z.object({ apiKeyId: z.string().uuid().max(36) }).strict(),
  ])
  .nullable()
  .describe(
    'Who made the order: `{memberId, email}`, `{apiKeyId}`, or null (the system, or made before members)',
  );

export const ZOrder = z
  .object({
    reference: ZReference.describe(
      'Identifies the order everywhere: a fresh Solana public key (base58), used as the Solana Pay reference; the same form on every network',
    ),
    status: ZOrderStatus.describe(
      'PENDING (no payment seen) -> CONFIRMING (a transaction awaits finality) -> PAID (final payments reach amount); UNDERPAID (final payments below amount, still payable until expiry); EXPIRED (expiresAt passed without full payment; a late payment still makes it PAID with paidLate)',
    ),
    network: ZNetwork,
    token: ZToken,
    decimals: ZTokenDecimals.describe(
      "The token's base-unit decimals (18 for BSC's USDT and USDC, else 6): the amounts have at most this many places, and payUrl and the transactions ask for amount × 10^decimals base units",
    ),
    amount: ZDecimalOut.describe(
      'What the payer must send, in token units (at least 6 places, more only when the token has more decimals and the units need them). For a quote: quoteAmount / fxRate rounded up, so the merchant never receives less; it may then be raised by a few base units so that no two payable orders to one wallet share an amount (a plain transfer is matched by its exact amount)',
    ),
    amountReceived: ZDecimalOut.describe(
      "Sum of the final payments credited to the order (GET /orders/{reference}/payments), on every payment option, in token units (USDT and USDC at par; exact: more places when an option's token has more decimals); may exceed amount",
    ),
    amountUnique: z
      .boolean()
      .describe(
        'Whether no other payable order to this wallet has this amount, so a payment without the order tag is matched by its amount. False only when no free amount was left within 0.001 of the price: such an order is matched by tag or a reported claim',
      ),
    amountRefunded: ZDecimalOut.describe('Sum of verified refunds (GET /orders/{reference}/refunds)'),
    amountRefundable: ZDecimalOut.describe(
      'What a new refund may still take: amountReceived less what refunds hold (sent, waiting, or FAILED before their lateUntil), never below 0; the default amount of POST /orders/{reference}/refunds',
    ),
    tokenMintOrContract: ZAddress.describe(
      'The token: SPL mint (Solana) or ERC-20 contract (Polygon/Ethereum)',
    ),
    recipient: ZAddress.describe("Merchant's receiving address"),
    quoteCurrency: ZFiatCurrency.nullable().describe(
      'Fiat currency of the quote (null for orders given in token units)',
    ),
    quoteAmount: ZDecimalOut.nullable().describe(
      'The fiat price the order was created with (null for orders given in token units); amount is what is paid',
    ),
    quotedAt: ZDateTime.nullable().describe('When the rate was taken (null without a quote)'),
    fxRate: ZDecimalOut.nullable().describe(
      'The rate used: fiat per 1 token (USDT and USDC use the USD rate); null without a quote',
    ),
    fxRateLabel: z.string().max(200).nullable().describe('The rate in words, e.g. "1 USDT = 5.412300 BRL"'),
    fxSource: z.string().max(200).nullable().describe('The rate feed that gave fxRate'),
    payUrl: ZPaymentUri.describe(
      'Wallet payment URI: a Solana Pay transfer request (solana:<recipient>?amount=…&spl-token=…&reference=…), an EIP-681 transfer (ethereum:<token>@<chainId>/transfer?address=…&uint256=…), or on TRON tron:<recipient>?amount=…',
    ),
    qrData: ZQrData.describe(
      'Exactly what a QR code must encode (the same as payUrl; on TRON the bare receiving address)',
    ),
    qrImageUrl: ZUrlOut.describe('The QR code as an image: GET /pay/{reference}/qr.svg (qr.png too)'),
    checkoutUrl: ZUrlOut.describe('The hosted payment page to send the payer to: /checkout/{reference}'),
    txRequestUrl: z
      .string()
      .max(URL_MAX)
      .regex(/^solana:/)
      .nullable()
      .describe(
        'Solana Pay transaction request URL, solana:<base>/pay/tx-request/{reference} (null off Solana)',
      ),
    expiresAt: ZDateTime.describe(
      'When a PENDING or UNDERPAID order becomes EXPIRED; a payment still counts if it becomes final within the late-payment window after it',
    ),
    createdAt: ZDateTime,
    updatedAt: ZDateTime,
    txId: ZTxId.nullable().describe(
      'The verified payment transaction (the latest credited one when several paid the order); null until one is verified',
    ),
    paidAt: ZDateTime.nullable().describe('When the order became PAID'),
    paidLate: z
      .boolean()
      .describe('True when the payment became final after expiresAt (within LATE_PAYMENT_WINDOW_SECONDS)'),
    webhookUrl: ZUrlOut.nullable().describe("This order's own webhook URL (null: the profile's)"),
    returnUrl: ZUrlOut.nullable().describe('Where the checkout page sends the payer after paying'),
    messengerChatId: ZMessengerChatId.nullable().describe(
      "This order's own messenger chat (null: the profile's)",
    ),
    merchantWalletId: z.string().max(36).uuid().describe('The receiving wallet (wallet_id)'),
    description: z.string().max(DESCRIPTION_MAX).nullable().describe('Shown to the payer'),
    metadata: z
      .record(z.unknown())
      .nullable()
      .describe("The merchant's free-form object, as given at creation (null when none)"),
    paymentOptions: z
      .array(ZPaymentOption)
      .min(1)
      .max(MAX_PAYMENT_OPTIONS)
      .describe(
        "The ways the payer may pay, the first being the order's own network, token, recipient and amount. A transfer on any of them credits the order; amountReceived sums them all, exactly",
      ),
    paidWith: ZNetworkToken.nullable().describe(
      'The option (network and token) of the first credited payment; null before',
    ),
    subscriptionId: z
      .string()
      .max(40)
      .nullable()
      .describe(
        'The subscription (sub_…) this order bills a period of; null for an order made by POST /orders',
      ),
    period: ZOrderPeriod.nullable().describe("The subscription's period this order bills; null without one"),
    customerEmail: z
      .string()
      .max(EMAIL_MAX)
      .nullable()
      .describe("The payer's e-mail address given at creation (null when none)"),
    customerLanguage: ZLocale.nullable().describe("The language of the customer's e-mails (null: en)"),
    source: ZOrderSource.describe(
      'Where the order came from: api, dashboard, pos (point of sale), subscription',
    ),
    createdBy: ZCreatedBy,
    kind: ZOrderKind,
    resource: z
      .string()
      .max(URL_MAX)
      .nullable()
      .describe('x402: the URL the payment paid for; null for other orders'),
    payer: ZAddress.nullable().describe('x402: the wallet that paid; null for other orders'),
  })
  .describe('A payment order');
export type Order = z.infer<typeof ZOrder>;
export type CreatedBy = z.infer<typeof ZCreatedBy>;

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
