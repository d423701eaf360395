import { getTransactionDecoder, type Transaction as KitTransaction } from '@solana/kit';
import { AddressLookupTableAccount, VersionedTransaction, type VersionedMessage } from '@solana/web3.js';
import type { AccountView } from './ledger-records';
import { base58 } from './keys';
import { RpcError } from './rpc-error';
import type { RpcTxError } from './tx-errors';

/** A transaction as it arrives on the wire: decoded, refused in preflight's words, and its fee. */

const kitTransactionDecoder = getTransactionDecoder();

const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const LAMPORTS_PER_SIGNATURE = 5000;

export function decodeWire(wire: Uint8Array): { vtx: VersionedTransaction; kitTx: KitTransaction } {
  try {
    const vtx = VersionedTransaction.deserialize(wire);
    if (vtx.signatures.length === 0) throw new Error('no signatures');
    return { vtx, kitTx: kitTransactionDecoder.decode(wire) };
  } catch (error) {
    throw RpcError.invalidParams(`invalid transaction: ${(error as Error).message}`);
  }
}

export function preflightError(
  err: RpcTxError,
  message: string,
  logs: string[],
  unitsConsumed: number,
): RpcError {
  return new RpcError(-32002, `Transaction simulation failed: ${message}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs,
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed,
  });
}

/**
 * Base fee (5000 lamports per signature) plus the priority fee: compute-unit price x limit, the
 * limit defaulting to 200k per non-compute-budget instruction (max 1.4M), as the runtime charges.
 */
export function transactionFee(message: VersionedMessage): number {
  let limit: bigint | null = null;
  let microLamports = 0n;
  let others = 0;
  for (const ix of message.compiledInstructions) {
    const program = message.staticAccountKeys[ix.programIdIndex]?.toBase58();
    if (program !== COMPUTE_BUDGET_PROGRAM) {
      others++;
      continue;
    }
    const data = ix.data;
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2 && data.length >= 5) limit = BigInt(dv.getUint32(1, true));
    if (data[0] === 3 && data.length >= 9) microLamports = dv.getBigUint64(1, true);
  }
  const units = limit ?? BigInt(Math.min(200_000 * others, 1_400_000));
  const priority = (microLamports * units + 999_999n) / 1_000_000n;
  return LAMPORTS_PER_SIGNATURE * message.header.numRequiredSignatures + Number(priority);
}

/**
 * Every account key a message refers to: its static keys, then those its lookup tables load
 * (writable, then readonly), as indexes count them; null when a table or an index is missing.
 */
export function resolveAccountKeys(
  message: VersionedMessage,
  account: (key: string) => AccountView | null,
): { all: string[]; loaded: { writable: string[]; readonly: string[] } } | null {
  const staticKeys = message.staticAccountKeys.map((key) => base58(key.toBytes()));
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  for (const lookup of message.addressTableLookups) {
    const table = account(lookup.accountKey.toBase58());
    if (!table) return null;
    const { addresses } = AddressLookupTableAccount.deserialize(table.data);
    const pick = (indexes: number[]) => indexes.map((i) => addresses[i] && base58(addresses[i].toBytes()));
    const writable = pick(lookup.writableIndexes);
    const readonly = pick(lookup.readonlyIndexes);
    if ([...writable, ...readonly].some((key) => key === undefined)) return null;
    loaded.writable.push(...(writable as string[]));
    loaded.readonly.push(...(readonly as string[]));
  }
  return { all: [...staticKeys, ...loaded.writable, ...loaded.readonly], loaded };
}
