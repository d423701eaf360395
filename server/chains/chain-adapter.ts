import type { Network, Token } from '../../contract';
import type { ConfiguredToken } from './token-book';

/** What a chain needs to know about an order to build or check a payment. */
export type PaymentTarget = {
  reference: string;
  token: Token;
  tokenMint: string;
  /** The token's decimals when the order was made: `amountUnits` is in these base units. */
  decimals: number;
  recipient: string;
  amountUnits: bigint;
  label?: string | null;
  message?: string | null;
};

/**
 * What a chain needs to build, link and find a refund: tokens sent back from an order's receiving
 * wallet (which signs and pays the fee) to the refund address, named on chain by the refund's tag.
 */
export type RefundTarget = {
  id: string;
  tag: string;
  token: Token;
  tokenMint: string;
  /** The order's token decimals. */
  decimals: number;
  from: string;
  to: string;
  amountUnits: bigint;
};

/**
 * The transaction a payer signs. `body` holds the network's own fields of the transaction-request
 * response: Solana `{transaction}` (base64), EVM `{chainId, to, data, value}`.
 */
export type PaymentTransaction = { message: string; body: Record<string, unknown> };

/** An unsigned payout transaction: the targets it pays (their ids), its body, its fee. */
export type PayoutTransactionDraft = {
  ids: string[];
  /** `approve`: the allowance the batch call after it spends (it pays nothing itself); else it pays `ids`. */
  purpose?: 'approve' | 'pay';
  /** Solana: base64 text; EVM: `{chainId, to, data, value}`. */
  transaction: string | { chainId: number; to: string; data: string; value: '0' };
  feeUnits: bigint;
  /** Decimals of the native unit the fee is in (SOL 9, ETH-like 18). */
  feeDecimals: number;
};

/** One movement of tokens inside a transaction, as the chain recorded it. */
export type Transfer = {
  /** The sending wallet (Solana: the owner of the debited token account), null when unknown. */
  from: string | null;
  /** The receiving wallet (Solana: the owner of the credited token account). */
  to: string;
  /** Mint (Solana) or token contract (EVM). */
  token: string;
  amountUnits: bigint;
  /** Where it sits in the transaction (EVM: log index; Solana: account index), for ordering. */
  position: number;
};

/**
 * A transaction as read from the chain at the service's finality, never as a payer claims it.
 * `not_final`: it exists but is not final yet (too few confirmations, or only at a weaker commitment).
 */
export type ObservedTransaction =
  | { txId: string; state: 'not_found' }
  | { txId: string; state: 'not_final' }
  | {
      txId: string;
      state: 'failed' | 'final';
      blockTime: Date | null;
      /**
       * Order references the transaction names (Solana: every account key, where a Solana Pay
       * reference shows up; EVM: the tag after the ERC-20 transfer arguments).
       */
      tags: string[];
      transfers: Transfer[];
      /** EVM: a call of a payout batch contract's pay() (any contract: the verifier checks which). */
      batchCall?: BatchCall;
    };

/** A pay() call of a payout batch contract as read on chain: the tags it named, the Paid events it emitted. */
export type BatchCall = {
  /** The called contract (whose Paid events these are). */
  contract: string;
  /** The item tags the call named (base58, as items keep them), paid or not. */
  tags: string[];
  paid: { tag: string; token: string; to: string; amountUnits: bigint; position: number }[];
};

/** A contract deployment as read on chain at the service's finality. */
export type ObservedDeployment =
  | { state: 'not_found' | 'not_final' }
  | { state: 'failed' | 'final'; from: string; contractAddress: string | null; code: string };

/** A set of watched recipients of one token that share one scan cursor. */
export type ScanTarget = {
  /** The cursor's key (Solana: the recipient's token account; EVM: the token contract). */
  key: string;
  token: string;
  recipients: string[];
  /** Only transfers sent by these wallets (refunds: the receiving wallet); absent: any sender. */
  senders?: string[];
};

/** A transaction found paying a watched recipient, and the cursor to keep if it cannot be settled yet. */
export type FoundTransfer = { txId: string; recipient: string; resumeBefore: string | null };

