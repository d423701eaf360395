/**
 * @stablepay/sdk/payer: what a payment page or a payer's app needs, on the public /pay routes.
 * Browser-safe: no Node imports, no Buffer; @solana/web3.js (an optional peer dependency) is loaded
 * only by payWithSolanaWallet. The contract is used for types only, so nothing of it is bundled.
 */
import type { Connection, PublicKey, SendOptions, Transaction } from '@solana/web3.js';
import type { z } from 'zod';
import type { payContract, ZPaymentInfo, ZSolanaTransaction } from '../../contract';
import { SolanaPaymentError, StablepayError } from './errors';
import {
  assertJsonObject,
  httpConfig,
  normalizeBaseUrl,
  send,
  type FetchLike,
  type HttpConfig,
} from './http';
import { sleep } from './retry';

export type PaymentInfo = z.infer<typeof ZPaymentInfo>;
export type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;

type Pay = typeof payContract;
/** The routes used here; `satisfies` ties each path to the contract's, so a change there fails to compile. */
const PATHS = {
  info: '/pay/:reference/info',
  txRequestPost: '/pay/tx-request/:reference',
  submitTx: '/pay/:reference/submit-tx',
} as const satisfies {
  info: Pay['info']['path'];
  txRequestPost: Pay['txRequestPost']['path'];
  submitTx: Pay['submitTx']['path'];
};

export type PayerOptions = {
  /** Where the service runs, e.g. `https://pay.example.com`. */
  baseUrl: string;
  fetch?: FetchLike;
  /** Retries on network errors, 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Per HTTP attempt, in ms (default 30 000). */
  requestTimeoutMs?: number;
};

/** Anything with a base58 form: a web3.js PublicKey, a wallet adapter's key, or the string itself. */
export type AccountLike = string | Pick<PublicKey, 'toBase58'>;

/** The part of a wallet adapter that is used (Phantom, Solflare, @solana/wallet-adapter, a Keypair wrapper). */
export type SolanaWallet = {
  publicKey: AccountLike | null;
  signTransaction(transaction: Transaction): Promise<Transaction>;
};

export type PayWithSolanaWalletParams = {
  reference: string;
  wallet: SolanaWallet;
  /** Sends the signed transaction (a web3.js Connection to the payer's RPC). */
  connection: Pick<Connection, 'sendRawTransaction'>;
  /** Options for sendRawTransaction (default: preflight at 'confirmed'). */
  sendOptions?: SendOptions;
  /** How long to wait for the service to verify the payment (default 120 000 ms). */
  timeoutMs?: number;
  /** How often to ask for the status meanwhile (default 1000 ms). */
  pollIntervalMs?: number;
};

export type PayWithSolanaWalletResult = {
  /** The payment transaction's signature (it was sent, whatever the status). */
  signature: string;
  /** The order as last seen: PAID when verified; UNDERPAID, EXPIRED, or PENDING if the claim was rejected. */
  info: PaymentInfo;
  /** True when timeoutMs passed while the order was still CONFIRMING. */
  timedOut: boolean;
};

function path(template: string, reference: string): string {
  if (typeof reference !== 'string' || reference === '')
    throw new TypeError(`reference must be a non-empty string, got ${JSON.stringify(reference)}`);
  return template.replace(':reference', encodeURIComponent(reference));
}

