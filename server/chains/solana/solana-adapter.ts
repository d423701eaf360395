import {
  ACCOUNT_SIZE,
  AccountLayout,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey } from '@solana/web3.js';
import type { Token } from '../../../contract';
import { ApiError } from '../../errors';
import { formatUnits, TOKEN_DECIMALS } from '../../lib/decimal';
import type { ChainAdapter, PaymentTarget, SolanaPaymentTransaction } from '../chain-adapter';
import { decodeBase58 } from './base58';
import { buildTransferTransaction, merchantTokenAccount } from './payment-transaction';
import { listSolanaTransactions } from './list-transactions';
import { readSolanaTransaction } from './read-transaction';
import { createSolanaConnection, medianNonZeroFee, solanaRpc } from './rpc';

/** Label and message are display-only: clipped so the URI always fits in a QR code. */
const MAX_LABEL_CHARS = 64;
const MAX_MESSAGE_CHARS = 120;
const clip = (text: string, max: number) => {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

export type SolanaAdapterOptions = {
  rpcUrl: string;
  commitment: 'confirmed' | 'finalized';
  usdtMint: string;
  usdcMint?: string;
  rpcTimeoutMs: number;
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

export function createSolanaAdapter(opts: SolanaAdapterOptions): ChainAdapter {
  const mints: Record<Token, string | null> = {
    USDT: requiredMint('USDT mint', opts.usdtMint),
    USDC: opts.usdcMint ? requiredMint('USDC mint', opts.usdcMint) : null,
  };
  const connection = createSolanaConnection(opts);

  function payerKey(account: string | undefined): PublicKey {
    if (!account) throw ApiError.field('query.account', 'is required on Solana');
    const payer = parsePublicKey(account);
    if (!payer) throw ApiError.field('query.account', 'must be a Solana public key');
    // An off-curve address has no private key, so it could never sign as fee payer.
    if (!PublicKey.isOnCurve(payer.toBytes()))
      throw ApiError.field('query.account', 'must be a wallet address (on-curve public key)');
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

  return {
    network: 'SOLANA',

    tokenMint: (token) => mints[token],

    normalizeAddress: (address) => (parsePublicKey(address) ? address : null),

    isWellFormedTxId: (txId) => txId.length <= MAX_SIGNATURE_CHARS && decodeBase58(txId)?.length === 64,

    paymentUri(target: PaymentTarget): string {
      const params = [
        `amount=${formatUnits(target.amountUnits, TOKEN_DECIMALS, 0)}`,
        `spl-token=${target.tokenMint}`,
        `reference=${target.reference}`,
      ];
      if (target.label) params.push(`label=${encodeURIComponent(clip(target.label, MAX_LABEL_CHARS))}`);
      if (target.message)
        params.push(`message=${encodeURIComponent(clip(target.message, MAX_MESSAGE_CHARS))}`);
      return `solana:${target.recipient}?${params.join('&')}`;
    },

    async buildPaymentTransaction(target, account): Promise<SolanaPaymentTransaction> {
      const payer = payerKey(account);
      const recipient = new PublicKey(target.recipient);
      const mint = new PublicKey(target.tokenMint);
      const [microLamportsPerCu, latest, payerBalance] = await Promise.all([
        priorityFee(merchantTokenAccount(mint, recipient)),
        solanaRpc('getLatestBlockhash', () => connection.getLatestBlockhash('confirmed')),
        payerTokenBalance(payer, mint),
      ]);
      // A transaction that can only fail on chain helps nobody: say why now.
      const needed = formatUnits(target.amountUnits, TOKEN_DECIMALS, 0);
      if (payerBalance === null)
        throw ApiError.field(
          'query.account',
          `has no ${target.token} token account: fund it with ${needed} ${target.token} first`,
        );
      if (payerBalance < target.amountUnits)
        throw ApiError.field(
          'query.account',
          `holds ${formatUnits(payerBalance, TOKEN_DECIMALS, 0)} ${target.token}, less than the ${needed} ${target.token} due`,
        );
      const transaction = buildTransferTransaction({
        payer,
        recipient,
        mint,
        reference: new PublicKey(target.reference),
        amountUnits: target.amountUnits,
        blockhash: latest.blockhash,
        lastValidBlockHeight: latest.lastValidBlockHeight,
        microLamportsPerCu,
      });
      const amount = formatUnits(target.amountUnits, TOKEN_DECIMALS, 0);
      return {
        kind: 'solana',
        transaction: transaction
          .serialize({ requireAllSignatures: false, verifySignatures: false })
          .toString('base64'),
        message: target.message || `Pay ${amount} ${target.token}`,
      };
    },

    verifiesPayments: true,

    readTransaction: (txId) => readSolanaTransaction(connection, opts.commitment, txId),

    watchAddress: (recipient, mint) =>
      merchantTokenAccount(new PublicKey(mint), new PublicKey(recipient)).toBase58(),

    listTransactions: (address, cursor, scan) =>
      listSolanaTransactions(connection, opts.commitment, address, cursor, scan),
  };
}
