/**
 * Parsing of the payment URIs the service hands out as `payUrl`/`qrData`/`txRequestUrl`.
 * Browser-safe: no Node imports. Amounts stay decimal strings, never numbers.
 */
import { formatUnits, MAX_DECIMALS, plainDecimal } from '../../contract/decimal';
import {
  EVM_NETWORK_TABLE,
  EVM_NETWORKS,
  TRON_ADDRESS_FORM,
  type EvmNetwork,
} from '../../contract/network-table';
import { StablepayError } from './errors';

/** Solana Pay transfer request: `solana:<recipient>?amount=&spl-token=&reference=&label=&message=&memo=`. */
export type SolanaTransferRequest = {
  kind: 'solana-transfer';
  network: 'SOLANA';
  recipient: string;
  /** Decimal string in token units ("10.5"), null when the URI lets the payer choose. */
  amount: string | null;
  /** The token's mint; null for native SOL. */
  splToken: string | null;
  /** The order reference(s), in order. */
  references: string[];
  label: string | null;
  message: string | null;
  memo: string | null;
};

/** Solana Pay transaction request: `solana:<https link>`; the wallet fetches the transaction there. */
export type SolanaTransactionRequest = {
  kind: 'solana-transaction-request';
  network: 'SOLANA';
  link: string;
};

/** EIP-681 ERC-20 transfer: `ethereum:<token contract>@<chainId>/transfer?address=<to>&uint256=<units>`. */
export type EvmTransferRequest = {
  kind: 'evm-transfer';
  /** POLYGON or ETHEREUM for their mainnets and usual testnets; null for other chain ids. */
  network: EvmNetwork | null;
  /** null when the URI names no chain (the wallet's current one). */
  chainId: number | null;
  /** The token contract. */
  contract: string;
  recipient: string;
  /** Integer base units, as in the URI (scientific notation expanded). */
  amountUnits: string;
  /** amountUnits / 10^decimals as a decimal string. */
  amount: string;
};

/**
 * TRON: `tron:<recipient>?amount=<decimal>` (payUrl), or the bare recipient (qrData, the one
 * content every TRON wallet scans): the wallet sends USDT (TRC-20) to it.
 */
export type TronTransferRequest = {
  kind: 'tron-transfer';
  network: 'TRON';
  /** A base58 T… address (its checksum is the service's to check: this parser is synchronous). */
  recipient: string;
  /** Decimal string in token units, null for a bare address (the order's page says the amount). */
  amount: string | null;
};

export type PayUrl =
  SolanaTransferRequest | SolanaTransactionRequest | EvmTransferRequest | TronTransferRequest;

export type ParsePayUrlOptions = {
  /**
   * Decimals of the EVM token, to turn uint256 units into `amount`: pass the order's `decimals`
   * (18 for BSC's USDT and USDC). Default 6, the decimals of USDT and USDC elsewhere.
   */
  evmDecimals?: number;
};

const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_NUMBER = /^(\d+)(?:\.(\d+))?(?:[eE]\+?(\d+))?$/;
const UINT256_MAX = (1n << 256n) - 1n;

/** Chain ids of the known EVM networks: their mainnets (contract/network-table.ts) and common testnets. */
const CHAIN_NETWORKS: Record<number, EvmNetwork> = {
  ...Object.fromEntries(EVM_NETWORKS.map((network) => [EVM_NETWORK_TABLE[network].chainId, network])),
  11155111: 'ETHEREUM', // Sepolia
  17000: 'ETHEREUM', // Holesky
  80002: 'POLYGON', // Amoy
  84532: 'BASE', // Base Sepolia
  97: 'BSC', // BSC testnet
};

/** A payment URI that cannot be parsed. */
export class PayUrlError extends StablepayError {
  static override readonly kind = 'PayUrlError';
  declare readonly code: 'INVALID_PAY_URL';
  constructor(message: string) {
    super({ message, code: 'INVALID_PAY_URL' });
  }
}

function fail(payUrl: string, why: string): never {
  throw new PayUrlError(`Not a valid payment URI (${why}): ${JSON.stringify(payUrl.slice(0, 300))}`);
}

function decode(payUrl: string, value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return fail(payUrl, `bad percent-encoding in "${value}"`);
  }
}

/** `a=1&b=2&b=3` → entries, percent-decoded; empty keys are skipped. */
function queryEntries(payUrl: string, query: string): [string, string][] {
  if (query === '') return [];
  return query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decode(payUrl, eq < 0 ? pair : pair.slice(0, eq));
      const value = decode(payUrl, eq < 0 ? '' : pair.slice(eq + 1));
      return [key, value] as [string, string];
    });
}

function single(payUrl: string, entries: [string, string][], key: string): string | null {
  const values = entries.filter(([k]) => k === key).map(([, v]) => v);
  if (values.length > 1) fail(payUrl, `"${key}" appears more than once`);
  return values[0] ?? null;
}

/** A Solana Pay amount without its trailing zeros ("10.500000" -> "10.5"). */
function solanaAmount(payUrl: string, amount: string): string {
  try {
    return plainDecimal(amount);
  } catch {
    return fail(
      payUrl,
      `amount must be a non-negative decimal without exponent, at most ${MAX_DECIMALS} places`,
    );
  }
}

