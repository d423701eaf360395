import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  ZDateTime,
  ZDecimalOut,
  ZErrorBody,
  ZNetwork,
  ZOrderStatus,
  ZToken,
  errors,
  publicRoute,
} from './common';
import { ZReferenceParams, ZSubmitTxBody } from './orders';

const c = initContract();

/** What the payment page needs, and nothing of the merchant's private settings. */
export const ZPaymentInfo = z
  .object({
    reference: z.string().describe('The order reference'),
    status: ZOrderStatus,
    network: ZNetwork,
    token: ZToken,
    amount: ZDecimalOut.describe('The order amount in token units'),
    amountReceived: ZDecimalOut.describe('Sum of final payments credited so far'),
    amountDue: ZDecimalOut.describe('What is still to pay'),
    tokenMintOrContract: z.string().describe('SPL mint (Solana) or ERC-20 contract'),
    recipient: z.string().describe("Merchant's receiving address"),
    merchantName: z.string().nullable(),
    description: z.string().nullable(),
    quoteCurrency: z.string().nullable(),
    quoteAmount: ZDecimalOut.nullable().describe('The fiat price (null for orders given in token units)'),
    fxRateLabel: z.string().nullable(),
    payUrl: z.string().describe('Wallet payment URI (Solana Pay transfer request or EIP-681)'),
    qrData: z.string().describe('Exactly what a QR code must encode'),
    qrImageUrl: z.string().url(),
    txRequestUrl: z.string().nullable().describe('Solana Pay transaction request URL (Solana only)'),
    checkoutUrl: z.string().url(),
    expiresAt: ZDateTime,
    paidAt: ZDateTime.nullable(),
    paidLate: z.boolean().describe('True when the payment became final after expiresAt'),
    txId: z.string().nullable().describe('The verified payment transaction, once there is one'),
    returnUrl: z.string().nullable().describe("The shop's page to go back to after paying"),
  })
  .describe("An order as the payer sees it: nothing of the merchant's private settings");

/** Solana Pay: errors on the transaction-request path also carry a top-level `message`. */
export const ZPayErrorBody = ZErrorBody.extend({ message: z.string() });
/** The errors of the public transaction-request routes (payer's and refund's): with `message`. */
export const payErrors = (() => {
  const base = errors(
    'VALIDATION_ERROR',
    'NOT_FOUND',
    'CONFLICT',
    'UPSTREAM_UNAVAILABLE',
    'PAYLOAD_TOO_LARGE',
  );
  return Object.fromEntries(Object.keys(base).map((s) => [s, ZPayErrorBody])) as {
    [K in keyof typeof base]: typeof ZPayErrorBody;
  };
})();

export const ZSolanaPayLabel = z.object({ label: z.string(), icon: z.string().url() });
export const ZSolanaTransaction = z.object({
  transaction: z.string().describe('Base64 serialized transaction for the payer to sign'),
  message: z.string(),
  network: z.literal('SOLANA'),
  reference: z.string(),
  amount: ZDecimalOut,
});
export const ZEvmTransaction = z.object({
  chainId: z.number().int(),
  to: z.string().describe('Token contract'),
  data: z
    .string()
    .describe(
      "ERC-20 transfer(recipient, amountDue) call data followed by the order's tag (its reference as 32 bytes)",
    ),
  value: z.literal('0'),
  network: z.enum(['POLYGON', 'ETHEREUM']),
  reference: z.string(),
  amount: ZDecimalOut,
  message: z.string(),
});

const ZAccountQuery = z.object({
  account: z.string().max(100).optional().describe("The payer's public key (required on Solana)"),
});

