import { address, getBase58Decoder, getBase58Encoder, getBase64Encoder, isAddress } from '@solana/kit';
import { VersionedMessage } from '@solana/web3.js';
import type { SolanaLedger } from './ledger';
import { accountView, asBytes, type AccountView, type TxRecord } from './ledger-records';
import { transactionFee } from './wire';
import { base64 } from './keys';
import { RpcError } from './rpc-error';
import {
  decodeMint,
  decodeTokenAccount,
  parsedTokenData,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  uiTokenAmount,
} from './token-layout';
import { encodeTransaction, type TransactionEncoding } from './tx-json';

/**
 * The JSON-RPC methods, answering the shapes mainnet's RPC returns (what web3.js 1.x, spl-token,
 * @solana/pay and @solana/kit parse). Each takes the positional `params` array.
 */

export type RpcMethod = (params: unknown[]) => unknown;

export const SOLANA_CORE_VERSION = '2.2.7';
const FEATURE_SET = 3294202862;
const SLOTS_PER_EPOCH = 432_000;
/** What mainnet reports for rent-exempt accounts: u64::MAX, which JSON readers see as 2^64. */
const RENT_EPOCH = 2 ** 64;
const MAX_BASE58_ACCOUNT_BYTES = 128;

const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const base64Bytes = getBase64Encoder();

type Config = Record<string, unknown>;

function config(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Config;
  throw RpcError.invalidParams(`Invalid params: expected a configuration object at position ${index}`);
}

function pubkey(value: unknown): string {
  if (typeof value !== 'string' || !isAddress(value)) throw RpcError.invalidParams('Invalid param: Invalid');
  return value;
}

function signature(value: unknown): string {
  try {
    if (typeof value === 'string' && base58Bytes.encode(value).length === 64) return value;
  } catch {
    // not base58
  }
  throw RpcError.invalidParams('Invalid param: Invalid');
}

function commitment(cfg: Config): 'processed' | 'confirmed' | 'finalized' {
  const value = cfg.commitment ?? 'finalized';
  // Deprecated aliases still accepted by validators.
  if (value === 'recent') return 'processed';
  if (value === 'single' || value === 'singleGossip') return 'confirmed';
  if (value === 'max' || value === 'root') return 'finalized';
  if (value === 'processed' || value === 'confirmed' || value === 'finalized') return value;
  throw RpcError.invalidParams(`Invalid commitment: ${String(value)}`);
}

function positiveInt(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw RpcError.invalidParams(`Invalid param: ${name}`);
  return value;
}

function decodeBytes(data: unknown, encoding: unknown): Uint8Array {
  if (typeof data !== 'string') throw RpcError.invalidParams('Invalid params: expected an encoded string');
  try {
    if (encoding === undefined || encoding === 'base58') return Uint8Array.from(base58Bytes.encode(data));
    if (encoding === 'base64') return Uint8Array.from(base64Bytes.encode(data));
  } catch (error) {
    throw RpcError.invalidParams(
      `invalid ${String(encoding ?? 'base58')} encoding: ${(error as Error).message}`,
    );
  }
  throw RpcError.invalidParams(
    `unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`,
  );
}

