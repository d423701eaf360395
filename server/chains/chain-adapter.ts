import type { Network, Token } from '../../contract';

/** What a chain needs to know about an order to build or check a payment. */
export type PaymentTarget = {
  reference: string;
  token: Token;
  tokenMint: string;
  recipient: string;
  amountUnits: bigint;
  label?: string | null;
  message?: string | null;
};

export type SolanaPaymentTransaction = { kind: 'solana'; transaction: string; message: string };
export type EvmPaymentTransaction = {
  kind: 'evm';
  chainId: number;
  to: string;
  data: string;
  value: '0';
  message: string;
};
export type PaymentTransaction = SolanaPaymentTransaction | EvmPaymentTransaction;

/**
 * One network. Solana and the EVM networks implement the same interface; the registry picks by
 * network. Methods that talk to the chain throw ApiError UPSTREAM_UNAVAILABLE when it cannot be reached.
 */
export interface ChainAdapter {
  readonly network: Network;
  /** The mint or contract used for a token, or null when the token is not enabled on this network. */
  tokenMint(token: Token): string | null;
  /** A receiving address in its canonical form (EVM: EIP-55 checksummed), or null when invalid. */
  normalizeAddress(address: string): string | null;
  /** Whether a string has the form of a transaction id on this network (not whether it exists). */
  isWellFormedTxId(txId: string): boolean;
  /** The wallet payment URI that payUrl and the QR code carry. */
  paymentUri(target: PaymentTarget): string;
  /** The transaction the payer signs. `account` is the payer (required on Solana). */
  buildPaymentTransaction(target: PaymentTarget, account: string | undefined): Promise<PaymentTransaction>;
}
