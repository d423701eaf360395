import { address, lamports } from '@solana/kit';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  AddressLookupTableProgram,
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  VersionedTransaction,
} from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { SolanaLedger } from './ledger';
import { createRpcMethods } from './rpc-methods';
import { RpcServer, type RpcFault } from './rpc-server';
import { decodeTokenAccount } from './token-layout';

/**
 * A local Solana chain for the sandbox, tests, the demo and benchmarks: litesvm behind a JSON-RPC server
 * (HTTP on `port`, websocket on `port + 1`). The service reaches it only through SOLANA_RPC_URL.
 */

export type { RpcFault } from './rpc-server';

export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const LOOKUP_TABLE_META_SIZE = 56;
const DEFAULT_PAYER_SOL = 1_000_000_000n; // 1 SOL
const DEFAULT_PAYER_UNITS = 1_000_000_000n; // 1000 tokens at 6 decimals

export type TransferOptions = {
  payer: Keypair;
  recipientOwner: PublicKey;
  mint: PublicKey;
  amountUnits: bigint;
  reference?: PublicKey | PublicKey[];
  memo?: string;
  /** Idempotent create of the recipient's token account first (default true), as wallets do. */
  createRecipientAta?: boolean;
  /** Send with skipPreflight: an execution failure then lands on chain with meta.err set. */
  skipPreflight?: boolean;
  /** A batch payout: more plain transfers of the mint from the payer, before the main one, in the same transaction. */
  alsoTo?: { recipientOwner: PublicKey; amountUnits: bigint }[];
};

export type LocalSolana = {
  url: string;
  wsUrl: string;
  /** web3.js Connection to this chain ('confirmed', websocket on wsUrl). */
  connection: Connection;
  svm: LiteSVM;
  /** A new SPL Token mint (6 decimals unless told); its mint authority stays inside. */
  createMint(opts?: { decimals?: number }): Promise<PublicKey>;
  /** Adds lamports to an account directly (no transaction); default 1 SOL. */
  fundSol(owner: PublicKey, lamports?: bigint | number): Promise<void>;
  /** Mints to `owner`'s associated token account, creating it if missing; returns the transaction. */
  mintTo(owner: PublicKey, mint: PublicKey, amountUnits: bigint): Promise<string>;
  /** Balance of `owner`'s associated token account, 0n if it does not exist. */
  tokenBalance(owner: PublicKey, mint: PublicKey): Promise<bigint>;
  /** A wallet with `sol` lamports (default 1 SOL) and, given a mint, `units` tokens (default 1000). */
  newPayer(opts?: { mint?: PublicKey; units?: bigint; sol?: bigint }): Promise<Keypair>;
  /** Pays like a wallet paying a Solana Pay transfer request, through JSON-RPC sendTransaction. */
  transfer(opts: TransferOptions): Promise<string>;
  /** An address lookup table holding `addresses` (placed directly; usable at once), for v0 tests. */
  createLookupTable(addresses: PublicKey[]): Promise<PublicKey>;
  /** Signs a base64 transaction (e.g. a transaction-request answer) as `signer` and sends it. */
  signAndSend(base64Tx: string, signer: Keypair, opts?: { skipPreflight?: boolean }): Promise<string>;
  /** Requests per JSON-RPC method since start or the last resetRpcCalls() (live object). */
  readonly rpcCalls: Record<string, number>;
  resetRpcCalls(): void;
  /** Injects failures per method (null to stop); requests are still counted. */
  setRpcFault(fault: ((method: string, params: unknown) => RpcFault | undefined) | null): void;
  /** Cuts every websocket connection (clients must reconnect and subscribe again); HTTP stays up. */
  dropWebSockets(): void;
  /** Open websocket connections. */
  readonly webSockets: number;
  /** While on, account notifications are lost silently (the connection stays up). */
  muteAccountNotifications(on: boolean): void;
  /** Closes the HTTP and websocket listeners (connections refused); the chain state stays. */
  stopRpc(): Promise<void>;
  /** Listens again on the same ports. */
  startRpc(): Promise<void>;
  stop(): Promise<void>;
  /** While on, new transactions are 'confirmed' but not 'finalized' until finalizeAll(). */
  holdFinality(on: boolean): void;
  finalizeAll(): void;
  /** Invalidates every blockhash handed out so far (BlockhashNotFound from then on). */
  expireBlockhash(): void;
  /** Empty slots: block height advances (blockhashes older than 150 blocks expire). */
  advanceSlots(count: number): void;
  /** Moves the chain clock (blockTime of later transactions) forward. */
  advanceClock(seconds: number): void;
  /** Fees getRecentPrioritizationFees reports (micro-lamports per compute unit). */
  setPrioritizationFees(fees: number[]): void;
  currentSlot(): number;
};

