import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  ADDRESS_MAX,
  ZAddress,
  ZDateTime,
  ZDecimalAmount,
  ZDecimalOut,
  ZNetwork,
  ZPaymentUri,
  ZQrData,
  ZReference,
  ZToken,
  ZTokenDecimals,
  ZTxId,
  ZUrlOut,
  errors,
  merchantAuth,
  publicRoute,
} from './common';
import {
  ZIdempotencyHeaders,
  ZReferenceParams,
  orderErrors,
  orderList,
  orderWriteErrors,
  publicLookupErrors,
} from './shapes';
import {
  ZBase64Transaction,
  ZWalletMessage,
  HTML_PAGE_MAX,
  payErrors,
  ZAccountBody,
  ZMerchantName,
  ZSolanaPayLabel,
} from './pay';

/** The merchant's reason for a refund. */
const REASON_MAX = 500;

import {
  ZEvmRefundTransaction,
  ZSolanaRefundTransaction,
  ZTronRefundTransaction,
} from './refund-transactions';

export * from './refund-transactions';

const c = initContract();

export const REFUND_STATUSES = [
  'AWAITING_ADDRESS',
  'AWAITING_APPROVAL',
  'PENDING',
  'SUCCEEDED',
  'FAILED',
] as const;
export const ZRefundStatus = z
  .enum(REFUND_STATUSES)
  .describe(
    'AWAITING_ADDRESS (the payer has not given an address) -> AWAITING_APPROVAL (the payer gave one without a signature by a wallet whose own payments to the order cover the refund: the merchant approves it) -> PENDING (waiting for the verified transfer) -> SUCCEEDED; FAILED when no verified transfer arrives by deadlineAt (or no address, or no approval). A FAILED refund whose transfer becomes final before lateUntil still becomes SUCCEEDED, with late true',
  );
export type RefundStatus = z.infer<typeof ZRefundStatus>;

/**
 * Whether a refund holds its amount against what its order can still refund: every refund that is
 * or may still be paid. A FAILED refund holds it until `lateUntil`, as its transfer may still land
 * (a stuck EVM transaction, a link paid late) and would then be recorded: without the hold, a second
 * refund of the same amount could be made and paid, and the merchant would pay twice. The server
 * counts refundable amounts with it; the dashboard shows what is left with it.
 */
export function refundHoldsAmount(
  refund: { status: RefundStatus; lateUntil: Date | string | null },
  now: Date,
): boolean {
  if (refund.status !== 'FAILED') return true;
  return refund.lateUntil !== null && now.getTime() < new Date(refund.lateUntil).getTime();
}

export const MATCHED_BY = ['tag', 'amount', 'claim', 'x402'] as const;
export const ZMatchedBy = z
  .enum(MATCHED_BY)
  .describe(
    'The evidence that tied the transfer to the order: its tag, its exact amount, a claim, or x402 (this service settled it for the order as x402 facilitator)',
  );

/** Refund ids are random (they open a public page): `rf_` and 32 hex digits. */
export const REFUND_ID_PATTERN = /^rf_[0-9a-f]{32}$/;
const ZRefundId = z.string().max(35).regex(REFUND_ID_PATTERN);
export const ZRefundIdParam = z
  .string()
  .max(35)
  .regex(REFUND_ID_PATTERN, 'must be a refund id (rf_ and 32 hex digits)')
  .describe('The refund id (rf_ and 32 hex digits)');
export const ZRefundIdParams = z.object({ refundId: ZRefundIdParam });

/** One transfer credited to an order: the payments ledger. */
export const ZPayment = z
  .object({
    txId: ZTxId.describe('The transaction that made the transfer'),
    network: ZNetwork,
    token: ZToken.describe('The token sent (the payment option it credited: its network and token)'),
    from: ZAddress.nullable().describe("The sender's wallet (null when the chain does not say)"),
    amount: ZDecimalOut.describe('What this transfer credited to the order, in its own token'),
    matchedBy: ZMatchedBy,
    blockTime: ZDateTime.nullable().describe(
      'When the block holding it was produced (null when the chain does not say)',
    ),
    createdAt: ZDateTime.describe('When the service recorded it'),
  })
  .describe('A transfer credited to an order, verified and final on chain');
export type Payment = z.infer<typeof ZPayment>;

