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

/** Tokens credited to one owner by a transaction (positive balance changes only). */
export type Credit = { owner: string; mint: string; amountUnits: bigint };

/**
 * A transaction as read from the chain at the service's finality, never as a payer claims it.
 * `not_final`: it exists at a weaker commitment but is not final yet.
 */
export type ObservedTransaction =
  | { txId: string; state: 'not_found' }
  | { txId: string; state: 'not_final' }
  | {
      txId: string;
      state: 'failed' | 'final';
      blockTime: Date | null;
      /** Every account the transaction names (Solana: where a reference key shows up). */
      accountKeys: string[];
      credits: Credit[];
    };

/** New transactions touching a watched address, oldest first, and the cursor to resume from. */
export type ScanPage = { txIds: string[]; cursor: string | null };

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
  /** Whether this adapter can read and scan payments yet (claims wait otherwise). */
  readonly verifiesPayments: boolean;
  /** Reads one transaction at the configured finality. */
  readTransaction(txId: string): Promise<ObservedTransaction>;
  /** The address whose history shows payments of `mint` to `recipient` (Solana: its token account). */
  watchAddress(recipient: string, mint: string): string;
  /**
   * Final transactions touching `address` after `cursor` (null: looking back at most to `since`),
   * oldest first, at most `limit`; the returned cursor resumes after the last one handed out.
   * Costs a bounded number of calls per address, whatever the number of orders.
   */
  listTransactions(
    address: string,
    cursor: string | null,
    opts: { since: Date; limit: number; onGap?: (message: string) => void },
  ): Promise<ScanPage>;
}
