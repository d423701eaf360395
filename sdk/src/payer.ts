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
import { EVM_NETWORKS, TRON_ADDRESS_FORM } from '../../contract/network-table';
import {
  EvmChainNotAddedError,
  EvmPaymentError,
  EvmRequestRejectedError,
  SolanaPaymentError,
  StablepayError,
} from './errors';
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

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const CHAIN_NAMES: Record<number, string> = {
  1: 'Ethereum',
  137: 'Polygon',
  11155111: 'Sepolia',
  17000: 'Holesky',
  80002: 'Polygon Amoy',
};
/** EIP-1193 / EIP-3326 provider error codes. */
const USER_REJECTED = 4001;
const UNSUPPORTED_METHOD = 4200;
const METHOD_NOT_FOUND = -32601;
const UNRECOGNIZED_CHAIN = 4902;

function chainName(chainId: number): string {
  const name = CHAIN_NAMES[chainId];
  return name ? `${name} (chain id ${chainId})` : `chain id ${chainId}`;
}

/**
 * The numeric code of a provider error. Some wallets wrap the real one (MetaMask Mobile reports a
 * 4902 as -32603 with `data.originalError.code`), so the wrapped code wins when there is one.
 */
function providerErrorCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, data, cause } = error as { code?: unknown; data?: unknown; cause?: unknown };
  const original =
    typeof data === 'object' && data !== null
      ? (data as { originalError?: { code?: unknown } }).originalError?.code
      : undefined;
  if (typeof original === 'number') return original;
  if (typeof code === 'number') return code;
  return cause === undefined || cause === error ? undefined : providerErrorCode(cause);
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return String(error);
}

/** A chain id as wallets answer it: "0x89" (EIP-695), sometimes 137 or "137". */
function parseChainId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return Number.parseInt(value, 16);
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

function evmAccount(account: unknown, what: string): string {
  if (typeof account === 'string' && EVM_ADDRESS.test(account)) return account;
  // A TronLink account: this helper builds EVM transactions only (a TRON order is paid on its checkout page).
  if (typeof account === 'string' && TRON_ADDRESS_FORM.test(account))
    throw new EvmPaymentError(
      `${what} ${account} is a TRON address: requestEvmTransaction pays orders on EVM networks; pay a TRON order from TronLink on its checkout page or with its payUrl`,
    );
  throw new TypeError(`${what} must be a 0x address, got ${JSON.stringify(account)}`);
}

function isEvmTransaction(body: unknown): body is EvmTransactionResponse {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    (EVM_NETWORKS as readonly unknown[]).includes(b.network) &&
    typeof b.chainId === 'number' &&
    Number.isSafeInteger(b.chainId) &&
    b.chainId > 0 &&
    typeof b.to === 'string' &&
    EVM_ADDRESS.test(b.to) &&
    typeof b.data === 'string' &&
    HEX_DATA.test(b.data)
  );
}

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

  /** One provider request; a 4001 becomes an EvmRequestRejectedError, anything else an EvmPaymentError. */
  async function ask(
    provider: Eip1193Provider,
    method: string,
    params: readonly unknown[] | undefined,
    failure: string,
  ): Promise<unknown> {
    try {
      return await provider.request(params === undefined ? { method } : { method, params });
    } catch (cause) {
      const code = providerErrorCode(cause);
      if (code === USER_REJECTED)
        throw new EvmRequestRejectedError(method, `${failure}: the request was rejected in the wallet`, {
          cause,
        });
      throw new EvmPaymentError(`${failure}: ${errorMessage(cause)}`, { providerCode: code, cause });
    }
  }

  async function walletAccount(provider: Eip1193Provider): Promise<string> {
    const failure = 'The wallet was not connected';
    let accounts: unknown;
    try {
      accounts = await ask(provider, 'eth_requestAccounts', undefined, failure);
    } catch (error) {
      // A provider without the connect flow (a local or server-side signer) just lists its accounts.
      const code = error instanceof EvmPaymentError ? error.providerCode : undefined;
      if (code !== UNSUPPORTED_METHOD && code !== METHOD_NOT_FOUND) throw error;
      accounts = await ask(provider, 'eth_accounts', undefined, failure);
    }
    const first: unknown = Array.isArray(accounts) ? accounts[0] : undefined;
    if (typeof first !== 'string' || !EVM_ADDRESS.test(first))
      throw new EvmPaymentError('The wallet has no account to pay from: unlock or connect it first');
    return first;
  }

  async function walletChainId(provider: Eip1193Provider, failure: string): Promise<number | undefined> {
    return parseChainId(await ask(provider, 'eth_chainId', undefined, failure));
  }

  /** Makes `chainId` the wallet's current chain (EIP-3326), unless it already is. */
  async function switchChain(provider: Eip1193Provider, chainId: number): Promise<void> {
    const failure = `The wallet could not switch to ${chainName(chainId)}`;
    if ((await walletChainId(provider, failure)) === chainId) return;
    const params = [{ chainId: `0x${chainId.toString(16)}` }];
    try {
      await ask(provider, 'wallet_switchEthereumChain', params, failure);
    } catch (error) {
      if (error instanceof EvmPaymentError && error.providerCode === UNRECOGNIZED_CHAIN)
        throw new EvmChainNotAddedError(
          chainId,
          `The wallet does not know ${chainName(chainId)}: add that network to the wallet, then pay again`,
          { cause: error.cause },
        );
      throw error;
    }
    // Some wallets answer before switching, or not at all: never send on another chain.
    const now = await walletChainId(provider, failure);
    if (now !== chainId)
      throw new EvmPaymentError(
        `${failure}: it is still on ${now === undefined ? 'an unknown chain' : chainName(now)}`,
      );
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

    const deadline = Date.now() + timeoutMs;
    let info: PaymentInfo;
    try {
      info = await submitTransaction(reference, txId, undefined, params.option?.network);
      while (info.status === 'CONFIRMING' && Date.now() < deadline) {
        await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())));
        info = await getPaymentInfo(reference);
      }
    } catch (cause) {
      const why = cause instanceof StablepayError ? cause.message : String(cause);
      const message = `The transaction ${txId} was sent, but following the payment failed: ${why}`;
      throw new EvmPaymentError(message, { txId, cause });
    }
    return { txId, info, timedOut: info.status === 'CONFIRMING' };
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
