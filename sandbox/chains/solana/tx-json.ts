import { getBase58Decoder } from '@solana/kit';
import type { TxRecord } from './ledger-records';
import { base64 } from './keys';
import { parseInstruction } from './parsed-instructions';
import { RpcError } from './rpc-error';

/** getTransaction's result for a recorded transaction, in the `json`, `jsonParsed` or `base64` encoding. */

const base58 = getBase58Decoder();

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export function encodeTransaction(
  record: TxRecord,
  opts: { encoding: TransactionEncoding; maxSupportedTransactionVersion: number | undefined },
): Record<string, unknown> {
  if (record.version !== 'legacy' && (opts.maxSupportedTransactionVersion ?? -1) < record.version)
    throw new RpcError(
      -32015,
      `Transaction version (${record.version}) is not supported by the requesting client. ` +
        'Please try the request again with the following configuration parameter: ' +
        `"maxSupportedTransactionVersion": ${record.version}`,
    );
  const parsed = opts.encoding === 'jsonParsed';
  let transaction: unknown;
  if (opts.encoding === 'base64') transaction = [base64(record.wire), 'base64'];
  else if (opts.encoding === 'base58') transaction = [base58.decode(record.wire), 'base58'];
  else
    transaction = {
      signatures: record.signatures,
      message: parsed ? parsedMessage(record) : jsonMessage(record),
    };

  const meta: Record<string, unknown> = {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: record.innerInstructions.map(({ index, instructions }) => ({
      index,
      instructions: instructions.map((ix) =>
        parsed
          ? parseInstruction(
              record.accountKeys[ix.programIdIndex]!,
              ix.accounts.map((i) => record.accountKeys[i]!),
              ix.data,
              ix.stackHeight,
            )
          : {
              programIdIndex: ix.programIdIndex,
              accounts: ix.accounts,
              data: base58.decode(ix.data),
              stackHeight: ix.stackHeight,
            },
      ),
    })),
    logMessages: record.logMessages,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
  // jsonParsed marks lookup-table keys in accountKeys instead (source: 'lookupTable').
  if (!parsed) meta.loadedAddresses = record.loadedAddresses;
  if (record.returnData) meta.returnData = record.returnData;

  const result: Record<string, unknown> = {
    slot: record.slot,
    blockTime: record.blockTime,
    transaction,
    meta,
  };
  // A validator only reports the version to clients that declared which versions they support.
  if (opts.maxSupportedTransactionVersion !== undefined) result.version = record.version;
  return result;
}

function jsonMessage(record: TxRecord): Record<string, unknown> {
  const { message } = record;
  const out: Record<string, unknown> = {
    accountKeys: message.staticAccountKeys.map((key) => key.toBase58()),
    header: message.header,
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: base58.decode(ix.data),
      stackHeight: null,
    })),
  };
  if (record.version !== 'legacy') out.addressTableLookups = lookups(record);
  return out;
}

function parsedMessage(record: TxRecord): Record<string, unknown> {
  const { message, accountKeys } = record;
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } = message.header;
  const staticCount = message.staticAccountKeys.length;
  const invoked = new Set(message.compiledInstructions.map((ix) => ix.programIdIndex));
  const loadedWritable = record.loadedAddresses.writable.length;
  const annotated = accountKeys.map((pubkey, i) => {
    if (i >= staticCount)
      return { pubkey, signer: false, writable: i < staticCount + loadedWritable, source: 'lookupTable' };
    const writable =
      !invoked.has(i) &&
      (i < numRequiredSignatures
        ? i < numRequiredSignatures - numReadonlySignedAccounts
        : i < staticCount - numReadonlyUnsignedAccounts);
    return { pubkey, signer: i < numRequiredSignatures, writable, source: 'transaction' };
  });
  const out: Record<string, unknown> = {
    accountKeys: annotated,
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) =>
      parseInstruction(
        accountKeys[ix.programIdIndex]!,
        ix.accountKeyIndexes.map((i) => accountKeys[i]!),
        ix.data,
        null,
      ),
    ),
  };
  if (record.version !== 'legacy') out.addressTableLookups = lookups(record);
  return out;
}

function lookups(record: TxRecord) {
  return record.message.addressTableLookups.map((lookup) => ({
    accountKey: lookup.accountKey.toBase58(),
    writableIndexes: lookup.writableIndexes,
    readonlyIndexes: lookup.readonlyIndexes,
  }));
}
