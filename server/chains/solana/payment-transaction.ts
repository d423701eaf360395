import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { ComputeBudgetProgram, PublicKey, Transaction, TransactionInstruction } from '@solana/web3.js';

export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Room for the worst case: creating the merchant's token account (~25k CU), TransferChecked (~6k),
 * the memo and the compute-budget instructions, with margin. The payer pays price x limit, so the
 * limit stays close to what is used.
 */
export const COMPUTE_UNIT_LIMIT = 80_000;

/** Refuses absurd prices from a misbehaving RPC: the payer would pay them. */
export const MAX_MICRO_LAMPORTS_PER_CU = 5_000_000;

export type TransferTransactionInput = {
  payer: PublicKey;
  recipient: PublicKey;
  mint: PublicKey;
  reference: PublicKey;
  amountUnits: bigint;
  /** The mint's decimals (TransferChecked fails on chain when they differ). */
  decimals: number;
  blockhash: string;
  lastValidBlockHeight: number;
  microLamportsPerCu: number;
  /** Default `stablepay:<reference>`. */
  memo?: string;
};

/** The merchant's token account for a mint; owners may be off-curve (multisig vaults, PDAs). */
export function merchantTokenAccount(mint: PublicKey, recipient: PublicKey): PublicKey {
  return getAssociatedTokenAddressSync(mint, recipient, true);
}

/**
 * The unsigned Solana Pay transfer: priority fee, idempotent ATA create, memo, TransferChecked.
 * The transfer comes last, memo just before it, as Solana Pay's own validateTransfer expects.
 */
export function buildTransferTransaction(input: TransferTransactionInput): Transaction {
  const { payer, recipient, mint, reference } = input;
  const merchantAta = merchantTokenAccount(mint, recipient);
  const payerAta = getAssociatedTokenAddressSync(mint, payer);

  const transfer = createTransferCheckedInstruction(
    payerAta,
    mint,
    merchantAta,
    payer,
    input.amountUnits,
    input.decimals,
  );
  // The reference makes the payment findable with getSignaturesForAddress(reference).
  transfer.keys.push({ pubkey: reference, isSigner: false, isWritable: false });

  const memo = new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [],
    data: Buffer.from(input.memo ?? `stablepay:${reference.toBase58()}`, 'utf8'),
  });

  return new Transaction({
    feePayer: payer,
    blockhash: input.blockhash,
    lastValidBlockHeight: input.lastValidBlockHeight,
  }).add(
    ComputeBudgetProgram.setComputeUnitLimit({ units: COMPUTE_UNIT_LIMIT }),
    ComputeBudgetProgram.setComputeUnitPrice({
      microLamports: Math.min(Math.max(0, Math.floor(input.microLamportsPerCu)), MAX_MICRO_LAMPORTS_PER_CU),
    }),
    createAssociatedTokenAccountIdempotentInstruction(payer, merchantAta, recipient, mint),
    memo,
    transfer,
  );
}
