import {
  ACCOUNT_SIZE,
  AccountLayout,
  MINT_SIZE,
  MintLayout,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import { formatUnits } from '../../../contract/decimal';
import { normalizeSolanaSignature, verifySolanaMessage } from './verify-message';
import { createTokenBook, tokenMembers, type ConfiguredToken } from '../token-book';
import type { ChainAdapter, PaymentTarget, PaymentTransaction, RefundTarget } from '../chain-adapter';
import { PayerAccountError } from '../chain-errors';
import { solanaPresentation } from './presentation';
import type { RpcEndpointPool } from '../rpc-endpoints';
import { decodeBase58 } from '../../lib/base58';
import { buildTransferTransaction, merchantTokenAccount } from './payment-transaction';
import { listSolanaTransactions } from './list-transactions';
import { buildSolanaPayoutTransactions } from './payout-transactions';
import { readSolanaTransaction } from './read-transaction';
import { createSolanaConnection, medianNonZeroFee, solanaRpc } from './rpc';
import { openSolanaAccountWatch, type AccountWatchOptions } from './account-watch';

/** Label and message are display-only: clipped so the URI always fits in a QR code. */
const MAX_LABEL_CHARS = 64;
const MAX_MESSAGE_CHARS = 120;
const clip = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

export type SolanaAdapterOptions = {
  rpc: RpcEndpointPool;
  commitment: 'confirmed' | 'finalized';
  /** USDT (always), USDC when its mint is configured. */
  tokens: ConfiguredToken[];
  onTokenRefused?: (message: string) => void;
  /** PubSub endpoints for account notifications; none: watched accounts are polled. */
  wsUrls?: string[];
  log?: AccountWatchOptions['log'];
};

/** Longest base58 text of a 64-byte signature; bounds the bigint work on hostile input. */
const MAX_SIGNATURE_CHARS = 88;

/** The canonical base58 form of a 32-byte key, or null. The all-zero key (System Program) is refused. */
function parsePublicKey(value: string): PublicKey | null {
  if (value.length === 0 || value.length > 44) return null;
  try {
    const key = new PublicKey(value);
    // Only the exact round trip counts, so no looser input form (e.g. other lengths) slips through.
    return key.toBase58() === value && !key.equals(PublicKey.default) ? key : null;
  } catch {
    return null;
  }
}

function requiredMint(name: string, value: string): string {
  if (!parsePublicKey(value)) throw new Error(`${name} is not a Solana public key: "${value}"`);
  return value;
}

/** Token accounts remembered; past this many the memory starts again (scans run every second). */
const MAX_REMEMBERED_TOKEN_ACCOUNTS = 100_000;

export function createSolanaAdapter(opts: SolanaAdapterOptions): ChainAdapter {
  // Deriving a token account is a search for an off-curve point (about 0.15 ms): a cycle over
  // 1,000 watched wallets each second would spend 15% of the process on it.
  const tokenAccounts = new Map<string, string>();
  const tokenAccountOf = (mint: string, owner: string) => {
    const key = `${mint}|${owner}`;
    let account = tokenAccounts.get(key);
    if (account === undefined) {
      if (tokenAccounts.size >= MAX_REMEMBERED_TOKEN_ACCOUNTS) tokenAccounts.clear();
      account = merchantTokenAccount(new PublicKey(mint), new PublicKey(owner)).toBase58();
      tokenAccounts.set(key, account);
    }
    return account;
  };
  for (const t of opts.tokens) requiredMint(`${t.token} mint`, t.contract);
  const connection = createSolanaConnection(opts.rpc, opts.commitment);
  const book = createTokenBook({
    network: 'SOLANA',
    tokens: opts.tokens,
    offReason: (token) =>
      token === 'USDC'
        ? 'USDC is not enabled on this server (USDC_MINT_SOLANA is not set)'
        : `${token} is not available on SOLANA`,
    readDecimals: async (mint) => {
      const info = await solanaRpc('getAccountInfo', () =>
        connection.getAccountInfo(new PublicKey(mint), 'confirmed'),
      );
      if (!info || !info.owner.equals(TOKEN_PROGRAM_ID) || info.data.length < MINT_SIZE)
        throw new Error(`${mint} is not a token mint`);
      return MintLayout.decode(info.data).decimals;
    },
    onRefused: opts.onTokenRefused,
  });

  function payerKey(account: string | undefined): PublicKey {
    if (!account) throw new PayerAccountError('is required on Solana');
    const payer = parsePublicKey(account);
    if (!payer) throw new PayerAccountError('must be a Solana public key');
    // An off-curve address has no private key, so it could never sign as fee payer.
    if (!PublicKey.isOnCurve(payer.toBytes()))
      throw new PayerAccountError('must be a wallet address (on-curve public key)');
    return payer;
  }

  /** The payer's balance in its associated token account, or null when it has none. */
  async function payerTokenBalance(payer: PublicKey, mint: PublicKey): Promise<bigint | null> {
    const info = await solanaRpc('getAccountInfo', () =>
      connection.getAccountInfo(getAssociatedTokenAddressSync(mint, payer, true), 'confirmed'),
    );
    if (!info || !info.owner.equals(TOKEN_PROGRAM_ID) || info.data.length < ACCOUNT_SIZE) return null;
    return AccountLayout.decode(info.data).amount;
  }

  async function priorityFee(merchantAta: PublicKey): Promise<number> {
    try {
      const fees = await connection.getRecentPrioritizationFees({ lockedWritableAccounts: [merchantAta] });
      return medianNonZeroFee(fees);
    } catch {
      // Optional: some RPC providers do not serve this method; the transfer still works without a fee.
      return 0;
    }
  }

  /** A Solana Pay transfer request: the reference key rides along, so a transfer from it is tagged. */
  function paymentUri(target: PaymentTarget): string {
    const params = [
      `amount=${formatUnits(target.amountUnits, target.decimals, 0)}`,
      `spl-token=${target.tokenMint}`,
      `reference=${target.reference}`,
    ];
    if (target.label) params.push(`label=${encodeURIComponent(clip(target.label, MAX_LABEL_CHARS))}`);
    if (target.message) params.push(`message=${encodeURIComponent(clip(target.message, MAX_MESSAGE_CHARS))}`);
    return `solana:${target.recipient}?${params.join('&')}`;
  }
  /** The merchant's wallet asks the service for the refund transaction (Solana Pay transaction request). */
  const refundUri = (baseUrl: string, target: RefundTarget) =>
    `solana:${baseUrl}/pay/refunds/${target.id}/tx-request`;

  return {
    network: 'SOLANA',
    presentation: solanaPresentation(opts.rpc.urls),
    finality: { commitment: opts.commitment },

    ...tokenMembers(book),

    normalizeAddress: (address) => (parsePublicKey(address) ? address : null),
    addressFormat: 'must be a Solana public key (base58, 32 bytes)',

    normalizeTxId: (txId) =>
      txId.length <= MAX_SIGNATURE_CHARS && decodeBase58(txId)?.length === 64 ? txId : null,
    txIdFormat: 'must be a base58 transaction signature (64 bytes)',

    normalizeSignature: normalizeSolanaSignature,
    signatureFormat: 'must be a base58 ed25519 signature (64 bytes) of the message by the sending wallet',
    verifyMessage: async (message, signature, address) => verifySolanaMessage(message, signature, address),

    // Solana Pay: a link with a query is URL-encoded whole, so the wallet does not read it as its own.
    transactionRequestUri: (baseUrl, reference, query = '') =>
      query
        ? `solana:${encodeURIComponent(`${baseUrl}/pay/tx-request/${reference}${query}`)}`
        : `solana:${baseUrl}/pay/tx-request/${reference}`,
    needsPayerAccount: true,

    paymentUri,
    paymentQrData: paymentUri,

    async buildPaymentTransaction(target, account): Promise<PaymentTransaction> {
      const payer = payerKey(account);
      const recipient = new PublicKey(target.recipient);
      const mint = new PublicKey(target.tokenMint);
      const [microLamportsPerCu, latest, payerBalance] = await Promise.all([
        priorityFee(merchantTokenAccount(mint, recipient)),
        solanaRpc('getLatestBlockhash', () => connection.getLatestBlockhash('confirmed')),
        payerTokenBalance(payer, mint),
      ]);
      // A transaction that can only fail on chain helps nobody: say why now.
      const needed = formatUnits(target.amountUnits, target.decimals, 0);
      if (payerBalance === null)
        throw new PayerAccountError(
          `has no ${target.token} token account: fund it with ${needed} ${target.token} first`,
        );
      if (payerBalance < target.amountUnits)
        throw new PayerAccountError(
          `holds ${formatUnits(payerBalance, target.decimals, 0)} ${target.token}, less than the ${needed} ${target.token} due`,
        );
      const transaction = buildTransferTransaction({
        payer,
        recipient,
        mint,
        reference: new PublicKey(target.reference),
        amountUnits: target.amountUnits,
        decimals: target.decimals,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        microLamportsPerCu,
      });
      const amount = formatUnits(target.amountUnits, target.decimals, 0);
      return {
        body: {
          transaction: transaction
            .serialize({ requireAllSignatures: false, verifySignatures: false })
            .toString('base64'),
        },
        message: target.message || `Pay ${amount} ${target.token}`,
      };
    },

    readTransaction: (txId) => readSolanaTransaction(connection, opts.commitment, txId),

    // Payments land in the recipient's token account: each one is scanned by its own signatures.
    scanTargets: (watched) =>
      watched.map((w) => ({
        key: tokenAccountOf(w.token, w.recipient),
        token: w.token,
        recipients: [w.recipient],
      })),

    scan: (target, cursor, scan) =>
      listSolanaTransactions(connection, opts.commitment, target.key, target.recipients[0]!, cursor, scan),

    refundUri,
    refundQrData: refundUri,
    refundTransactionRequests: true,

    async buildPayoutTransactions(from, targets) {
      const payer = new PublicKey(from);
      const mint = targets[0] ? new PublicKey(targets[0].tokenMint) : null;
      const price = mint ? await priorityFee(merchantTokenAccount(mint, payer)) : 0;
      return buildSolanaPayoutTransactions(connection, from, targets, price);
    },

    async buildRefundTransaction(target): Promise<PaymentTransaction> {
      const from = new PublicKey(target.from);
      if (!PublicKey.isOnCurve(from.toBytes()))
        throw new PayerAccountError(
          'the receiving wallet is an off-curve address (a program or multisig account): send the refund with its own tools',
        );
      const mint = new PublicKey(target.tokenMint);
      const [microLamportsPerCu, latest] = await Promise.all([
        priorityFee(merchantTokenAccount(mint, from)),
        solanaRpc('getLatestBlockhash', () => connection.getLatestBlockhash('confirmed')),
      ]);
      // The same shape as a payment, the other way round: the receiving wallet pays the fee and
      // creates the payer's token account when it is missing; the tag ties the transfer to the refund.
      const transaction = buildTransferTransaction({
        payer: from,
        recipient: new PublicKey(target.to),
        mint,
        reference: new PublicKey(target.tag),
        amountUnits: target.amountUnits,
        decimals: target.decimals,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        microLamportsPerCu,
        memo: `stablepay-refund:${target.tag}`,
      });
      return {
        body: {
          transaction: transaction
            .serialize({ requireAllSignatures: false, verifySignatures: false })
            .toString('base64'),
        },
        message: `Refund ${formatUnits(target.amountUnits, target.decimals, 0)} ${target.token}`,
      };
    },

    // The refund address's token account, as a payment's: the tagged transaction the service builds
    // and an untagged transfer from a mobile wallet both credit it (judged by tag, else exact amount).
    refundScanTarget: (target) => ({
      key: tokenAccountOf(target.tokenMint, target.to),
      token: target.tokenMint,
      recipients: [target.to],
      senders: [target.from],
    }),

    // Scan targets are token accounts: each is subscribed, and read when it changes.
    openWatch:
      opts.wsUrls && opts.wsUrls.length > 0
        ? (onActivity) =>
            openSolanaAccountWatch({
              urls: opts.wsUrls!,
              commitment: opts.commitment,
              onActivity,
              log: opts.log ?? { info: () => {}, warn: () => {} },
              pace: () => opts.rpc.pace(),
            })
        : undefined,
  };
}
