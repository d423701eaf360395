/**
 * @stablepay/sdk/payer: what a payment page or a payer's app needs, on the public /pay routes.
 * Browser-safe: no Node imports, no Buffer; @solana/web3.js (an optional peer dependency) is loaded
 * only by payWithSolanaWallet. Polygon/Ethereum payments need no library: payWithEvmWallet talks to
 * the wallet's EIP-1193 provider (window.ethereum) directly. The contract is used for types only, so
 * nothing of it is bundled.
 */
import type { Connection, PublicKey, SendOptions, Transaction } from '@solana/web3.js';
import type { z } from 'zod';
import type { payContract, ZEvmTransaction, ZPaymentInfo, ZSolanaTransaction } from '../../contract';
// The plain table (no zod, no ts-rest): this module stays light enough for a browser.
import { EVM_NETWORKS } from '../../contract/network-table';
import { EvmPaymentError, SolanaPaymentError, StablepayError } from './errors';
import {
  assertJsonObject,
  httpConfig,
  normalizeBaseUrl,
  send,
  type FetchLike,
  type HttpConfig,
} from './http';
import { ask, EVM_TX_HASH, evmAccount, isEvmTransaction, switchChain, walletAccount } from './evm-provider';
import { sleep } from './retry';
import { accountString, base64ToBytes, isVersionedTransaction, loadWeb3 } from './solana-wire';

export type PaymentInfo = z.infer<typeof ZPaymentInfo>;
export type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;
export type EvmTransactionResponse = z.infer<typeof ZEvmTransaction>;