/** What is new on a scan target, oldest first, and the cursor to resume from after all of it. */
export type ScanPage = { found: FoundTransfer[]; cursor: string | null };

export type ScanOptions = {
  /** Without a cursor: how far back to look (the oldest watched order, less a margin). */
  since: Date;
  /** At most this many transactions per call; a larger backlog continues next cycle, in order. */
  limit: number;
  onGap?: (message: string) => void;
};

/** How a network is shown to payers (the checkout page). */
export type ChainPresentation = {
  /** The network in words, as payers know it. */
  name: string;
  /** Its family, as GET /networks says it. */
  kind: 'solana' | 'evm' | 'tron';
  /** Which browser wallets pay on it (TRON: TronLink's TIP-1193 provider). */
  walletProtocol: 'wallet-standard' | 'eip-1193' | 'tip-1193';
  /** What the token's address is called there. */
  tokenKind: 'mint' | 'contract';
  /** EVM chain id (a wallet is switched to it), TRON's (0x2b6653dc on mainnet); null on Solana. */
  chainId: number | null;
  /** Wallet Standard chain (`solana:mainnet`...), TRON's (`tron:0x2b6653dc`); null on EVM. */
  walletChain: string | null;
  /** `txUrl` holds `{tx}`; null when no public explorer knows the chain (a local one). */
  explorer: { name: string; txUrl: string } | null;
};

/**
 * Push notice of activity on a network, so the scanner reads what changed instead of polling
 * every watched address (Solana: account notifications over one websocket; EVM: each new block).
 * One per process and network, opened by the scan job; it never calls the database.
 */
export interface ChainWatch {
  /**
   * The scan targets to be told about (their keys): new ones are subscribed, the rest dropped.
   * A watch that follows no single targets (EVM: every new block concerns them all) ignores it.
   */
  follow(keys: readonly string[]): void;
  /**
   * What happened since the last call: the targets with activity, and `all` when a notification
   * may have been missed (not yet connected, or reconnected after a drop) or the watch is not
   * per target: then every target is read, from its cursor, so nothing is skipped.
   */
  drain(): { keys: Set<string>; all: boolean };
  /** Whether notice flows now; while not, the network is read in full at the polling pace. */
  readonly connected: boolean;
  /** Activity drained but not read (another worker held the target): reported again next drain. */
  remind(keys: readonly string[]): void;
  /** Closes the connection and its timers. */
  close(): void;
}

/**
 * One network. Solana and each EVM network implement the same interface; the registry picks by
 * network, and nothing outside server/chains/ asks which network it is. Methods that talk to the
 * chain throw ChainUnavailableError when it cannot be reached.
 */
