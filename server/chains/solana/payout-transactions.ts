import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  PACKET_DATA_SIZE,
  PublicKey,
  Transaction,
  type Connection,
  type TransactionInstruction,
} from '@solana/web3.js';
import type { PayoutTransactionDraft, RefundTarget } from '../chain-adapter';
import { MAX_MICRO_LAMPORTS_PER_CU, merchantTokenAccount } from './payment-transaction';
import { solanaRpc } from './rpc';

/** Compute units: a transfer (~6k, room for its reference key) and creating a token account (~25k). */
const TRANSFER_CU = 10_000;
const CREATE_ACCOUNT_CU = 30_000;
const BASE_CU = 5_000;
/** Lamports per signature (one: the paying wallet) and the rent of a token account it creates. */
const LAMPORTS_PER_SIGNATURE = 5_000n;
const TOKEN_ACCOUNT_RENT = 2_039_280n;
/** A signature's room in the wire form (the one the wallet adds). */
const SIGNATURE_BYTES = 64;

type Part = { id: string; instructions: TransactionInstruction[]; creates: boolean };

/**
 * The fewest transactions that pay every target from `from` (the fee payer): transfers are packed
 * in order while the signed transaction fits Solana's packet size, each tagged by its key (a
 * Solana Pay reference on the transfer), each preceded by creating the recipient's token account
 * when it does not exist yet (the paying wallet pays its rent).
 */
export async function buildSolanaPayoutTransactions(
  connection: Connection,
  from: string,
  targets: RefundTarget[],
  microLamportsPerCu: number,
): Promise<PayoutTransactionDraft[]> {
  const payer = new PublicKey(from);
  const accounts = targets.map((t) => merchantTokenAccount(new PublicKey(t.tokenMint), new PublicKey(t.to)));
  const existing = await solanaRpc('getMultipleAccountsInfo', () =>
    connection.getMultipleAccountsInfo(accounts, 'confirmed'),
  );
  const latest = await solanaRpc('getLatestBlockhash', () => connection.getLatestBlockhash('confirmed'));
  const price = Math.min(Math.max(0, Math.floor(microLamportsPerCu)), MAX_MICRO_LAMPORTS_PER_CU);

  const parts: Part[] = targets.map((t, i) => {
    const mint = new PublicKey(t.tokenMint);
    const recipient = new PublicKey(t.to);
    const transfer = createTransferCheckedInstruction(
      getAssociatedTokenAddressSync(mint, payer),
      mint,
      accounts[i]!,
      payer,
      t.amountUnits,
      t.decimals,
    );
    transfer.keys.push({ pubkey: new PublicKey(t.tag), isSigner: false, isWritable: false });
    const creates = !existing[i];
    return {
      id: t.id,
      creates,
      instructions: creates
        ? [createAssociatedTokenAccountIdempotentInstruction(payer, accounts[i]!, recipient, mint), transfer]
        : [transfer],
    };
  });

  const assemble = (group: Part[]) => {
    const units =
      BASE_CU + group.reduce((sum, p) => sum + TRANSFER_CU + (p.creates ? CREATE_ACCOUNT_CU : 0), 0);
    const tx = new Transaction({
      feePayer: payer,
      blockhash: latest.blockhash,
      lastValidBlockHeight: latest.lastValidBlockHeight,
    }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: price }),
      ...group.flatMap((p) => p.instructions),
    );
    return { tx, units };
  };
  const fits = (group: Part[]) => {
    const { tx } = assemble(group);
    // The serialized message plus its one signature (and its count byte) within a packet.
    return tx.serializeMessage().length + SIGNATURE_BYTES + 1 <= PACKET_DATA_SIZE;
  };

  const groups: Part[][] = [];
  let current: Part[] = [];
  for (const part of parts) {
    if (current.length > 0 && !fits([...current, part])) {
      groups.push(current);
      current = [];
    }
    current.push(part);
  }
  if (current.length > 0) groups.push(current);

  return groups.map((group) => {
    const { tx, units } = assemble(group);
    const priority = (BigInt(units) * BigInt(price) + 999_999n) / 1_000_000n;
    const rent = BigInt(group.filter((p) => p.creates).length) * TOKEN_ACCOUNT_RENT;
    return {
      ids: group.map((p) => p.id),
      transaction: tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('base64'),
      feeUnits: LAMPORTS_PER_SIGNATURE + priority + rent,
      feeDecimals: 9,
    };
  });
}
