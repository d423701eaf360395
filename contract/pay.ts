import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EVM_NETWORKS, type EvmNetwork } from './network-table';
import {
  ADDRESS_MAX,
  ERROR_MESSAGE_MAX,
  ZDecimalOut,
  ZErrorBody,
  ZNetwork,
  ZToken,
  ZReference,
  ZUrlOut,
  errors,
  publicRoute,
  zBytes,
} from './common';
import { ZReferenceParams, publicLookupErrors } from './shapes';
import { ZOrder, ZPublicSubmitTxBody } from './orders';

/** A merchant name (full_name) as payers see it. */
const MERCHANT_NAME_MAX = 200;
/** The merchant's name (full_name) as payers see it; null when the merchant gave none. */
export const ZMerchantName = z.string().max(MERCHANT_NAME_MAX).nullable();
/** Solana Pay's POST body: the account (public key) that is to sign. */
export const ZAccountBody = z.object({ account: z.string().max(ADDRESS_MAX) });
/** A serialized Solana transaction (at most 1,232 bytes), base64. */
export const ZBase64Transaction = z
  .string()
  .max(2048)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/);
/** What a wallet shows the payer about a transaction. */
export const ZWalletMessage = z.string().max(500);

const c = initContract();

/** The payment URI's QR code as an image of `format`, rendered on demand. */
function qrRoute<F extends 'svg' | 'png'>(format: F, contentType: string, body: z.ZodTypeAny) {
  return {
    method: 'GET',
    path: `/pay/:reference/qr.${format}`,
    summary: `QR code of the payment URI (${format.toUpperCase()})`,
    description:
      "Encodes the order's `qrData` (the same as `payUrl`), or a payment option's with `network` and `token`, rendered on demand. Public, cacheable for 5 minutes. 404 for an unknown reference.",
    metadata: publicRoute,
    pathParams: ZReferenceParams,
    query: ZOptionQuery,
    responses: { 200: c.otherResponse({ contentType, body }), ...publicLookupErrors },
  } as const;
}

/** What the payment page needs: the order's own fields, and nothing of the merchant's private settings. */
export const ZPaymentInfo = ZOrder.pick({
  reference: true,
  status: true,
  network: true,
  token: true,
  decimals: true,
  amount: true,
  amountReceived: true,
  tokenMintOrContract: true,
  recipient: true,
  description: true,
  quoteCurrency: true,
  quoteAmount: true,
  fxRateLabel: true,
  payUrl: true,
  qrData: true,
  qrImageUrl: true,
  txRequestUrl: true,
  checkoutUrl: true,
  expiresAt: true,
  paidAt: true,
  paidLate: true,
  txId: true,
  returnUrl: true,
  paymentOptions: true,
  paidWith: true,
})
  .extend({
    amountDue: ZDecimalOut.describe('What is still to pay'),
    merchantName: ZMerchantName,
  })
  .describe("An order as the payer sees it: nothing of the merchant's private settings");

/** Solana Pay: errors on the transaction-request path also carry a top-level `message`. */
export const ZPayErrorBody = ZErrorBody.extend({ message: z.string().max(ERROR_MESSAGE_MAX) });
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

export const ZSolanaPayLabel = z.object({
  label: z.string().max(MERCHANT_NAME_MAX + 20),
  icon: ZUrlOut,
});
export const ZSolanaTransaction = z.object({
  transaction: ZBase64Transaction.describe('Base64 serialized transaction for the payer to sign'),
  message: ZWalletMessage,
  network: z.literal('SOLANA'),
  reference: ZReference,
  amount: ZDecimalOut,
});
/** An EVM chain id (EIP-155; at most 2^53 - 1, what wallets handle). */
export const ZChainId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** An EVM address, 0x and 40 hex digits. */
export const ZEvmAddress = z
  .string()
  .max(42)
  .regex(/^0x[0-9a-fA-F]{40}$/);
/** EVM call data, hex. */
export const ZCallData = z
  .string()
  .max(1024)
  .regex(/^0x([0-9a-fA-F]{2})*$/);