export const ZRefund = z
  .object({
    id: ZRefundId.describe('rf_…'),
    orderReference: ZReference.describe('The refunded order'),
    status: ZRefundStatus,
    network: ZNetwork,
    token: ZToken,
    amount: ZDecimalOut.describe('What is refunded, in token units'),
    decimals: ZTokenDecimals.describe(
      "The token's base-unit decimals (the order's): the transaction sends amount × 10^decimals base units (18 for BSC's USDT)",
    ),
    from: ZAddress.describe("The order's receiving wallet, which sends the refund"),
    to: ZAddress.nullable().describe(
      'Where the refund goes; null while the payer has not said. While AWAITING_APPROVAL: the address the payer gave, not signed by a wallet whose own payments to the order cover the refund, which the merchant approves (or not) before anything is sent',
    ),
    reason: z.string().max(REASON_MAX).nullable().describe("The merchant's reason, as given"),
    tag: ZReference.describe(
      'Names the refund on chain: a reference key (Solana: a key of the transfer; EVM: its 32 bytes after the call data)',
    ),
    refundUrl: ZUrlOut.describe("The payer's page, where they give an address"),
    payUrl: ZPaymentUri.nullable().describe(
      "A link for the merchant's own wallet: Solana Pay transaction request, EIP-681 transfer, or tron:<address>?amount=… (null while no address)",
    ),
    qrData: ZQrData.nullable().describe(
      'Exactly what a QR code must encode (the same as payUrl; on TRON the bare refund address)',
    ),
    transaction: z
      .union([ZSolanaRefundTransaction, ZEvmRefundTransaction, ZTronRefundTransaction])
      .nullable()
      .describe('The unsigned refund transaction (null while no address, or while the chain is unreachable)'),
    txId: ZTxId.nullable().describe('The verified refund transaction'),
    late: z
      .boolean()
      .describe(
        'True when the refund SUCCEEDED after it had FAILED: its transfer became final after deadlineAt, before lateUntil',
      ),
    failureReason: z
      .string()
      .max(500)
      .nullable()
      .describe('Why the refund FAILED (kept when a late transfer then made it SUCCEED)'),
    deadlineAt: ZDateTime.describe('Without a verified transfer by then, the refund FAILS'),
    lateUntil: ZDateTime.nullable().describe(
      "A FAILED refund's late window (LATE_PAYMENT_WINDOW_SECONDS after it failed): its transfer becoming final before then is still recorded (SUCCEEDED, late), and until then its amount stays held against what the order can refund. Null when the refund never had an address to be sent to",
    ),
    createdAt: ZDateTime,
    updatedAt: ZDateTime,
  })
  .describe("A refund of all or part of an order's payments, sent by the merchant's receiving wallet");
export type Refund = z.infer<typeof ZRefund>;

export const ZCreateRefundBody = z
  .object({
    network: ZNetwork.optional().describe(
      'The payment option refunded, with token: the refund goes out on it, from its receiving wallet (default: the option that received the most; the earlier on a tie)',
    ),
    token: ZToken.optional().describe('The payment option refunded, with network'),
    amount: ZDecimalAmount.optional().describe(
      'Default: everything refundable on the option (what it received less what its refunds hold), in its token',
    ),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(REASON_MAX)
      .optional()
      .describe('Kept with the refund, for the merchant'),
    to: z
      .string()
      .trim()
      .min(1)
      .max(ADDRESS_MAX)
      .optional()
      .describe(
        "Refund address, validated per network (not the order's receiving wallet); without it the payer gives one on refundUrl",
      ),
  })
  .strict();
export type CreateRefundBody = z.infer<typeof ZCreateRefundBody>;

/** What the payer's page shows: the refund's own fields, nothing of the merchant's private settings. */
export const ZPublicRefund = ZRefund.pick({
  id: true,
  status: true,
  network: true,
  token: true,
  amount: true,
  to: true,
  orderReference: true,
  txId: true,
  deadlineAt: true,
})
  .extend({
    merchantName: ZMerchantName,
    addressFormat: z.string().max(200).describe('What a valid address looks like on this network'),
  })
  .describe("A refund as its payer sees it: nothing of the merchant's private settings");
