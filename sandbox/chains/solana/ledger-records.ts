import type { VersionedMessage } from '@solana/web3.js';
import type { TransactionMetadata } from 'litesvm';
import { base58, base64 } from './keys';
import { decodeTokenAccount, uiTokenAmount, type UiTokenAmount } from './token-layout';
import type { RpcTxError } from './tx-errors';

/** What the local ledger keeps of each transaction and account, as a validator's RPC serves them. */

export type TokenBalance = {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
};

export type CompiledInnerInstruction = {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number | null;
};

export type TxRecord = {
  /** Global order of processing, for before/until. */
  seq: number;
  signature: string;
  signatures: string[];
  slot: number;
  blockTime: number;
  version: VersionedMessage['version'];
  wire: Uint8Array;
  message: VersionedMessage;
  /** Static keys, then lookup-table writable, then lookup-table readonly: what indexes refer to. */
  accountKeys: string[];
  loadedAddresses: { writable: string[]; readonly: string[] };
  err: RpcTxError | null;
  fee: number;
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logMessages: string[];
  innerInstructions: { index: number; instructions: CompiledInnerInstruction[] }[];
  computeUnitsConsumed: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  memo: string | null;
  finalized: boolean;
};

/** kit hands out read-only byte views; the layout readers take plain Uint8Arrays (no copy). */
export const asBytes = (view: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }) =>
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

export type AccountView = { lamports: bigint; data: Uint8Array; owner: string; executable: boolean };

type KitAccount = {
  lamports: bigint;
  data: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
  programAddress: string;
  executable: boolean;
};
export const accountView = (a: KitAccount): AccountView => ({
  lamports: BigInt(a.lamports),
  data: asBytes(a.data),
  owner: a.programAddress,
  executable: a.executable,
});

export type SimulationResult = {
  err: RpcTxError | null;
  logs: string[];
  unitsConsumed: number;
  postAccounts: Map<string, AccountView>;
  replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null;
};

/** What a transaction's execution left for its record: logs, inner instructions, units, return data. */
export function executionDetails(
  meta: TransactionMetadata,
): Pick<TxRecord, 'logMessages' | 'innerInstructions' | 'computeUnitsConsumed' | 'returnData'> {
  const returnData = meta.returnData();
  return {
    logMessages: meta.logs(),
    innerInstructions: meta
      .innerInstructions()
      .map((list, index) => ({
        index,
        instructions: list.map((inner) => {
          const ix = inner.instruction();
          return {
            programIdIndex: ix.programIdIndex(),
            accounts: [...ix.accounts()],
            data: ix.data(),
            stackHeight: inner.stackHeight(),
          };
        }),
      }))
      .filter((entry) => entry.instructions.length > 0),
    computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
    returnData:
      returnData.data().length > 0
        ? { programId: base58(returnData.programId()), data: [base64(returnData.data()), 'base64'] }
        : null,
  };
}

/** Lamports of every key, and the token balance of every key that is a token account. */
export function balancesOf(
  keys: string[],
  account: (key: string) => AccountView | null,
  decimalsOf: (mint: string) => number | null,
): { balances: number[]; tokens: TokenBalance[] } {
  const balances: number[] = [];
  const tokens: TokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const found = account(key); // keys were just converted from bytes: cached
    balances.push(Number(found?.lamports ?? 0n));
    const token = found && decodeTokenAccount(found.owner, found.data);
    const decimals = token && decimalsOf(token.mint);
    if (!token || decimals === null || decimals === undefined) return;
    tokens.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: found.owner,
      uiTokenAmount: uiTokenAmount(token.amount, decimals, true),
    });
  });
  return { balances, tokens };
}
