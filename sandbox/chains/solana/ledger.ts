import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { address, lamports } from '@solana/kit';
import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import type { LiteSvm as LiteSvmNative } from 'litesvm/dist/internal';
import { base58, base58Bytes } from './keys';
import { formatMemos, MEMO_PROGRAMS, SYSTEM_PROGRAM } from './parsed-instructions';
import { RpcError } from './rpc-error';
import { decodeMint } from './token-layout';
import {
  accountView,
  balancesOf,
  executionDetails,
  type AccountView,
  type SimulationResult,
  type TxRecord,
} from './ledger-records';
import { describeTxError, landsOnChain, type RpcTxError } from './tx-errors';
import { TxIndex } from './tx-index';
import { decodeWire, preflightError, resolveAccountKeys, transactionFee } from './wire';

/**
 * The chain state behind the local RPC: a LiteSVM instance plus everything litesvm does not keep
 * and a validator's RPC serves — slots, block times, blockhash validity, pre/post (token) balances,
 * the address → signatures index, confirmation levels. All methods are synchronous, so each RPC
 * request sees (and changes) the ledger atomically.
 */

/** Blocks a blockhash stays usable for, as on mainnet. */
export const BLOCKHASH_VALIDITY_BLOCKS = 150;
const FAUCET_LAMPORTS = 1_000_000_000_000_000n; // 1M SOL, still below 2^53 for JSON numbers

type LedgerEvents = { processed: [TxRecord]; finalized: [TxRecord]; slot: [number] };

export class SolanaLedger {
  readonly svm: LiteSVM;
  readonly events = new EventEmitter<LedgerEvents>();
  readonly genesisHash: string;
  /** Funds requestAirdrop and pays for the helpers' own transactions. */
  readonly faucet = Keypair.generate();
  /** What getRecentPrioritizationFees reports, oldest first (micro-lamports per CU). */
  prioritizationFees: number[] = [0, 0, 0, 0, 0];

  private readonly native: LiteSvmNative;
  private slot: number;
  private seq = 0;
  private lastBlockTime = 0;
  private clockOffsetSeconds = 0;
  private holdingFinality = false;
  private readonly seed = randomBytes(16);
  /** Blockhashes handed out, by the slot whose hash they are. */
  private readonly issuedBlockhashes = new Map<string, number>();
  private expiredBeforeSlot = 0;
  private readonly index = new TxIndex();
  private readonly decimalsCache = new Map<string, number>();

  constructor() {
    // litesvm accepts only its one latest blockhash; blockhash validity is kept here instead
    // (per-slot hashes valid for 150 blocks, like mainnet), so identical payments made in
    // different slots get different signatures and tx-request transactions stay valid meanwhile.
    this.svm = new LiteSVM().withBlockhashCheck(false);
    this.native = (this.svm as unknown as { inner: LiteSvmNative }).inner;
    this.slot = Number(this.svm.getClock().slot);
    this.genesisHash = this.hashFor('genesis');
    this.setClock(this.slot, this.nextBlockTime());
    this.setLamports(this.faucet.publicKey.toBase58(), FAUCET_LAMPORTS);
  }

  get currentSlot(): number {
    return this.slot;
  }

  /** One block per slot, so block height and slot coincide. */
  get blockHeight(): number {
    return this.slot;
  }

  get transactionCount(): number {
    return this.seq;
  }