export const payContract = c.router(
  {
    txRequest: {
      method: 'GET',
      path: '/pay/tx-request/:reference',
      summary: "Build the payer's transaction (Solana Pay transaction request; EVM call data)",
      description:
        "Public. Without `account` on Solana: the Solana Pay label and icon. With `account`: the transaction to sign (the payer pays the fee; it transfers what is still due with the order's reference as a key). On Polygon/Ethereum: the unsigned transfer for a browser wallet, `transfer(recipient, amountDue)` call data followed by the order's tag. 409 when the order can no longer be paid (PAID, or expired past the late-payment window); 502 when the chain cannot be reached. Errors also carry a top-level `message` (Solana Pay 1.1).",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      query: ZAccountQuery,
      responses: { 200: z.union([ZSolanaTransaction, ZEvmTransaction, ZSolanaPayLabel]), ...payErrors },
    },
    txRequestPost: {
      method: 'POST',
      path: '/pay/tx-request/:reference',
      summary: 'Solana Pay transaction request (POST {account})',
      description:
        "The Solana Pay wallet's second step: `account` (the payer's public key) gets the transaction to sign, a TransferChecked of what is still due with the order's reference as a key, and a memo. Solana orders only (400 otherwise; use GET for the EVM transaction). 409 when the order can no longer be paid. Errors also carry a top-level `message` (Solana Pay 1.1).",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      body: z.object({ account: z.string().max(100) }),
      responses: { 200: ZSolanaTransaction, ...payErrors },
    },
    submitTx: {
      method: 'POST',
      path: '/pay/:reference/submit-tx',
      summary: 'Report the transaction id after sending it to the network',
      description:
        'For the payment page or wallet: the same claim as POST /orders/{reference}/submit-tx, without a token. The order moves to CONFIRMING and becomes PAID only once the transaction is verified on chain. 409 when the txId belongs to another order or the order can no longer be paid; 429 while the order already has 3 reported transactions under check.',
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      body: ZSubmitTxBody,
      responses: {
        202: ZPaymentInfo,
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    info: {
      method: 'GET',
      path: '/pay/:reference/info',
      summary: 'Order data for the payment page',
      description:
        "Public (the reference is the key): what a payment page needs, including `amountDue`, and nothing of the merchant's private settings. Poll it to follow the status. 404 for an unknown reference.",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      responses: { 200: ZPaymentInfo, ...errors('VALIDATION_ERROR', 'NOT_FOUND') },
    },
    checkout: {
      method: 'GET',
      path: '/checkout/:reference',
      summary: 'The hosted payment page behind checkoutUrl (HTML)',
      description:
        "What the payer sees: amount due, live status, a countdown, payment with a browser wallet (Wallet Standard on Solana, EIP-1193/EIP-6963 on Polygon/Ethereum), a QR code and link for mobile wallets, in English, Brazilian Portuguese or Spanish (from `lang`, else the browser's languages). A browser (Accept: text/html) gets an HTML page for a bad or unknown reference too; other clients get the error body below.",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      query: z.object({
        lang: z
          .string()
          .max(35)
          .optional()
          .describe('Language of the page: en, pt-BR or es (default: from Accept-Language)'),
      }),
      responses: {
        200: c.otherResponse({ contentType: 'text/html; charset=utf-8', body: z.string() }),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
    },
    icon: {
      method: 'GET',
      path: '/pay/icon.svg',
      summary: 'Icon shown by Solana Pay wallets',
      description: 'The SVG icon named by the Solana Pay label answer. Public and cacheable for a day.',
      metadata: publicRoute,
      responses: { 200: c.otherResponse({ contentType: 'image/svg+xml', body: z.string() }), ...errors() },
    },
    qrSvg: {
      method: 'GET',
      path: '/pay/:reference/qr.svg',
      summary: 'QR code of the payment URI (SVG)',
      description:
        "Encodes the order's `qrData` (the same as `payUrl`), rendered on demand. Public, cacheable for 5 minutes. 404 for an unknown reference.",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      responses: {
        200: c.otherResponse({ contentType: 'image/svg+xml', body: z.string() }),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
    },
    qrPng: {
      method: 'GET',
      path: '/pay/:reference/qr.png',
      summary: 'QR code of the payment URI (PNG)',
      description:
        "Encodes the order's `qrData` (the same as `payUrl`), rendered on demand. Public, cacheable for 5 minutes. 404 for an unknown reference.",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      responses: {
        200: c.otherResponse({
          contentType: 'image/png',
          body: z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'PNG bytes'),
        }),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
    },
  },
  { strictStatusCodes: true },
);