export const ZEvmTransaction = z.object({
  chainId: ZChainId,
  to: ZEvmAddress.describe('Token contract'),
  data: ZCallData.describe(
    "ERC-20 transfer(recipient, amountDue) call data followed by the order's tag (its reference as 32 bytes)",
  ),
  value: z.literal('0'),
  network: z.enum(EVM_NETWORKS as [EvmNetwork, ...EvmNetwork[]]),
  reference: ZReference,
  amount: ZDecimalOut,
  message: ZWalletMessage,
});

/** Hex without 0x, in whole bytes. */
const hexBytes = (max: number) =>
  z
    .string()
    .max(max * 2)
    .regex(/^([0-9a-f]{2})*$/);
/** Milliseconds since the epoch, as TRON's transactions carry them. */
const ZTronMillis = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** A TRON address in hex as TRON's transactions carry it: 41 and 20 bytes. */
const ZTronHexAddress = z
  .string()
  .length(42)
  .regex(/^41[0-9a-f]{40}$/);
/**
 * An unsigned TRON transaction as tronweb builds it (a TRC-20 `transfer` through
 * TriggerSmartContract): `raw_data` and its protobuf `raw_data_hex`, `txID` = sha256 of the latter.
 * The wallet signs `txID` and broadcasts.
 */
export const ZTronUnsignedTransaction = z
  .object({
    visible: z.literal(false).describe('Addresses in hex (41…), as signed'),
    txID: z
      .string()
      .length(64)
      .regex(/^[0-9a-f]{64}$/),
    raw_data_hex: hexBytes(512),
    raw_data: z.object({
      contract: z
        .array(
          z.object({
            parameter: z.object({
              value: z.object({
                data: hexBytes(256).describe(
                  'transfer(recipient, amount) call data followed by the tag (32 bytes)',
                ),
                owner_address: ZTronHexAddress.describe('The sender, who signs'),
                contract_address: ZTronHexAddress.describe('The TRC-20 token contract'),
              }),
              type_url: z.literal('type.googleapis.com/protocol.TriggerSmartContract'),
            }),
            type: z.literal('TriggerSmartContract'),
          }),
        )
        .length(1),
      ref_block_bytes: z
        .string()
        .length(4)
        .regex(/^[0-9a-f]{4}$/),
      ref_block_hash: z
        .string()
        .length(16)
        .regex(/^[0-9a-f]{16}$/),
      expiration: ZTronMillis.describe('Milliseconds since the epoch: sign and send before'),
      timestamp: ZTronMillis,
      fee_limit: z
        .number()
        .int()
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .describe('Most sun the call may burn for energy'),
    }),
  })
  .describe('Unsigned TRON transaction (tronweb form), built from a recent block header');
export const ZTronTransaction = z.object({
  transaction: ZTronUnsignedTransaction,
  network: z.literal('TRON'),
  reference: ZReference,
  amount: ZDecimalOut,
  message: ZWalletMessage,
});

/** Bounds of the non-JSON answers (HTML pages, images), generous: see test/integration/docs.test.ts. */
export const HTML_PAGE_MAX = 262144;
export const ICON_SVG_MAX = 16384;
export const QR_SVG_MAX = 262144;
export const QR_PNG_MAX = 262144;

/** Which of the order's payment options a pay route is about: the first by default. */
export const ZOptionQuery = z.object({
  network: ZNetwork.optional().describe("The payment option's network (default: the order's first option)"),
  token: ZToken.optional().describe("The payment option's token (default: the order's first option)"),
});

const ZAccountQuery = ZOptionQuery.extend({
  account: z
    .string()
    .max(100)
    .optional()
    .describe("The payer's public key (required on Solana) or address (required on TRON)"),
});