type Pay = typeof payContract;
/** The routes used here; `satisfies` ties each path to the contract's, so a change there fails to compile. */
const PATHS = {
  info: '/pay/:reference/info',
  txRequest: '/pay/tx-request/:reference',
  txRequestPost: '/pay/tx-request/:reference',
  submitTx: '/pay/:reference/submit-tx',
} as const satisfies {
  info: Pay['info']['path'];
  txRequest: Pay['txRequest']['path'];
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

/**
 * An EIP-1193 provider: `window.ethereum` (MetaMask, Coinbase Wallet, Rabby...), a WalletConnect or
 * wagmi connector's provider, viem's `EIP1193Provider`. Only `request` is used.
 */
export type Eip1193Provider = {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
};

/** A payment option of the order (PaymentInfo.paymentOptions): omitted, the order's own network and token. */
export type PayerOption = { network: string; token: string };

const optionQuery = (option: PayerOption | undefined) =>
  option ? `network=${encodeURIComponent(option.network)}&token=${encodeURIComponent(option.token)}` : '';

export type PayWithEvmWalletParams = {
  reference: string;
  /** The payment option to pay with (its network and token); omitted, the order's own. */
  option?: PayerOption;
  /** The wallet's EIP-1193 provider, e.g. `window.ethereum`. */
  provider: Eip1193Provider;
  /** How long to wait for the service to verify the payment (default 120 000 ms; 0: do not wait). */
  timeoutMs?: number;
  /** How often to ask for the status meanwhile (default 1000 ms). */
  pollIntervalMs?: number;
};

export type PayWithEvmWalletResult = {
  /** The payment transaction's hash (it was sent, whatever the status). */
  txId: string;
  /** The order as last seen: PAID when verified; CONFIRMING until enough blocks are on top of it. */
  info: PaymentInfo;
  /** True when timeoutMs passed while the order was still CONFIRMING. */
  timedOut: boolean;
};

function path(template: string, reference: string): string {
  if (typeof reference !== 'string' || reference === '')
    throw new TypeError(`reference must be a non-empty string, got ${JSON.stringify(reference)}`);
  return template.replace(':reference', encodeURIComponent(reference));
}

/** Why following a sent payment failed: the transaction is out, so the payment may still land. */
function followFailure(txId: string, cause: unknown): string {
  const why = cause instanceof StablepayError ? cause.message : String(cause);
  return `The transaction ${txId} was sent, but following the payment failed: ${why}`;
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
    /** The payment option to pay with; omitted, the order's own. */
    option?: PayerOption;
  }): Promise<SolanaTransactionResponse> {
    const query = optionQuery(params.option);
    const url = path(PATHS.txRequestPost, params.reference) + (query ? `?${query}` : '');
    return call<SolanaTransactionResponse>('POST', url, {
      account: accountString(params.account, 'account'),
    });
  }

  /**
   * GET /pay/tx-request/{reference}?account= on a Polygon/Ethereum order: the ERC-20 transfer for
   * `account` (a 0x address) to send, tagged with the order. A 400 ValidationError (details path
   * `query.account`) says when the account holds less than the amount due.
   */
  async function requestEvmTransaction(params: {
    reference: string;
    account: string;
    /** The payment option to pay with; omitted, the order's own. */
    option?: PayerOption;
  }): Promise<EvmTransactionResponse> {
    const account = evmAccount(params.account, 'account');
    const query = optionQuery(params.option);
    const url = `${path(PATHS.txRequest, params.reference)}?account=${encodeURIComponent(account)}${query ? `&${query}` : ''}`;
    const body = await call<unknown>('GET', url);
    if (!isEvmTransaction(body)) {
      const network = (body as { network?: unknown }).network;
      throw new EvmPaymentError(
        typeof network === 'string' && !(EVM_NETWORKS as readonly string[]).includes(network)
          ? `Order ${params.reference} is a ${network} order, not one on an EVM network`
          : `The service returned no usable EVM transaction for order ${params.reference}`,
      );
    }
    return body;
  }

  /**
   * POST /pay/{reference}/submit-tx: report the transaction after sending it (the order becomes
   * CONFIRMING). A transfer that neither names the order (the transaction request's tag) nor pays
   * its exact amount credits it only with `signature`: the sending wallet's signature of
   * `claimProofMessage(reference, txId)` (EVM: personal_sign hex; Solana: signMessage, base58).
   */
  async function submitTransaction(
    reference: string,
    txId: string,
    signature?: string,
    /** The network the transaction is on (a payment option's); omitted, the order's own. */
    network?: string,
  ): Promise<PaymentInfo> {
    return call<PaymentInfo>('POST', path(PATHS.submitTx, reference), {
      txId,
      ...(signature ? { signature } : {}),
      ...(network ? { network } : {}),
    });
  }

  /** Reports a sent transaction, then asks for the status until the order leaves CONFIRMING or time is up. */
  async function followPayment(
    reference: string,
    txId: string,
    network: string | undefined,
    timeoutMs: number,
    pollIntervalMs: number,
  ): Promise<PaymentInfo> {
    const deadline = Date.now() + timeoutMs;
    let info = await submitTransaction(reference, txId, undefined, network);
    while (info.status === 'CONFIRMING' && Date.now() < deadline) {
      await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
      info = await getPaymentInfo(reference);
    }
    return info;
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

    try {
      const info = await followPayment(reference, signature, undefined, timeoutMs, pollIntervalMs);
      return { signature, info, timedOut: info.status === 'CONFIRMING' };
    } catch (cause) {
      throw new SolanaPaymentError(followFailure(signature, cause), { signature, cause });
    }
  }

  /**
   * The whole Polygon/Ethereum payment from a browser wallet (EIP-1193): connect the account, fetch
   * the order's tagged ERC-20 transfer for it, switch the wallet to the order's chain if needed, let
   * the wallet send the transaction, report its hash, then wait until the service has verified it
   * (the order leaves CONFIRMING) or timeoutMs passes. Refusals in the wallet are
   * EvmRequestRejectedErrors, an unknown chain an EvmChainNotAddedError; errors after the
   * transaction was sent are EvmPaymentErrors carrying its `txId`: the payment may still land (the
   * service also finds tagged transfers by itself).
   */
  async function payWithEvmWallet(params: PayWithEvmWalletParams): Promise<PayWithEvmWalletResult> {
    const { reference, provider } = params;
    if (typeof provider?.request !== 'function')
      throw new TypeError('provider must be an EIP-1193 provider (window.ethereum): it has no request()');
    const timeoutMs = params.timeoutMs ?? 120_000;
    const pollIntervalMs = params.pollIntervalMs ?? 1000;

    const from = await walletAccount(provider);
    const tx = await requestEvmTransaction({ reference, account: from, option: params.option });
    await switchChain(provider, tx.chainId);

    const sent = await ask(
      provider,
      'eth_sendTransaction',
      [{ from, to: tx.to, data: tx.data, value: '0x0' }],
      'The payment transaction was not sent',
    );
    if (typeof sent !== 'string' || !EVM_TX_HASH.test(sent))
      throw new EvmPaymentError(
        `The wallet answered eth_sendTransaction with ${JSON.stringify(sent)}, not a transaction hash`,
      );
    const txId = sent;

    try {
      const info = await followPayment(reference, txId, params.option?.network, timeoutMs, pollIntervalMs);
      return { txId, info, timedOut: info.status === 'CONFIRMING' };
    } catch (cause) {
      throw new EvmPaymentError(followFailure(txId, cause), { txId, cause });
    }
  }

  return {
    getPaymentInfo,
    requestSolanaTransaction,
    requestEvmTransaction,
    submitTransaction,
    payWithSolanaWallet,
    payWithEvmWallet,
  };
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

/** The ERC-20 transfer for `account` (0x) to send on a Polygon/Ethereum order, tagged with it. */
export async function requestEvmTransaction(
  params: { reference: string; account: string } & PayerOptions,
): Promise<EvmTransactionResponse> {
  return createPayer(params).requestEvmTransaction(params);
}

/** Connect, switch chain, send from an EIP-1193 wallet, report and wait (see Payer.payWithEvmWallet). */
export async function payWithEvmWallet(
  params: PayWithEvmWalletParams & PayerOptions,
): Promise<PayWithEvmWalletResult> {
  return createPayer(params).payWithEvmWallet(params);
}

// parsePayUrl, PayUrlError and the pay link types: the module exports nothing else.
export * from './pay-url';
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
  EvmPaymentError,
  EvmRequestRejectedError,
  EvmChainNotAddedError,
} from './errors';
export type { ErrorDetail, StablepayErrorCode } from './errors';
export type { FetchLike } from './http';