export interface ChainAdapter {
  readonly network: Network;
  /** How the network is shown to payers. */
  readonly presentation: ChainPresentation;
  /** How many blocks (EVM) or which commitment (Solana) makes a transaction final here. */
  readonly finality: { confirmations: number } | { commitment: 'confirmed' | 'finalized' };
  /** The mint or contract used for a token, or null when the token is not on (or refused) here. */
  tokenMint(token: Token): string | null;
  /** The decimals of a token's base units on this network (from configuration, checked on chain). */
  tokenDecimals(token: Token): number;
  /** Why `tokenMint(token)` is null, for the merchant. */
  tokenUnavailableReason(token: Token): string;
  /** The tokens that are on and not refused. */
  tokens(): ConfiguredToken[];
  /**
   * Checks the configured decimals against the chain (once per token; again after an RPC failure).
   * A mismatch refuses the token: `tokenMint` answers null with the reason.
   */
  verifyTokens(): Promise<void>;
  /** A receiving address in its canonical form (EVM: EIP-55 checksummed), or null when invalid. */
  normalizeAddress(address: string): string | null;
  /** What a valid address looks like, for error messages. */
  readonly addressFormat: string;
  /** A transaction id in its canonical form (EVM: lower-case hash), or null when malformed. */
  normalizeTxId(txId: string): string | null;
  /** What a valid transaction id looks like, for error messages. */
  readonly txIdFormat: string;
  /** A message signature in its canonical form, or null when malformed (EVM: 65-byte hex; Solana: 64-byte base58). */
  normalizeSignature(signature: string): string | null;
  /** What a valid message signature looks like, for error messages. */
  readonly signatureFormat: string;
  /**
   * Whether the wallet `address` signed the UTF-8 `message` (EVM: EIP-191 `personal_sign`; Solana:
   * ed25519 over the message bytes). Pure: no RPC call.
   */
  verifyMessage(message: string, signature: string, address: string): Promise<boolean>;
  /** The wallet payment URI that payUrl carries. */
  paymentUri(target: PaymentTarget): string;
  /** What the QR code carries: the payment URI, or (TRON) the bare address every wallet scans. */
  paymentQrData(target: PaymentTarget): string;
  /**
   * The Solana Pay transaction-request link, or null on networks without that protocol. `query`
   * (`?network=…&token=…`, or empty) picks one of the order's payment options.
   */
  transactionRequestUri(baseUrl: string, reference: string, query?: string): string | null;
  /** Whether building the payer's transaction needs the payer's account. */
  readonly needsPayerAccount: boolean;
  /** The transaction the payer signs, tagged with the order. Throws PayerAccountError for a payer that cannot pay. */
  buildPaymentTransaction(target: PaymentTarget, account: string | undefined): Promise<PaymentTransaction>;
  /** Reads one transaction at the configured finality. */
  readTransaction(txId: string): Promise<ObservedTransaction>;
  /** Groups watched (recipient, token) pairs into scan targets, each with a cursor of its own. */
  scanTargets(watched: { recipient: string; token: string }[]): ScanTarget[];
  /**
   * Final transactions paying the target's recipients after `cursor`, oldest first. Costs a
   * bounded number of calls per target, whatever the number of orders.
   */
  scan(target: ScanTarget, cursor: string | null, opts: ScanOptions): Promise<ScanPage>;

  /**
   * The link the merchant's own wallet opens to send a refund: a Solana Pay transaction request
   * (`solana:<base>/pay/refunds/<id>/tx-request`), or an EIP-681 transfer.
   */
  refundUri(baseUrl: string, target: RefundTarget): string;
  /** What the refund's QR code carries: the refund link, or (TRON) the bare refund address. */
  refundQrData(baseUrl: string, target: RefundTarget): string;
  /** Whether the refund link is a transaction request the service answers (Solana Pay). */
  readonly refundTransactionRequests: boolean;
  /**
   * The unsigned refund, tagged with the refund, sent by `target.from` (its fee payer). Throws
   * PayerAccountError when that wallet cannot sign a transaction itself.
   */
  buildRefundTransaction(target: RefundTarget): Promise<PaymentTransaction>;
  /**
   * Where `scan` finds the transactions that may be this refund, tagged or not (Solana: the refund
   * address's token account; EVM: the token's from -> to logs).
   */
  refundScanTarget(target: RefundTarget): ScanTarget;
  /**
   * Payouts: the unsigned transactions that send `targets` (each tagged like a refund) from one
   * wallet, their fee payer, as few as the network allows (Solana: several transfers each, creating
   * a recipient's missing token account; EVM: one transfer each), with the fee each costs in the
   * network's native base units. Absent: the network takes no payouts yet.
   */
  buildPayoutTransactions?(from: string, targets: RefundTarget[]): Promise<PayoutTransactionDraft[]>;
  /**
   * EVM payouts through the merchant's verified batch contract at `contract`: for each token an
   * ERC-20 approve of the contract for the total, then one pay() for all its targets.
   */
  buildBatchPayoutTransactions?(
    from: string,
    contract: string,
    targets: RefundTarget[],
  ): Promise<PayoutTransactionDraft[]>;
  /** EVM: the unsigned deployment of the payout batch contract from `from`, with its fee. */
  buildBatchContractDeployment?(from: string): Promise<{
    transaction: { chainId: number; data: string; value: '0' };
    feeUnits: bigint;
    feeDecimals: number;
  }>;
  /** EVM: a deployment transaction, its sender, the address it made and the code there now. */
  readDeployment?(txId: string): Promise<ObservedDeployment>;
  /**
   * Starts push notice of activity; `onActivity` asks for a scan now (it is called often and
   * cheaply). Absent: the network is only polled on the scan job's schedule.
   */
  openWatch?(onActivity: () => void): ChainWatch;
}