function parseSolana(payUrl: string, rest: string): SolanaTransferRequest | SolanaTransactionRequest {
  if (/^https?(:|%3A)/i.test(rest)) {
    const link = /^https?%3A/i.test(rest) ? decode(payUrl, rest) : rest;
    try {
      const url = new URL(link);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(payUrl, 'link is not http(s)');
    } catch (error) {
      if (error instanceof PayUrlError) throw error;
      fail(payUrl, 'the transaction request link is not a URL');
    }
    return { kind: 'solana-transaction-request', network: 'SOLANA', link };
  }
  const q = rest.indexOf('?');
  const recipient = q < 0 ? rest : rest.slice(0, q);
  if (!BASE58_KEY.test(recipient)) fail(payUrl, 'the recipient is not a base58 public key');
  const entries = queryEntries(payUrl, q < 0 ? '' : rest.slice(q + 1));
  const rawAmount = single(payUrl, entries, 'amount');
  const amount = rawAmount === null ? null : solanaAmount(payUrl, rawAmount);
  const splToken = single(payUrl, entries, 'spl-token');
  if (splToken !== null && !BASE58_KEY.test(splToken)) fail(payUrl, 'spl-token is not a base58 public key');
  const references = entries.filter(([k]) => k === 'reference').map(([, v]) => v);
  for (const reference of references)
    if (!BASE58_KEY.test(reference)) fail(payUrl, 'a reference is not a base58 public key');
  return {
    kind: 'solana-transfer',
    network: 'SOLANA',
    recipient,
    amount,
    splToken,
    references,
    label: single(payUrl, entries, 'label'),
    message: single(payUrl, entries, 'message'),
    memo: single(payUrl, entries, 'memo'),
  };
}

function parseTron(payUrl: string, rest: string): TronTransferRequest {
  const q = rest.indexOf('?');
  const recipient = q < 0 ? rest : rest.slice(0, q);
  if (!TRON_ADDRESS_FORM.test(recipient)) fail(payUrl, 'the recipient is not a base58 T… address');
  const rawAmount = single(payUrl, queryEntries(payUrl, q < 0 ? '' : rest.slice(q + 1)), 'amount');
  // TRON's amounts are plain decimals, as Solana Pay's are.
  const amount = rawAmount === null ? null : solanaAmount(payUrl, rawAmount);
  return { kind: 'tron-transfer', network: 'TRON', recipient, amount };
}

/** "2.014e18" or "2014000" → integer digits; null when it is not a whole number. */
function expandInteger(value: string): string | null {
  const match = EVM_NUMBER.exec(value);
  if (!match) return null;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const exp = Number(exponent);
  if (exp > 80) return null;
  if (fraction.length > exp && /[1-9]/.test(fraction.slice(exp))) return null;
  const digits = (whole + fraction.slice(0, exp).padEnd(exp, '0')).replace(/^0+(?=\d)/, '');
  return digits;
}

function parseEvm(payUrl: string, rest: string, decimals: number): EvmTransferRequest {
  const match =
    /^(?:pay-)?(0x[0-9a-fA-F]{40})(?:@(\d{1,12}))?(?:\/([A-Za-z_][A-Za-z0-9_]*))?(?:\?(.*))?$/.exec(rest);
  if (!match) fail(payUrl, 'expected ethereum:<contract>@<chainId>/transfer?address=<to>&uint256=<units>');
  const [, contract = '', chain, fn, query = ''] = match;
  if (fn !== 'transfer') fail(payUrl, 'only ERC-20 transfer requests (/transfer) are supported');
  const entries = queryEntries(payUrl, query);
  const recipient = single(payUrl, entries, 'address');
  if (recipient === null || !EVM_ADDRESS.test(recipient)) fail(payUrl, 'address must be a 0x address');
  const rawUnits = single(payUrl, entries, 'uint256');
  if (rawUnits === null) fail(payUrl, 'uint256 (the amount in base units) is missing');
  const amountUnits = expandInteger(rawUnits);
  if (amountUnits === null) fail(payUrl, 'uint256 must be a whole number of base units');
  if (amountUnits.length > 78 || BigInt(amountUnits) > UINT256_MAX) fail(payUrl, 'uint256 is out of range');
  const chainId = chain === undefined ? null : Number(chain);
  if (chainId === 0) fail(payUrl, 'the chain id must be a positive integer');
  return {
    kind: 'evm-transfer',
    network: chainId === null ? null : (CHAIN_NETWORKS[chainId] ?? null),
    chainId,
    contract,
    recipient,
    amountUnits,
    amount: formatUnits(BigInt(amountUnits), decimals, 0),
  };
}

/**
 * Parses a `payUrl` (or `qrData`, `txRequestUrl`): a Solana Pay transfer or transaction request, an
 * EIP-681 ERC-20 transfer, or a TRON transfer (`tron:` URI or TRON's bare-address QR code). Throws
 * PayUrlError on anything malformed.
 */
export function parsePayUrl(payUrl: string, options: ParsePayUrlOptions = {}): PayUrl {
  if (typeof payUrl !== 'string') throw new PayUrlError('payUrl must be a string');
  const decimals = options.evmDecimals ?? 6;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS)
    throw new PayUrlError(`evmDecimals must be an integer from 0 to ${MAX_DECIMALS}`);
  const trimmed = payUrl.trim();
  const colon = trimmed.indexOf(':');
  const scheme = colon < 0 ? '' : trimmed.slice(0, colon).toLowerCase();
  const rest = trimmed.slice(colon + 1);
  if (scheme === 'solana') return parseSolana(trimmed, rest);
  if (scheme === 'ethereum') return parseEvm(trimmed, rest, decimals);
  if (scheme === 'tron') return parseTron(trimmed, rest);
  if (colon < 0 && TRON_ADDRESS_FORM.test(trimmed)) return parseTron(trimmed, trimmed);
  return fail(trimmed, 'the scheme must be solana:, ethereum: or tron:');
}