export const payContract = c.router(
  {
    txRequest: {
      method: 'GET',
      path: '/pay/tx-request/:reference',
      summary: "Build the payer's transaction (Solana Pay transaction request; EVM call data)",
      description:
        "Public. Without `account` on Solana: the Solana Pay label and icon. With `account`: the transaction to sign (the payer pays the fee; it transfers what is still due with the order's reference as a key). On Polygon/Ethereum: the unsigned transfer for a browser wallet, `transfer(recipient, amountDue)` call data followed by the order's tag. On TRON (`account` required, a base58 T… address): the unsigned TRC-20 transfer from that account as tronweb builds it (`txID`, `raw_data`, `raw_data_hex`), the tag after the arguments, for the wallet to sign and broadcast. `network` and `token` pick one of the order's payment options (default: the first; 400 for one the order does not have). 409 when the order can no longer be paid (PAID, or expired past the late-payment window); 502 when the chain cannot be reached. Errors also carry a top-level `message` (Solana Pay 1.1).",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      query: ZAccountQuery,
      responses: {
        200: z.union([ZSolanaTransaction, ZEvmTransaction, ZTronTransaction, ZSolanaPayLabel]),
        ...payErrors,
      },
    },
    txRequestPost: {
      method: 'POST',
      path: '/pay/tx-request/:reference',
      summary: 'Solana Pay transaction request (POST {account})',
      description:
        "The Solana Pay wallet's second step: `account` (the payer's public key) gets the transaction to sign, a TransferChecked of what is still due with the order's reference as a key, and a memo. `network` and `token` pick one of the order's payment options (default: the first). Solana options only (400 otherwise; use GET for the EVM transaction). 409 when the order can no longer be paid. Errors also carry a top-level `message` (Solana Pay 1.1).",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      query: ZOptionQuery,
      body: ZAccountBody,
      responses: { 200: ZSolanaTransaction, ...payErrors },
    },
    submitTx: {
      method: 'POST',
      path: '/pay/:reference/submit-tx',
      summary: 'Report the transaction id after sending it to the network',
      description:
        "For the payment page or wallet, without a token. The order moves to CONFIRMING and the transaction is read from the chain (past `expiresAt`, a report without `signature` is read all the same but leaves the order as it is, and one made before expiry does not keep it from expiring: a report anyone can make holds no order open): a transfer that names the order (its tag) or pays its exact amount credits it. Any other transfer (an exchange withdrawal short by its fee, a payment of another amount) credits the order only with `signature`, the sending wallet's proof; without one the report is recorded for the merchant (audit, event `order.payment_claimed`) and credits nothing until the merchant attributes it. A report never takes a transfer credited to another order (409). 429 while the order already has 3 unsigned reports under check (signed reports are never held back by them).",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      body: ZPublicSubmitTxBody,
      responses: {
        202: ZPaymentInfo,
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED'),
      },
    },
    info: {
      method: 'GET',
      path: '/pay/:reference/info',
      summary: 'Order data for the payment page',
      description:
        "Public (the reference is the key): what a payment page needs, including `amountDue`, the order's `paymentOptions` (each with what is still due on it) and `paidWith`, and nothing of the merchant's private settings. Poll it to follow the status. 404 for an unknown reference.",
      metadata: publicRoute,
      pathParams: ZReferenceParams,
      responses: { 200: ZPaymentInfo, ...publicLookupErrors },
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
        200: c.otherResponse({
          contentType: 'text/html; charset=utf-8',
          body: z.string().max(HTML_PAGE_MAX),
        }),
        ...publicLookupErrors,
      },
    },
    icon: {
      method: 'GET',
      path: '/pay/icon.svg',
      summary: 'Icon shown by Solana Pay wallets',
      description: 'The SVG icon named by the Solana Pay label answer. Public and cacheable for a day.',
      metadata: publicRoute,
      responses: {
        200: c.otherResponse({ contentType: 'image/svg+xml', body: z.string().max(ICON_SVG_MAX) }),
        ...errors(),
      },
    },
    qrSvg: qrRoute('svg', 'image/svg+xml', z.string().max(QR_SVG_MAX)),
    qrPng: qrRoute('png', 'image/png', zBytes(QR_PNG_MAX, 'PNG bytes')),
  },
  { strictStatusCodes: true },
);