  // ---- blockhashes, slots, time ---------------------------------------------------------------

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    const blockhash = this.hashFor(`slot:${this.slot}`);
    if (this.issuedBlockhashes.size >= 10_000)
      for (const [hash, slot] of this.issuedBlockhashes)
        if (this.blockHeight > slot + BLOCKHASH_VALIDITY_BLOCKS) this.issuedBlockhashes.delete(hash);
    this.issuedBlockhashes.set(blockhash, this.slot);
    return { blockhash, lastValidBlockHeight: this.slot + BLOCKHASH_VALIDITY_BLOCKS };
  }

  isBlockhashValid(blockhash: string): boolean {
    const slot = this.issuedBlockhashes.get(blockhash);
    return (
      slot !== undefined &&
      slot >= this.expiredBeforeSlot &&
      this.blockHeight <= slot + BLOCKHASH_VALIDITY_BLOCKS
    );
  }

  /** Every blockhash handed out so far stops being accepted (BlockhashNotFound); a new one starts. */
  expireBlockhash(): void {
    this.svm.expireBlockhash();
    this.advanceSlots(1);
    this.expiredBeforeSlot = this.slot;
  }

  /** Empty slots: block height moves on (blockhashes age, lastValidBlockHeight can pass). */
  advanceSlots(count: number): void {
    if (!Number.isInteger(count) || count < 0)
      throw new Error('advanceSlots: count must be a non-negative integer');
    if (count === 0) return;
    this.setClock(this.slot + count, this.nextBlockTime());
    this.events.emit('slot', this.slot);
  }

  /** Moves block time forward (e.g. to make a payment land after an order's expiry). */
  advanceClock(seconds: number): void {
    this.clockOffsetSeconds += seconds;
  }

  private nextBlockTime(): number {
    const now = Math.floor(Date.now() / 1000) + this.clockOffsetSeconds;
    this.lastBlockTime = Math.max(this.lastBlockTime, now);
    return this.lastBlockTime;
  }

  private setClock(slot: number, unixTimestamp: number): void {
    this.slot = slot;
    this.svm.warpToSlot(BigInt(slot));
    const clock = this.svm.getClock();
    clock.unixTimestamp = BigInt(unixTimestamp);
    this.svm.setClock(clock);
  }

  private hashFor(label: string): string {
    return base58(createHash('sha256').update(this.seed).update(label).digest());
  }

  blockTimeOf(slot: number): number | null {
    return this.index.atSlot(slot)?.blockTime ?? null;
  }

  // ---- finality -------------------------------------------------------------------------------

  /** While on, new transactions stay 'confirmed' until finalizeAll(); turning it off finalizes them. */
  holdFinality(on: boolean): void {
    this.holdingFinality = on;
    if (!on) this.finalizeAll();
  }

  finalizeAll(): void {
    for (const record of this.index.takePendingFinality()) {
      record.finalized = true;
      this.events.emit('finalized', record);
    }
  }

  // ---- accounts -------------------------------------------------------------------------------

  account(key: string): AccountView | null {
    return this.accountAt(base58Bytes(key));
  }

  /**
   * Reads through litesvm's native binding with raw key bytes: its public getAccount round-trips
   * every address through base58 twice, which dominated the cost of snapshots.
   */
  accountAt(key: Uint8Array): AccountView | null {
    const found = this.native.getAccount(key);
    if (!found) return null;
    return {
      lamports: found.lamports(),
      data: found.data(),
      owner: base58(found.owner()),
      executable: found.executable(),
    };
  }

  /** Decimals of a mint (cached: they never change), or null if `mint` is not one. */
  decimalsOf(mint: string): number | null {
    const cached = this.decimalsCache.get(mint);
    if (cached !== undefined) return cached;
    const account = this.account(mint);
    const decoded = account && decodeMint(account.owner, account.data);
    if (!decoded) return null;
    this.decimalsCache.set(mint, decoded.decimals);
    return decoded.decimals;
  }

  /** Sets an account's lamports directly (no transaction), creating a system account if needed. */
  setLamports(key: string, amount: bigint): void {
    const existing = this.account(key);
    this.svm.setAccount({
      address: address(key),
      lamports: lamports(amount),
      data: existing?.data ?? new Uint8Array(),
      programAddress: address(existing?.owner ?? SYSTEM_PROGRAM),
      executable: existing?.executable ?? false,
      space: BigInt(existing?.data.length ?? 0),
    });
  }

  // ---- transactions ---------------------------------------------------------------------------

  /**
   * sendTransaction: checks signatures, then (unless skipPreflight) simulates and refuses failures
   * with the validator's -32002 preflight error. Execution failures sent with skipPreflight land with
   * `err` set and the fee charged; load failures (blockhash, fee funds, already processed) are
   * dropped silently, as a validator drops them. Returns the signature.
   */
  submit(wire: Uint8Array, opts: { skipPreflight: boolean }): string {
    const { vtx, kitTx } = decodeWire(wire);
    const signature = base58(vtx.signatures[0]!);
    if (vtx.signatures.some((sig) => sig.every((byte) => byte === 0)))
      throw new RpcError(-32003, 'Transaction signature verification failure');

    const loadError = this.loadError(vtx, signature);
    if (loadError) {
      if (opts.skipPreflight) return signature;
      throw preflightError(loadError.err, loadError.message, [], 0);
    }
    if (!opts.skipPreflight) {
      const simulated = this.svm.simulateTransaction(kitTx);
      if (simulated instanceof FailedTransactionMetadata) {
        const { err, message } = describeTxError(simulated.err());
        if (err === 'SignatureFailure')
          throw new RpcError(-32003, 'Transaction signature verification failure');
        const meta = simulated.meta();
        throw preflightError(err, message, meta.logs(), Number(meta.computeUnitsConsumed()));
      }
    }

    const keys = resolveAccountKeys(vtx.message, (key) => this.account(key));
    if (!keys) {
      if (opts.skipPreflight) return signature;
      throw preflightError(
        'AddressLookupTableNotFound',
        "Transaction loads an address table account that doesn't exist",
        [],
        0,
      );
    }
    const pre = balancesOf(
      keys.all,
      (key) => this.account(key),
      (mint) => this.decimalsOf(mint),
    );
    const result = this.svm.sendTransaction(kitTx);
    let err: RpcTxError | null = null;
    let meta: TransactionMetadata;
    if (result instanceof FailedTransactionMetadata) {
      const described = describeTxError(result.err());
      if (!landsOnChain(result.err())) {
        if (described.err === 'SignatureFailure')
          throw new RpcError(-32003, 'Transaction signature verification failure');
        if (opts.skipPreflight) return signature;
        throw preflightError(described.err, described.message, result.meta().logs(), 0);
      }
      err = described.err;
      meta = result.meta();
    } else {
      meta = result;
    }

    this.setClock(this.slot + 1, this.nextBlockTime());
    const post = balancesOf(
      keys.all,
      (key) => this.account(key),
      (mint) => this.decimalsOf(mint),
    );
    const message = vtx.message;
    const memos = message.compiledInstructions
      .filter((ix) => MEMO_PROGRAMS.has(keys.all[ix.programIdIndex]!))
      .map((ix) => ix.data);
    const record: TxRecord = {
      seq: ++this.seq,
      signature,
      signatures: vtx.signatures.map((sig) => base58(sig)),
      slot: this.slot,
      blockTime: this.lastBlockTime,
      version: message.version,
      wire: Uint8Array.from(wire),
      message,
      accountKeys: keys.all,
      loadedAddresses: keys.loaded,
      err,
      fee: transactionFee(message),
      preBalances: pre.balances,
      postBalances: post.balances,
      preTokenBalances: pre.tokens,
      postTokenBalances: post.tokens,
      ...executionDetails(meta),
      memo: formatMemos(memos),
      finalized: !this.holdingFinality,
    };
    this.index.add(record);
    this.events.emit('processed', record);
    this.events.emit('slot', record.slot);
    return signature;
  }

  /** Checks a validator makes before executing; litesvm's blockhash check is off (see constructor). */
  private loadError(
    vtx: VersionedTransaction,
    signature: string,
  ): { err: RpcTxError; message: string } | null {
    if (this.index.get(signature))
      return { err: 'AlreadyProcessed', message: 'This transaction has already been processed' };
    if (!this.isBlockhashValid(vtx.message.recentBlockhash))
      return { err: 'BlockhashNotFound', message: 'Blockhash not found' };
    return null;
  }

  simulate(
    wire: Uint8Array,
    opts: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): SimulationResult {
    let bytes = wire;
    let replacementBlockhash: SimulationResult['replacementBlockhash'] = null;
    if (opts.replaceRecentBlockhash) {
      if (opts.sigVerify)
        throw RpcError.invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      const { vtx } = decodeWire(wire);
      replacementBlockhash = this.latestBlockhash();
      vtx.message.recentBlockhash = replacementBlockhash.blockhash;
      bytes = vtx.serialize();
    }
    const { vtx, kitTx } = decodeWire(bytes);
    const loadError = this.loadError(vtx, base58(vtx.signatures[0]!));
    if (loadError)
      return {
        err: loadError.err,
        logs: [],
        unitsConsumed: 0,
        postAccounts: new Map(),
        replacementBlockhash,
      };
    this.svm.withSigverify(opts.sigVerify);
    try {
      const result = this.svm.simulateTransaction(kitTx);
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta();
        return {
          err: describeTxError(result.err()).err,
          logs: meta.logs(),
          unitsConsumed: Number(meta.computeUnitsConsumed()),
          postAccounts: new Map(),
          replacementBlockhash,
        };
      }
      const meta = result.meta();
      return {
        err: null,
        logs: meta.logs(),
        unitsConsumed: Number(meta.computeUnitsConsumed()),
        postAccounts: new Map(result.postAccounts().map((a) => [a.address, accountView(a)])),
        replacementBlockhash,
      };
    } catch (error) {
      // kit refuses to simulate a transaction with missing signatures while sigverify is on.
      if (opts.sigVerify) throw new RpcError(-32003, 'Transaction signature verification failure');
      throw error;
    } finally {
      this.svm.withSigverify(true);
    }
  }

  /** Sends lamports from the faucet in a real (indexed) system transfer: requestAirdrop. */
  airdrop(to: string, amount: number): string {
    const tx = new Transaction({ feePayer: this.faucet.publicKey, ...this.latestBlockhash() }).add(
      SystemProgram.transfer({
        fromPubkey: this.faucet.publicKey,
        toPubkey: new PublicKey(to),
        lamports: amount,
      }),
    );
    tx.sign(this.faucet);
    return this.submit(tx.serialize(), { skipPreflight: false });
  }

  transaction(signature: string): TxRecord | null {
    return this.index.get(signature);
  }

  /** Newest first, as getSignaturesForAddress; `before`/`until` exclusive. */
  signaturesForAddress(
    key: string,
    opts: { limit: number; before?: string; until?: string; finalizedOnly: boolean },
  ): TxRecord[] {
    return this.index.signaturesForAddress(key, opts);
  }
}
