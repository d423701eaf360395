/**
 * What the payer's EVM helpers need from an EIP-1193 wallet: its error codes, chain ids and
 * accounts as wallets really answer them, and the shape of the service's EVM transaction.
 */
import { EVM_NETWORKS, TRON_ADDRESS_FORM } from '../../contract/network-table';
import { EvmChainNotAddedError, EvmPaymentError, EvmRequestRejectedError } from './errors';
import type { Eip1193Provider, EvmTransactionResponse } from './payer';

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
export const EVM_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
export const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const CHAIN_NAMES: Record<number, string> = {
  1: 'Ethereum',
  137: 'Polygon',
  11155111: 'Sepolia',
  17000: 'Holesky',
  80002: 'Polygon Amoy',
};
/** EIP-1193 / EIP-3326 provider error codes. */
export const USER_REJECTED = 4001;
export const UNSUPPORTED_METHOD = 4200;
export const METHOD_NOT_FOUND = -32601;
export const UNRECOGNIZED_CHAIN = 4902;

export function chainName(chainId: number): string {
  const name = CHAIN_NAMES[chainId];
  return name ? `${name} (chain id ${chainId})` : `chain id ${chainId}`;
}

/**
 * The numeric code of a provider error. Some wallets wrap the real one (MetaMask Mobile reports a
 * 4902 as -32603 with `data.originalError.code`), so the wrapped code wins when there is one.
 */
export function providerErrorCode(error: unknown): number | undefined {
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

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return String(error);
}

/** A chain id as wallets answer it: "0x89" (EIP-695), sometimes 137 or "137". */
export function parseChainId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return Number.parseInt(value, 16);
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

export function evmAccount(account: unknown, what: string): string {
  if (typeof account === 'string' && EVM_ADDRESS.test(account)) return account;
  // A TronLink account: this helper builds EVM transactions only (a TRON order is paid on its checkout page).
  if (typeof account === 'string' && TRON_ADDRESS_FORM.test(account))
    throw new EvmPaymentError(
      `${what} ${account} is a TRON address: requestEvmTransaction pays orders on EVM networks; pay a TRON order from TronLink on its checkout page or with its payUrl`,
    );
  throw new TypeError(`${what} must be a 0x address, got ${JSON.stringify(account)}`);
}

export function isEvmTransaction(body: unknown): body is EvmTransactionResponse {
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

/** One provider request; a 4001 becomes an EvmRequestRejectedError, anything else an EvmPaymentError. */
export async function ask(
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

export async function walletAccount(provider: Eip1193Provider): Promise<string> {
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

export async function walletChainId(provider: Eip1193Provider, failure: string): Promise<number | undefined> {
  return parseChainId(await ask(provider, 'eth_chainId', undefined, failure));
}

/** Makes `chainId` the wallet's current chain (EIP-3326), unless it already is. */
export async function switchChain(provider: Eip1193Provider, chainId: number): Promise<void> {
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