export class LocalRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'LocalRpcError';
  }

  get logs(): string[] {
    const logs = (this.data as { logs?: unknown } | undefined)?.logs;
    return Array.isArray(logs) ? (logs as string[]) : [];
  }
}

/**
 * web3.js reconnects its websocket forever while a subscription is open, which would keep the
 * process alive after stop(): turn that off for the helper's own Connection (private fields).
 */
function disarmWebsocket(connection: Connection): void {
  const ws = (
    connection as unknown as {
      _rpcWebSocket?: { setAutoReconnect(on: boolean): void; connect(): void; close(): void };
    }
  )._rpcWebSocket;
  if (!ws) return;
  ws.setAutoReconnect(false);
  ws.connect = () => {};
  ws.close();
}

export async function startLocalSolana(opts: { port?: number; host?: string } = {}): Promise<LocalSolana> {
  const host = opts.host ?? '127.0.0.1';
  const ledger = new SolanaLedger();
  const server = new RpcServer(ledger, createRpcMethods(ledger), host);
  await server.listen(opts.port ?? 0);
  const url = `http://${host}:${server.port}`;
  const wsUrl = `ws://${host}:${server.port + 1}`;
  const connection = new Connection(url, { commitment: 'confirmed', wsEndpoint: wsUrl });
  const authority = ledger.faucet;

  /** The helpers' own transactions (mint creation, minting) go straight to the ledger. */
  function submitLocally(tx: Transaction, ...signers: Keypair[]): string {
    tx.feePayer = authority.publicKey;
    tx.recentBlockhash = ledger.latestBlockhash().blockhash;
    tx.sign(authority, ...signers);
    return ledger.submit(tx.serialize({ verifySignatures: false }), { skipPreflight: false });
  }

  async function rpc<T>(method: string, params: unknown[]): Promise<T> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    if (!res.ok) throw new LocalRpcError(-32000, `HTTP ${res.status} from ${method}`);
    const body = (await res.json()) as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error) throw new LocalRpcError(body.error.code, body.error.message, body.error.data);
    return body.result as T;
  }

  const sendRaw = (wire: Uint8Array, skipPreflight = false) =>
    rpc<string>('sendTransaction', [
      Buffer.from(wire).toString('base64'),
      { encoding: 'base64', skipPreflight, preflightCommitment: 'confirmed' },
    ]);

  // Deriving an associated token address costs ~1 ms of JS hashing: cache them.
  const ataCache = new Map<string, PublicKey>();
  function ataOf(mint: PublicKey, owner: PublicKey, programId: PublicKey): PublicKey {
    const key = Buffer.concat([mint.toBuffer(), owner.toBuffer(), programId.toBuffer()]).toString('hex');
    let ata = ataCache.get(key);
    if (!ata) ataCache.set(key, (ata = getAssociatedTokenAddressSync(mint, owner, true, programId)));
    return ata;
  }

  function mintInfo(mint: PublicKey): { decimals: number; programId: PublicKey } {
    const account = ledger.account(mint.toBase58());
    const decimals = ledger.decimalsOf(mint.toBase58());
    if (!account || decimals === null) throw new Error(`${mint.toBase58()} is not a mint on the local chain`);
    return { decimals, programId: new PublicKey(account.owner) };
  }

  const fundSol = async (owner: PublicKey, lamports: bigint | number = DEFAULT_PAYER_SOL) => {
    const key = owner.toBase58();
    ledger.setLamports(key, (ledger.account(key)?.lamports ?? 0n) + BigInt(lamports));
  };

  const mintTo = async (owner: PublicKey, mint: PublicKey, amountUnits: bigint) => {
    const { decimals, programId } = mintInfo(mint);
    const ata = ataOf(mint, owner, programId);
    return submitLocally(
      new Transaction().add(
        createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, ata, owner, mint, programId),
        createMintToCheckedInstruction(mint, ata, authority.publicKey, amountUnits, decimals, [], programId),
      ),
    );
  };

  const local: LocalSolana = {
    url,
    wsUrl,
    connection,
    svm: ledger.svm,

    async createMint({ decimals = 6 } = {}) {
      const mint = Keypair.generate();
      const rent = Number(ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)));
      submitLocally(
        new Transaction().add(
          SystemProgram.createAccount({
            fromPubkey: authority.publicKey,
            newAccountPubkey: mint.publicKey,
            lamports: rent,
            space: MINT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeMint2Instruction(mint.publicKey, decimals, authority.publicKey, null),
        ),
        mint,
      );
      return mint.publicKey;
    },

    fundSol,
    mintTo,

    async tokenBalance(owner, mint) {
      const { programId } = mintInfo(mint);
      const ata = ataOf(mint, owner, programId);
      const account = ledger.account(ata.toBase58());
      return (account && decodeTokenAccount(account.owner, account.data)?.amount) ?? 0n;
    },

    async newPayer({ mint, units, sol } = {}) {
      const payer = Keypair.generate();
      await fundSol(payer.publicKey, sol ?? DEFAULT_PAYER_SOL);
      if (mint) await mintTo(payer.publicKey, mint, units ?? DEFAULT_PAYER_UNITS);
      return payer;
    },

    async transfer(o) {
      const { decimals, programId } = mintInfo(o.mint);
      const payerAta = ataOf(o.mint, o.payer.publicKey, programId);
      const recipientAta = ataOf(o.mint, o.recipientOwner, programId);
      const tx = new Transaction({ feePayer: o.payer.publicKey, ...ledger.latestBlockhash() });
      if (o.createRecipientAta !== false)
        tx.add(
          createAssociatedTokenAccountIdempotentInstruction(
            o.payer.publicKey,
            recipientAta,
            o.recipientOwner,
            o.mint,
            programId,
          ),
        );
      for (const other of o.alsoTo ?? []) {
        const otherAta = ataOf(o.mint, other.recipientOwner, programId);
        tx.add(
          createAssociatedTokenAccountIdempotentInstruction(
            o.payer.publicKey,
            otherAta,
            other.recipientOwner,
            o.mint,
            programId,
          ),
          createTransferCheckedInstruction(
            payerAta,
            o.mint,
            otherAta,
            o.payer.publicKey,
            other.amountUnits,
            decimals,
            [],
            programId,
          ),
        );
      }
      // Solana Pay: the memo goes right before the transfer, which comes last.
      if (o.memo !== undefined)
        tx.add(
          new TransactionInstruction({
            programId: MEMO_PROGRAM_ID,
            keys: [],
            data: Buffer.from(o.memo, 'utf8'),
          }),
        );
      const transfer = createTransferCheckedInstruction(
        payerAta,
        o.mint,
        recipientAta,
        o.payer.publicKey,
        o.amountUnits,
        decimals,
        [],
        programId,
      );
      const references =
        o.reference === undefined ? [] : Array.isArray(o.reference) ? o.reference : [o.reference];
      for (const pubkey of references) transfer.keys.push({ pubkey, isSigner: false, isWritable: false });
      tx.add(transfer);
      tx.sign(o.payer);
      // The server checks the signature; verifying it here too would only double the JS crypto.
      return sendRaw(tx.serialize({ verifySignatures: false }), o.skipPreflight);
    },

    async createLookupTable(addresses) {
      const table = Keypair.generate().publicKey;
      // ProgramState::LookupTable: discriminator u32 = 1, deactivation slot u64::MAX, last extended
      // slot 0, its start index 0, Some(authority), 2 bytes padding; then the addresses.
      const data = Buffer.alloc(LOOKUP_TABLE_META_SIZE + 32 * addresses.length);
      data.writeUInt32LE(1, 0);
      data.writeBigUInt64LE(0xffff_ffff_ffff_ffffn, 4);
      data.writeUInt8(1, 21);
      authority.publicKey.toBuffer().copy(data, 22);
      addresses.forEach((key, i) => key.toBuffer().copy(data, LOOKUP_TABLE_META_SIZE + 32 * i));
      ledger.svm.setAccount({
        address: address(table.toBase58()),
        lamports: lamports(ledger.svm.minimumBalanceForRentExemption(BigInt(data.length))),
        data,
        programAddress: address(AddressLookupTableProgram.programId.toBase58()),
        executable: false,
        space: BigInt(data.length),
      });
      return table;
    },

    async signAndSend(base64Tx, signer, { skipPreflight = false } = {}) {
      const tx = VersionedTransaction.deserialize(Buffer.from(base64Tx, 'base64'));
      tx.sign([signer]);
      return sendRaw(tx.serialize(), skipPreflight);
    },

    get rpcCalls() {
      return server.calls;
    },
    resetRpcCalls: () => server.resetCalls(),
    setRpcFault: (fault) => {
      server.fault = fault;
    },
    dropWebSockets: () => server.dropWebSockets(),
    get webSockets() {
      return server.webSockets;
    },
    muteAccountNotifications: (on) => {
      server.muteAccountNotifications = on;
    },
    stopRpc: () => server.stop(),
    startRpc: () => server.listen(server.port),
    async stop() {
      disarmWebsocket(connection);
      await server.close();
    },
    holdFinality: (on) => ledger.holdFinality(on),
    finalizeAll: () => ledger.finalizeAll(),
    expireBlockhash: () => ledger.expireBlockhash(),
    advanceSlots: (count) => ledger.advanceSlots(count),
    advanceClock: (seconds) => ledger.advanceClock(seconds),
    setPrioritizationFees: (fees) => {
      ledger.prioritizationFees = [...fees];
    },
    currentSlot: () => ledger.currentSlot,
  };
  return local;
}