export function createRpcMethods(ledger: SolanaLedger): Record<string, RpcMethod> {
  const context = () => ({ apiVersion: SOLANA_CORE_VERSION, slot: ledger.currentSlot });
  const withContext = (value: unknown) => ({ context: context(), value });
  const decimalsOf = (mint: string) => ledger.decimalsOf(mint);

  function encodeAccount(account: AccountView, cfg: Config): Record<string, unknown> {
    const encoding = cfg.encoding ?? 'base58';
    let bytes = account.data;
    const slice = cfg.dataSlice as { offset?: unknown; length?: unknown } | undefined;
    if (slice) {
      const offset = positiveInt(slice.offset, 'dataSlice.offset');
      bytes = bytes.subarray(offset, offset + positiveInt(slice.length, 'dataSlice.length'));
    }
    let data: unknown;
    if (encoding === 'jsonParsed')
      data = parsedTokenData(account.owner, account.data, decimalsOf) ?? [base64(bytes), 'base64'];
    else if (encoding === 'base64') data = [base64(bytes), 'base64'];
    else if (encoding === 'base58') {
      if (bytes.length > MAX_BASE58_ACCOUNT_BYTES)
        throw RpcError.invalidParams(
          'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
        );
      data = [base58.decode(bytes), 'base58'];
    } else throw RpcError.invalidParams(`Invalid encoding: ${String(encoding)}`);
    return {
      data,
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: account.owner,
      rentEpoch: RENT_EPOCH,
      space: account.data.length,
    };
  }

  function tokenAccountsOf(owner: string, filter: Config, cfg: Config) {
    let programs: string[];
    let mint: string | null = null;
    if (typeof filter.mint === 'string') {
      mint = pubkey(filter.mint);
      const mintAccount = ledger.account(mint);
      if (!mintAccount || !decodeMint(mintAccount.owner, mintAccount.data))
        throw RpcError.invalidParams('Invalid param: could not find mint');
      programs = [mintAccount.owner];
    } else if (typeof filter.programId === 'string') {
      const program = pubkey(filter.programId);
      if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM)
        throw RpcError.invalidParams('Invalid param: unrecognized Token program id');
      programs = [program];
    } else throw RpcError.invalidParams('Invalid params: expected { mint } or { programId }');
    const accounts = programs.flatMap((program) => ledger.svm.getProgramAccounts(address(program)));
    return accounts
      .filter((account) => {
        const token = decodeTokenAccount(account.programAddress, asBytes(account.data));
        return token !== null && token.owner === owner && (mint === null || token.mint === mint);
      })
      .map((account) => ({
        pubkey: account.address,
        account: encodeAccount(accountView(account), cfg),
      }));
  }

  function signatureStatus(record: TxRecord | null) {
    if (!record) return null;
    return {
      slot: record.slot,
      confirmations: record.finalized ? null : 1,
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      confirmationStatus: record.finalized ? 'finalized' : 'confirmed',
    };
  }

  return {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': FEATURE_SET }),
    getGenesisHash: () => ledger.genesisHash,
    getSlot: () => ledger.currentSlot,
    getBlockHeight: () => ledger.blockHeight,
    getTransactionCount: () => ledger.transactionCount,
    getEpochInfo: () => ({
      absoluteSlot: ledger.currentSlot,
      blockHeight: ledger.blockHeight,
      epoch: Math.floor(ledger.currentSlot / SLOTS_PER_EPOCH),
      slotIndex: ledger.currentSlot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ledger.transactionCount,
    }),
    getLatestBlockhash: () => withContext(ledger.latestBlockhash()),
    isBlockhashValid: (params) => {
      if (typeof params[0] !== 'string') throw RpcError.invalidParams('Invalid param: blockhash');
      return withContext(ledger.isBlockhashValid(params[0]));
    },
    getFeeForMessage: (params) => {
      let message: VersionedMessage;
      try {
        message = VersionedMessage.deserialize(decodeBytes(params[0], 'base64'));
      } catch (error) {
        if (error instanceof RpcError) throw error;
        throw RpcError.invalidParams(`invalid message: ${(error as Error).message}`);
      }
      return withContext(ledger.isBlockhashValid(message.recentBlockhash) ? transactionFee(message) : null);
    },
    getRecentPrioritizationFees: () => {
      const fees = ledger.prioritizationFees;
      return fees.map((prioritizationFee, i) => ({
        slot: ledger.currentSlot - (fees.length - 1 - i),
        prioritizationFee,
      }));
    },
    getMinimumBalanceForRentExemption: (params) =>
      Number(ledger.svm.minimumBalanceForRentExemption(BigInt(positiveInt(params[0], 'dataLength')))),
    getBalance: (params) => withContext(Number(ledger.account(pubkey(params[0]))?.lamports ?? 0n)),
    getAccountInfo: (params) => {
      const account = ledger.account(pubkey(params[0]));
      return withContext(account ? encodeAccount(account, config(params, 1)) : null);
    },
    getMultipleAccounts: (params) => {
      if (!Array.isArray(params[0]))
        throw RpcError.invalidParams('Invalid params: expected an array of keys');
      if (params[0].length > 100) throw RpcError.invalidParams('Too many inputs provided; max 100');
      const cfg = config(params, 1);
      return withContext(
        params[0].map((key) => {
          const account = ledger.account(pubkey(key));
          return account ? encodeAccount(account, cfg) : null;
        }),
      );
    },
    getProgramAccounts: (params) => {
      const program = pubkey(params[0]);
      const cfg = config(params, 1);
      const filters = Array.isArray(cfg.filters) ? (cfg.filters as Config[]) : [];
      const matches = (data: Uint8Array) =>
        filters.every((filter) => {
          if (typeof filter.dataSize === 'number') return data.length === filter.dataSize;
          const memcmp = filter.memcmp as
            { offset?: unknown; bytes?: unknown; encoding?: unknown } | undefined;
          if (!memcmp) throw RpcError.invalidParams('Invalid param: unknown filter');
          const offset = positiveInt(memcmp.offset, 'memcmp.offset');
          const bytes = decodeBytes(memcmp.bytes, memcmp.encoding ?? 'base58');
          return bytes.every((byte, i) => data[offset + i] === byte);
        });
      const value = ledger.svm
        .getProgramAccounts(address(program))
        .filter((account) => matches(asBytes(account.data)))
        .map((account) => ({
          pubkey: account.address,
          account: encodeAccount(accountView(account), cfg),
        }));
      return cfg.withContext ? withContext(value) : value;
    },
    getTokenAccountBalance: (params) => {
      const account = ledger.account(pubkey(params[0]));
      if (!account) throw RpcError.invalidParams('Invalid param: could not find account');
      const token = decodeTokenAccount(account.owner, account.data);
      const decimals = token && ledger.decimalsOf(token.mint);
      if (!token || decimals === null) throw RpcError.invalidParams('Invalid param: not a Token account');
      return withContext(uiTokenAmount(token.amount, decimals));
    },
    getTokenSupply: (params) => {
      const account = ledger.account(pubkey(params[0]));
      const mint = account && decodeMint(account.owner, account.data);
      if (!mint) throw RpcError.invalidParams('Invalid param: not a Token mint');
      return withContext(uiTokenAmount(mint.supply, mint.decimals));
    },
    getTokenAccountsByOwner: (params) =>
      withContext(tokenAccountsOf(pubkey(params[0]), config(params, 1), config(params, 2))),
    sendTransaction: (params) => {
      const cfg = config(params, 1);
      const wire = decodeBytes(params[0], cfg.encoding);
      return ledger.submit(wire, { skipPreflight: cfg.skipPreflight === true });
    },
    simulateTransaction: (params) => {
      const cfg = config(params, 1);
      const wire = decodeBytes(params[0], cfg.encoding);
      const result = ledger.simulate(wire, {
        sigVerify: cfg.sigVerify === true,
        replaceRecentBlockhash: cfg.replaceRecentBlockhash === true,
      });
      const wanted = cfg.accounts as { addresses?: unknown; encoding?: unknown } | undefined;
      let accounts: unknown = null;
      if (wanted && Array.isArray(wanted.addresses))
        accounts = wanted.addresses.map((key) => {
          const account = result.postAccounts.get(pubkey(key)) ?? ledger.account(key as string);
          return account ? encodeAccount(account, { encoding: wanted.encoding ?? 'base64' }) : null;
        });
      return withContext({
        err: result.err,
        logs: result.logs,
        accounts,
        unitsConsumed: result.unitsConsumed,
        returnData: null,
        innerInstructions: null,
        replacementBlockhash: result.replacementBlockhash,
      });
    },
    requestAirdrop: (params) => ledger.airdrop(pubkey(params[0]), positiveInt(params[1], 'lamports')),
    getSignatureStatuses: (params) => {
      if (!Array.isArray(params[0]))
        throw RpcError.invalidParams('Invalid params: expected an array of signatures');
      if (params[0].length > 256) throw RpcError.invalidParams('Too many inputs provided; max 256');
      return withContext(params[0].map((sig) => signatureStatus(ledger.transaction(signature(sig)))));
    },
    getTransaction: (params) => {
      const sig = signature(params[0]);
      // The second param may also be a bare encoding string (old clients).
      const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : config(params, 1);
      const level = commitment(cfg);
      if (level === 'processed')
        throw RpcError.invalidParams('Method does not support commitment below `confirmed`');
      const encoding = (cfg.encoding ?? 'json') as TransactionEncoding;
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding))
        throw RpcError.invalidParams(`Invalid encoding: ${String(encoding)}`);
      const max = cfg.maxSupportedTransactionVersion;
      if (max !== undefined && max !== null && max !== 0)
        throw RpcError.invalidParams(
          `Invalid param: unsupported maxSupportedTransactionVersion ${String(max)}`,
        );
      const record = ledger.transaction(sig);
      if (!record || (level === 'finalized' && !record.finalized)) return null;
      return encodeTransaction(record, {
        encoding,
        maxSupportedTransactionVersion: typeof max === 'number' ? max : undefined,
      });
    },
    getSignaturesForAddress: (params) => {
      const key = pubkey(params[0]);
      const cfg = config(params, 1);
      const level = commitment(cfg);
      if (level === 'processed')
        throw RpcError.invalidParams('Method does not support commitment below `confirmed`');
      const limit = cfg.limit === undefined || cfg.limit === null ? 1000 : positiveInt(cfg.limit, 'limit');
      if (limit < 1 || limit > 1000) throw RpcError.invalidParams('Invalid limit; max 1000');
      return ledger
        .signaturesForAddress(key, {
          limit,
          before: cfg.before === undefined || cfg.before === null ? undefined : signature(cfg.before),
          until: cfg.until === undefined || cfg.until === null ? undefined : signature(cfg.until),
          finalizedOnly: level === 'finalized',
        })
        .map((record) => ({
          signature: record.signature,
          slot: record.slot,
          err: record.err,
          memo: record.memo,
          blockTime: record.blockTime,
          confirmationStatus: record.finalized ? 'finalized' : 'confirmed',
        }));
    },
    getBlockTime: (params) => {
      const slot = positiveInt(params[0], 'slot');
      const time = ledger.blockTimeOf(slot);
      if (time === null) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      return time;
    },
  };
}