export type PublicRefund = z.infer<typeof ZPublicRefund>;
/** Longest text of a message signature: EVM 132 characters, Solana base58 up to 88. */
const SIGNATURE_MAX = 200;

export const ZRefundAddressBody = z
  .object({
    address: z
      .string()
      .trim()
      .min(1)
      .max(ADDRESS_MAX)
      .describe("The wallet to receive the refund, on the refund's network (not the merchant's wallet)"),
    signature: z
      .string()
      .trim()
      .min(1)
      .max(SIGNATURE_MAX)
      .optional()
      .describe(
        "Proof that the payer gives the address: the UTF-8 message `stablepay refund <refundId> <address>` (the address exactly as in this body) signed by a wallet that sent a payment credited to the order (EVM: EIP-191 personal_sign, 0x hex; Solana: ed25519 over the message bytes, base58). It takes the address at once only when that wallet's own verified payments on the refund's network and token come to at least the refund's amount; without it, or from a wallet that paid less, the merchant approves the address first",
      ),
  })
  .strict();
export type RefundAddressBody = z.infer<typeof ZRefundAddressBody>;

export const ZRefundApprovalParams = ZReferenceParams.extend({ id: ZRefundIdParam });

export const ZRefundTxRequest = z.object({
  transaction: ZBase64Transaction.describe('Base64 transaction for the receiving wallet to sign'),
  message: ZWalletMessage,
});

/** Solana Pay: errors on the transaction-request path also carry a top-level `message`. */
const txRequestErrors = payErrors;

