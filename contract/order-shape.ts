import { z } from 'zod';
import {
  DESCRIPTION_MAX,
  URL_MAX,
  ZAddress,
  ZDateTime,
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
} from './common';
import { EMAIL_MAX } from './locales';

import { MAX_PAYMENT_OPTIONS, ZLocale, ZMessengerChatId, ZNetworkToken, ZOrderSource } from './order-fields';

/** An order as the API answers it, with its ways to pay and who made it. */

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