function accountString(account: AccountLike | null | undefined, what: string): string {
  if (typeof account === 'string' && account !== '') return account;
  if (account && typeof account === 'object' && typeof account.toBase58 === 'function')
    return account.toBase58();
  throw new TypeError(`${what} is missing: connect the wallet first`);
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a serialized transaction carries a versioned (v0) message rather than a legacy one. */
function isVersionedTransaction(bytes: Uint8Array): boolean {
  let signatures = 0;
  let offset = 0;
  for (let shift = 0; offset < 3; shift += 7) {
    const byte = bytes[offset++] ?? 0;
    signatures |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
  }
  return ((bytes[offset + 64 * signatures] ?? 0) & 0x80) !== 0;
}

async function loadWeb3(): Promise<typeof import('@solana/web3.js')> {
  try {
    return await import('@solana/web3.js');
  } catch (cause) {
    throw new SolanaPaymentError(
      'payWithSolanaWallet needs @solana/web3.js (^1.98): npm install @solana/web3.js',
      { cause },
    );
  }
}

/** The payer API bound to one service. */
export function createPayer(options: PayerOptions) {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const http: HttpConfig = httpConfig({
    fetch: options.fetch,
    maxRetries: options.maxRetries,
    timeoutMs: options.requestTimeoutMs,
  });

  async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await send(http, {
      method,
      url: `${baseUrl}${url}`,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      retry: 'idempotent', // reading, building a transaction and re-reporting one txId are all repeatable
    });
    assertJsonObject(res, method, `${baseUrl}${url}`);
    return res.body as T;
  }

  /** GET /pay/{reference}/info: what the payment page shows (status, amount due, links). */
  async function getPaymentInfo(reference: string): Promise<PaymentInfo> {
    return call<PaymentInfo>('GET', path(PATHS.info, reference));
  }

  /** POST /pay/tx-request/{reference} (Solana Pay): the transaction for `account` to sign, base64. */
  async function requestSolanaTransaction(params: {
    reference: string;
    account: AccountLike;
  }): Promise<SolanaTransactionResponse> {
    return call<SolanaTransactionResponse>('POST', path(PATHS.txRequestPost, params.reference), {
      account: accountString(params.account, 'account'),
    });
  }

  /** POST /pay/{reference}/submit-tx: report the transaction after sending it (the order becomes CONFIRMING). */
  async function submitTransaction(reference: string, txId: string): Promise<PaymentInfo> {
    return call<PaymentInfo>('POST', path(PATHS.submitTx, reference), { txId });
  }

  /**
   * The whole Solana payment from a browser wallet: fetch the transaction, let the wallet sign it,
   * send it, report it, then wait until the service has verified it on chain (the order leaves
   * CONFIRMING) or timeoutMs passes. Errors after the transaction was sent are SolanaPaymentErrors
   * carrying its `signature`: the payment may still land (the service also finds it by itself).
   */
  async function payWithSolanaWallet(params: PayWithSolanaWalletParams): Promise<PayWithSolanaWalletResult> {
    const { reference, wallet, connection } = params;
    const timeoutMs = params.timeoutMs ?? 120_000;
    const pollIntervalMs = params.pollIntervalMs ?? 1000;
    const account = accountString(wallet.publicKey, 'wallet.publicKey');

    const built = await requestSolanaTransaction({ reference, account });
    const bytes = base64ToBytes(built.transaction);
    if (isVersionedTransaction(bytes))
      throw new SolanaPaymentError(
        'The service returned a versioned transaction, which this SDK cannot sign',
      );
    const { Transaction } = await loadWeb3();
    const transaction = Transaction.from(bytes);
    const signed = await wallet.signTransaction(transaction);

    let signature: string;
    try {
      signature = await connection.sendRawTransaction(
        signed.serialize(),
        params.sendOptions ?? { preflightCommitment: 'confirmed' },
      );
    } catch (cause) {
      throw new SolanaPaymentError(
        `The payment transaction was not sent: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }

    const deadline = Date.now() + timeoutMs;
    let info: PaymentInfo;
    try {
      info = await submitTransaction(reference, signature);
      while (info.status === 'CONFIRMING' && Date.now() < deadline) {
        await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
        info = await getPaymentInfo(reference);
      }
    } catch (cause) {
      const why = cause instanceof StablepayError ? cause.message : String(cause);
      throw new SolanaPaymentError(
        `The transaction ${signature} was sent, but following the payment failed: ${why}`,
        { signature, cause },
      );
    }
    return { signature, info, timedOut: info.status === 'CONFIRMING' };
  }

  return { getPaymentInfo, requestSolanaTransaction, submitTransaction, payWithSolanaWallet };
}

export type Payer = ReturnType<typeof createPayer>;

/** GET /pay/{reference}/info without keeping a payer around. */
export async function getPaymentInfo(reference: string, options: PayerOptions): Promise<PaymentInfo> {
  return createPayer(options).getPaymentInfo(reference);
}

/** The Solana transaction for `account` to sign (base64) and its message. */
export async function requestSolanaTransaction(
  params: { reference: string; account: AccountLike } & PayerOptions,
): Promise<SolanaTransactionResponse> {
  return createPayer(params).requestSolanaTransaction(params);
}

/** Sign with the wallet, send, report and wait for the verified status (see Payer.payWithSolanaWallet). */
export async function payWithSolanaWallet(
  params: PayWithSolanaWalletParams & PayerOptions,
): Promise<PayWithSolanaWalletResult> {
  return createPayer(params).payWithSolanaWallet(params);
}

export { parsePayUrl, PayUrlError } from './pay-url';
export type {
  EvmTransferRequest,
  ParsePayUrlOptions,
  PayUrl,
  SolanaTransactionRequest,
  SolanaTransferRequest,
} from './pay-url';
export {
  StablepayError,
  StablepayConnectionError,
  ValidationError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  RateLimitError,
  InternalServerError,
  UpstreamUnavailableError,
  SolanaPaymentError,
} from './errors';
export type { ErrorDetail, StablepayErrorCode } from './errors';
export type { FetchLike } from './http';