export const refundsContract = c.router(
  {
    payments: {
      method: 'GET',
      path: '/orders/:reference/payments',
      summary: 'The payments ledger: every transfer credited to the order, oldest first',
      description:
        "Each verified, final transfer with its sender and `matchedBy`: the evidence that tied it to the order (`tag`: the transaction names the order; `amount`: exactly the amount due to the recipient; `claim`: reported through submit-tx, the weakest). Their sum is the order's `amountReceived`. 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZPayment), ...orderErrors },
    },
    create: {
      method: 'POST',
      path: '/orders/:reference/refunds',
      summary: 'Refund all or part of what an order received',
      description:
        "Never more than received less what other refunds hold: those that SUCCEEDED, those still waiting (for an address, an approval or the transfer), and a FAILED one until its `lateUntil`, as its transfer may still land and would then count. Asking for more, or for anything when nothing is left, is a 400; `amount` defaults to all that is left. The service holds no keys: it builds the unsigned transaction from the order's receiving wallet (`transaction`, `payUrl`), then verifies the transfer on chain like a payment. With `to` (the merchant's own word) the refund is PENDING; without it, AWAITING_ADDRESS until the payer gives the address on `refundUrl` (then AWAITING_APPROVAL unless a wallet that paid at least the refund signed it, see POST /pay/refunds/{refundId}/address). The order keeps its status; its `amountRefunded` grows when the refund SUCCEEDS.\n\n`Idempotency-Key` is honoured: the same key and body within 24 h return the first refund (as it is now, with `Idempotent-Replayed: true`); another body is a 409.",
      metadata: merchantAuth('refunds:write', 'refunds:write'),
      pathParams: ZReferenceParams,
      headers: ZIdempotencyHeaders,
      body: ZCreateRefundBody,
      responses: {
        201: ZRefund,
        ...orderWriteErrors,
        ...errors('UPSTREAM_UNAVAILABLE'),
      },
    },
    list: {
      method: 'GET',
      path: '/orders/:reference/refunds',
      summary: "The order's refunds, oldest first",
      description:
        "Every refund of the order with its status, and for a PENDING one the unsigned transaction to send from the receiving wallet (an AWAITING_APPROVAL one has none until approved). 404 for an unknown reference or another merchant's order.",
      metadata: merchantAuth('orders:read', 'orders:read'),
      pathParams: ZReferenceParams,
      responses: { 200: orderList(ZRefund), ...orderErrors },
    },
    info: {
      method: 'GET',
      path: '/pay/refunds/:refundId',
      summary: "A refund as its payer sees it (the refund page's data)",
      description:
        'Public (the random refund id is the key): status, amount, where it goes and what a valid address looks like on its network. 404 for an unknown refund id.',
      metadata: publicRoute,
      pathParams: ZRefundIdParams,
      responses: { 200: ZPublicRefund, ...publicLookupErrors },
    },
    setAddress: {
      method: 'POST',
      path: '/pay/refunds/:refundId/address',
      summary: 'The payer gives the address to refund to (once)',
      description:
        "Public, rate-limited per client: anyone who knows the refund id can call it, so an address is taken at once only with proof that the payer gives it. With `signature` by a wallet whose own verified payments to the order, on the refund's network and token, come to at least the refund's amount (see the body), the refund becomes PENDING. Without a signature, or with one by a wallet that paid less (anyone who knows the order's reference can pay it one base unit with its tag, and of several payers each paid only a part), the address is recorded and the refund waits in AWAITING_APPROVAL until the merchant approves it (POST /orders/{reference}/refunds/{id}/approve, or the dashboard); nothing can be sent to it before. Either way its deadline starts again and the merchant gets `refund.created` with the address and the status.\n\nThe address is validated per network and may not be the merchant's wallet (400). A malformed signature, or one that is not by a wallet that sent a payment credited to the order, is a 400 at `body.signature` and sets nothing. 409 when an address was already given (awaiting approval included) or the refund takes none.",
      metadata: publicRoute,
      pathParams: ZRefundIdParams,
      body: ZRefundAddressBody,
      responses: {
        200: ZPublicRefund,
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    approve: {
      method: 'POST',
      path: '/orders/:reference/refunds/:id/approve',
      summary: 'Approve the refund address the payer gave without proof',
      description:
        "An AWAITING_APPROVAL refund has an address the payer gave on the refund page without a signature by a wallet whose own payments to the order cover the refund: anyone who knew the refund id could have given it (and a signature by a wallet that paid less, a single tagged base unit for one, proves no more; the audit's `refund.address_set` says who signed and what it paid). Approving it is the merchant's word that it is the payer's: the refund becomes PENDING with its transaction built (its deadline starts again), is audited with who approved it, and `refund.created` is sent with status PENDING. Not approving it leaves it to FAIL at its deadline; then a new refund can be made. 409 when the refund is not AWAITING_APPROVAL; 404 for an unknown refund or reference, or another merchant's.",
      metadata: merchantAuth('refunds:write', 'refunds:write'),
      pathParams: ZRefundApprovalParams,
      body: c.noBody(),
      responses: {
        200: ZRefund,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
      },
    },
    page: {
      method: 'GET',
      path: '/refund/:refundId',
      summary: "The payer's refund page (HTML; English, Portuguese or Spanish)",
      description:
        "The page behind `refundUrl`, where the payer gives the address to refund to and then follows the refund. Language from `lang`, else the browser's languages. 404 for an unknown refund id.",
      metadata: publicRoute,
      pathParams: ZRefundIdParams,
      query: z.object({ lang: z.string().max(20).optional().describe('en, pt-BR or es') }),
      responses: {
        200: c.otherResponse({
          contentType: 'text/html; charset=utf-8',
          body: z.string().max(HTML_PAGE_MAX),
        }),
        ...publicLookupErrors,
      },
    },
    txRequest: {
      method: 'GET',
      path: '/pay/refunds/:refundId/tx-request',
      summary: "Solana Pay transaction request for the merchant's wallet: label and icon",
      description:
        "The first step of the Solana Pay handshake behind a Solana refund's `payUrl`. Solana refunds only (400 otherwise: send the refund's `transaction` instead). Errors also carry a top-level `message`.",
      metadata: publicRoute,
      pathParams: ZRefundIdParams,
      responses: { 200: ZSolanaPayLabel, ...txRequestErrors },
    },
    txRequestPost: {
      method: 'POST',
      path: '/pay/refunds/:refundId/tx-request',
      summary: 'Solana Pay transaction request (POST {account}: the receiving wallet)',
      description:
        "The refund transaction for the merchant's wallet to sign: `account` must be the order's receiving wallet, which pays the fee (400 otherwise). 409 while the refund is not PENDING: no address yet, an address awaiting the merchant's approval, or settled. Errors also carry a top-level `message`.",
      metadata: publicRoute,
      pathParams: ZRefundIdParams,
      body: ZAccountBody,
      responses: { 200: ZRefundTxRequest, ...txRequestErrors },
    },
  },
  { strictStatusCodes: true },
);
