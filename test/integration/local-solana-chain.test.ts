import { findReference, validateTransfer } from '@solana/pay';
import {
  createTransferCheckedInstruction,
  getAccount,
  getAssociatedTokenAddressSync,
  getMint,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  sendAndConfirmTransaction,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  type ParsedInstruction,
  type TokenBalance,
} from '@solana/web3.js';
import BigNumber from 'bignumber.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRpcError, startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';

let chain: LocalSolana;
let usdt: PublicKey;
let startupMs = 0;

beforeAll(async () => {
  const started = performance.now();
  chain = await startLocalSolana();
  usdt = await chain.createMint();
  startupMs = performance.now() - started;
});
afterAll(() => chain?.stop());

const reference = () => Keypair.generate().publicKey;

/** A USDT (6 decimals) transfer instruction from the payer's token account to the merchant's. */
function usdtTransfer(payer: PublicKey, merchant: PublicKey, amountUnits: bigint) {
  const from = getAssociatedTokenAddressSync(usdt, payer);
  const to = getAssociatedTokenAddressSync(usdt, merchant, true);
  return createTransferCheckedInstruction(from, usdt, to, payer, amountUnits, 6);
}

/** A fresh payer sends `amountUnits` USDT to a fresh wallet, tagged with a fresh reference. */
async function payStranger(amountUnits: bigint) {
  const payer = await chain.newPayer({ mint: usdt });
  const ref = reference();
  const recipientOwner = Keypair.generate().publicKey;
  const signature = await chain.transfer({ payer, recipientOwner, mint: usdt, amountUnits, reference: ref });
  return { payer, ref, signature };
}
const balanceOf = (balances: TokenBalance[] | null | undefined, accountIndex: number) =>
  BigInt(balances?.find((b) => b.accountIndex === accountIndex)?.uiTokenAmount.amount ?? '0');

async function rpc(body: unknown): Promise<unknown> {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

describe('local Solana chain (litesvm behind JSON-RPC)', () => {
  it('starts fast and answers the basics through web3.js', async () => {
    expect(startupMs).toBeLessThan(2000);
    const { blockhash, lastValidBlockHeight } = await chain.connection.getLatestBlockhash();
    expect(blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(lastValidBlockHeight).toBe((await chain.connection.getBlockHeight()) + 150);
    expect(await chain.connection.getVersion()).toHaveProperty('solana-core');
    expect(typeof (await chain.connection.getGenesisHash())).toBe('string');
    expect((await chain.connection.getEpochInfo()).absoluteSlot).toBe(await chain.connection.getSlot());
    expect(await chain.connection.getMinimumBalanceForRentExemption(165)).toBeGreaterThan(0);
    expect(Array.isArray(await chain.connection.getRecentPrioritizationFees())).toBe(true);
    console.log(`[local-solana] startup (server + USDT mint): ${startupMs.toFixed(0)} ms`);
  });

  it('creates 6-decimal mints and funds payers; spl-token getMint/getAccount read them', async () => {
    const mint = await getMint(chain.connection, usdt);
    expect(mint.decimals).toBe(6);
    expect(mint.isInitialized).toBe(true);
    const payer = await chain.newPayer({ mint: usdt, units: 5_000_000n });
    const ata = getAssociatedTokenAddressSync(usdt, payer.publicKey);
    const account = await getAccount(chain.connection, ata);
    expect(account.amount).toBe(5_000_000n);
    expect(account.owner.equals(payer.publicKey)).toBe(true);
    expect(await chain.tokenBalance(payer.publicKey, usdt)).toBe(5_000_000n);
    expect(await chain.connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL);
    expect((await chain.connection.getTokenAccountBalance(ata)).value).toEqual({
      amount: '5000000',
      decimals: 6,
      uiAmount: 5,
      uiAmountString: '5',
    });
    const byOwner = await chain.connection.getTokenAccountsByOwner(payer.publicKey, { mint: usdt });
    expect(byOwner.value.map((a) => a.pubkey.toBase58())).toEqual([ata.toBase58()]);
    const parsed = await chain.connection.getParsedAccountInfo(ata);
    expect(parsed.value?.data).toMatchObject({ program: 'spl-token', parsed: { type: 'account' } });
  });

  it('indexes a wallet-style transfer by reference, with mainnet-shaped token balances', async () => {
    const merchant = Keypair.generate().publicKey;
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    const ref = reference();
    const signature = await chain.transfer({
      payer,
      recipientOwner: merchant,
      mint: usdt,
      amountUnits: 2_500_000n,
      reference: ref,
      memo: 'order 42',
    });

    const found = await chain.connection.getSignaturesForAddress(ref);
    expect(found).toEqual([
      expect.objectContaining({
        signature,
        err: null,
        memo: '[8] order 42',
        confirmationStatus: 'finalized', // finality is immediate unless held
      }),
    ]);
    expect(found[0]!.blockTime).toBeCloseTo(Date.now() / 1000, -1);

    const tx = await chain.connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
    expect(tx?.version).toBe('legacy');
    const keys = tx!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const merchantAta = getAssociatedTokenAddressSync(usdt, merchant, true);
    const payerAta = getAssociatedTokenAddressSync(usdt, payer.publicKey);
    const merchantIndex = keys.indexOf(merchantAta.toBase58());
    const payerIndex = keys.indexOf(payerAta.toBase58());
    expect(keys).toContain(ref.toBase58());
    const meta = tx!.meta!;
    expect(meta.err).toBeNull();
    // The merchant's account was created by this transaction: post only.
    expect(meta.preTokenBalances!.find((b) => b.accountIndex === merchantIndex)).toBeUndefined();
    expect(meta.postTokenBalances!.find((b) => b.accountIndex === merchantIndex)).toEqual({
      accountIndex: merchantIndex,
      mint: usdt.toBase58(),
      owner: merchant.toBase58(),
      programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      uiTokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' },
    });
    expect(balanceOf(meta.preTokenBalances, payerIndex) - balanceOf(meta.postTokenBalances, payerIndex)).toBe(
      2_500_000n,
    );
    expect(meta.fee).toBe(5000);
    expect(meta.preBalances[0]! - meta.postBalances[0]!).toBe(
      5000 + (await chain.connection.getMinimumBalanceForRentExemption(165)),
    );
    expect(meta.logMessages!.length).toBeGreaterThan(0);
    expect(meta.innerInstructions!.length).toBeGreaterThan(0); // the ATA program's CPIs
    expect(meta.loadedAddresses).toEqual({ writable: [], readonly: [] });
    expect(meta.computeUnitsConsumed).toBeGreaterThan(0);
    expect(tx!.blockTime).toBe(found[0]!.blockTime);
    expect(tx!.slot).toBe(found[0]!.slot);

    // jsonParsed, as getParsedTransaction reads it: references show up as multisig "signers".
    const parsed = await chain.connection.getParsedTransaction(signature, {
      maxSupportedTransactionVersion: 0,
      commitment: 'confirmed',
    });
    const instructions = parsed!.transaction.message.instructions as ParsedInstruction[];
    expect(instructions.map((ix) => ix.parsed?.type ?? ix.parsed)).toEqual([
      'createIdempotent',
      'order 42',
      'transferChecked',
    ]);
    expect(instructions[2]!.parsed.info).toMatchObject({
      source: payerAta.toBase58(),
      destination: merchantAta.toBase58(),
      mint: usdt.toBase58(),
      multisigAuthority: payer.publicKey.toBase58(),
      signers: [ref.toBase58()],
      tokenAmount: { amount: '2500000', decimals: 6 },
    });
    expect(parsed!.meta!.postTokenBalances).toEqual(meta.postTokenBalances);
    expect(await chain.tokenBalance(merchant, usdt)).toBe(2_500_000n);
  });

  it('satisfies @solana/pay findReference and validateTransfer', async () => {
    const merchant = Keypair.generate().publicKey;
    const payer = await chain.newPayer({ mint: usdt });
    const ref = reference();
    const amount = new BigNumber('12.345678');
    const signature = await chain.transfer({
      payer,
      recipientOwner: merchant,
      mint: usdt,
      amountUnits: 12_345_678n,
      reference: ref,
      memo: 'thanks',
    });
    const found = await findReference(chain.connection, ref, { finality: 'confirmed' });
    expect(found.signature).toBe(signature);
    const validated = await validateTransfer(
      chain.connection,
      signature,
      { recipient: merchant, amount, splToken: usdt, reference: ref, memo: 'thanks' },
      { commitment: 'confirmed' },
    );
    expect(validated.transaction.signatures[0]).toBe(signature);
    // A second payment to an existing account: pre and post both present.
    const again = await chain.transfer({
      payer,
      recipientOwner: merchant,
      mint: usdt,
      amountUnits: 1n,
      reference: ref,
    });
    expect(again).not.toBe(signature);
    const validateAgain = (amount: string) =>
      validateTransfer(
        chain.connection,
        again,
        { recipient: merchant, amount: new BigNumber(amount), splToken: usdt, reference: ref },
        { commitment: 'confirmed' },
      );
    await expect(validateAgain('0.000001')).resolves.toBeTruthy();
    await expect(validateAgain('1')).rejects.toThrow('amount not transferred');
    expect((await chain.connection.getSignaturesForAddress(ref)).map((s) => s.signature)).toEqual([
      again,
      signature,
    ]);
  });

  it('pages getSignaturesForAddress newest first with limit, before and until', async () => {
    const payer = await chain.newPayer({ mint: usdt });
    const ref = reference();
    const merchant = Keypair.generate().publicKey;
    const sigs: string[] = [];
    for (const amountUnits of [1n, 2n, 3n, 4n])
      sigs.push(
        await chain.transfer({ payer, recipientOwner: merchant, mint: usdt, amountUnits, reference: ref }),
      );
    const [s1, s2, s3, s4] = sigs as [string, string, string, string];
    const page = async (opts: { limit?: number; before?: string; until?: string }) =>
      (await chain.connection.getSignaturesForAddress(ref, opts)).map((s) => s.signature);
    expect(await page({})).toEqual([s4, s3, s2, s1]);
    expect(await page({ limit: 2 })).toEqual([s4, s3]);
    expect(await page({ limit: 2, before: s3 })).toEqual([s2, s1]);
    expect(await page({ until: s2 })).toEqual([s4, s3]);
    expect(await page({ before: s4, until: s1 })).toEqual([s3, s2]);
    const slots = (await chain.connection.getSignaturesForAddress(ref)).map((s) => s.slot);
    expect(slots).toEqual([...slots].sort((a, b) => b - a)); // one slot per transaction
    expect(new Set(slots).size).toBe(4);
  });

  it('confirms through the websocket with sendAndConfirmTransaction', async () => {
    const payer = await chain.newPayer({});
    const to = Keypair.generate().publicKey;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 5_000_000 }),
    );
    const signature = await sendAndConfirmTransaction(chain.connection, tx, [payer]);
    expect(await chain.connection.getBalance(to)).toBe(5_000_000);
    const status = await chain.connection.getSignatureStatus(signature, { searchTransactionHistory: true });
    expect(status.value).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(chain.rpcCalls.signatureSubscribe).toBeGreaterThanOrEqual(1);
  });

  it('signs and sends a transaction-request style transaction; fee includes the priority fee', async () => {
    const merchant = Keypair.generate().publicKey;
    await chain.mintTo(merchant, usdt, 0n); // the merchant's account exists already
    const payer = await chain.newPayer({ mint: usdt });
    const ref = reference();
    const { blockhash, lastValidBlockHeight } = await chain.connection.getLatestBlockhash();
    const transfer = usdtTransfer(payer.publicKey, merchant, 1_000_000n);
    transfer.keys.push({ pubkey: ref, isSigner: false, isWritable: false });
    const unsigned = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 80_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 12_345 }),
      transfer,
    );
    const base64 = unsigned
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64');
    const signature = await chain.signAndSend(base64, payer);
    const tx = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const priority = Math.ceil((12_345 * 80_000) / 1_000_000);
    expect(tx!.meta!.fee).toBe(5000 + priority);
    // The payer's token account and the merchant's already existed: the payer only paid the fee.
    expect(tx!.meta!.preBalances[0]! - tx!.meta!.postBalances[0]!).toBe(5000 + priority);
    expect((await findReference(chain.connection, ref, { finality: 'confirmed' })).signature).toBe(signature);
  });

  it('holds finality: visible at confirmed, invisible at finalized until finalizeAll()', async () => {
    chain.holdFinality(true);
    try {
      const { payer, ref, signature } = await payStranger(1_000_000n);
      const opts = { maxSupportedTransactionVersion: 0 } as const;
      expect(
        await chain.connection.getTransaction(signature, { ...opts, commitment: 'confirmed' }),
      ).not.toBeNull();
      expect(
        await chain.connection.getTransaction(signature, { ...opts, commitment: 'finalized' }),
      ).toBeNull();
      expect((await chain.connection.getSignatureStatus(signature)).value).toMatchObject({
        confirmationStatus: 'confirmed',
        confirmations: 1,
      });
      expect(await chain.connection.getSignaturesForAddress(ref, {}, 'finalized')).toEqual([]);
      expect(await chain.connection.getSignaturesForAddress(ref, {}, 'confirmed')).toHaveLength(1);

      // A 'finalized' websocket confirmation waits for finalizeAll() too.
      const payer2 = await chain.newPayer({});
      const latest = await chain.connection.getLatestBlockhash();
      const tx = new Transaction({ feePayer: payer2.publicKey, ...latest }).add(
        SystemProgram.transfer({ fromPubkey: payer2.publicKey, toPubkey: payer.publicKey, lamports: 1000 }),
      );
      tx.sign(payer2);
      const sig2 = await chain.connection.sendRawTransaction(tx.serialize());
      let finalized = false;
      const confirming = chain.connection
        .confirmTransaction({ signature: sig2, ...latest }, 'finalized')
        .then((result) => ((finalized = true), result));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(finalized).toBe(false);

      chain.finalizeAll();
      expect((await confirming).value.err).toBeNull();
      expect(
        await chain.connection.getTransaction(signature, { ...opts, commitment: 'finalized' }),
      ).not.toBeNull();
      expect((await chain.connection.getSignatureStatus(signature)).value).toMatchObject({
        confirmationStatus: 'finalized',
        confirmations: null,
      });
      expect(await chain.connection.getSignaturesForAddress(ref, {}, 'finalized')).toHaveLength(1);
    } finally {
      chain.holdFinality(false);
    }
  });

  it('stopRpc refuses connections; startRpc brings it back on the same port with state intact', async () => {
    const { ref, signature } = await payStranger(3n);
    const { url } = chain;
    await chain.stopRpc();
    let minted: Keypair;
    try {
      const refused = await fetch(chain.url, { method: 'POST', body: '{}' }).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
      await expect(chain.connection.getSlot()).rejects.toThrow();
      // The chain itself keeps working meanwhile (e.g. a payment landing while our RPC is down).
      minted = await chain.newPayer({ mint: usdt, units: 7n });
    } finally {
      await chain.startRpc();
    }
    expect(chain.url).toBe(url);
    expect(chain.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await chain.connection.getSignaturesForAddress(ref))[0]?.signature).toBe(signature);
    expect(await chain.tokenBalance(minted.publicKey, usdt)).toBe(7n);
    expect(
      (await getAccount(chain.connection, getAssociatedTokenAddressSync(usdt, minted.publicKey))).amount,
    ).toBe(7n);
  });

  it('runs v0 transactions, with keys from an address lookup table indexed too', async () => {
    const merchant = Keypair.generate().publicKey;
    const payer = await chain.newPayer({ mint: usdt });
    const ref = reference();
    const tableRef = reference();
    const table = await chain.createLookupTable([tableRef]);
    const lookup = (await chain.connection.getAddressLookupTable(table)).value!;
    expect(lookup.state.addresses.map((a) => a.toBase58())).toEqual([tableRef.toBase58()]);

    await chain.mintTo(merchant, usdt, 0n);
    const transfer = usdtTransfer(payer.publicKey, merchant, 400_000n);
    transfer.keys.push(
      { pubkey: ref, isSigner: false, isWritable: false },
      { pubkey: tableRef, isSigner: false, isWritable: false },
    );
    const { blockhash } = await chain.connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [transfer],
    }).compileToV0Message([lookup]);
    expect(message.addressTableLookups).toHaveLength(1);
    const tx = new VersionedTransaction(message);
    tx.sign([payer]);
    const signature = await chain.connection.sendRawTransaction(tx.serialize());

    const viaTable = await chain.connection.getSignaturesForAddress(tableRef);
    expect(viaTable.map((s) => s.signature)).toEqual([signature]);
    const fetched = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(fetched!.version).toBe(0);
    expect(fetched!.meta!.loadedAddresses!.readonly.map((k) => k.toBase58())).toEqual([tableRef.toBase58()]);
    const merchantIndex = fetched!.transaction.message.staticAccountKeys.findIndex((k) =>
      k.equals(getAssociatedTokenAddressSync(usdt, merchant, true)),
    );
    expect(
      balanceOf(fetched!.meta!.postTokenBalances, merchantIndex) -
        balanceOf(fetched!.meta!.preTokenBalances, merchantIndex),
    ).toBe(400_000n);
    // Without maxSupportedTransactionVersion a v0 transaction is refused, as on mainnet.
    await expect(chain.connection.getTransaction(signature)).rejects.toThrow(
      /maxSupportedTransactionVersion/,
    );
  });

  it('refuses a failing transaction at preflight, and lands it with meta.err when skipPreflight', async () => {
    const merchant = Keypair.generate().publicKey;
    const payer = await chain.newPayer({ mint: usdt, units: 1_000n });
    const ref = reference();
    const overdraw = { payer, recipientOwner: merchant, mint: usdt, amountUnits: 2_000n, reference: ref };

    const refused = await chain.transfer(overdraw).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LocalRpcError);
    expect((refused as LocalRpcError).code).toBe(-32002);
    expect((refused as LocalRpcError).message).toMatch(
      /^Transaction simulation failed: Error processing Instruction 1/,
    );
    expect((refused as LocalRpcError).logs.length).toBeGreaterThan(0);
    expect(await chain.connection.getSignaturesForAddress(ref)).toEqual([]);
    expect(await chain.connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL); // no fee charged

    const signature = await chain.transfer({ ...overdraw, skipPreflight: true });
    const listed = await chain.connection.getSignaturesForAddress(ref);
    expect(listed).toEqual([
      expect.objectContaining({ signature, err: { InstructionError: [1, { Custom: 1 }] } }),
    ]);
    const tx = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(tx!.meta!.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(tx!.meta!.preTokenBalances).toEqual(tx!.meta!.postTokenBalances);
    expect(tx!.meta!.preBalances[0]! - tx!.meta!.postBalances[0]!).toBe(5000); // the fee, nothing else
    expect((await chain.connection.getSignatureStatus(signature)).value?.err).toEqual({
      InstructionError: [1, { Custom: 1 }],
    });
    expect(await chain.tokenBalance(merchant, usdt)).toBe(0n);
  });

  it('expires blockhashes: an old one gets BlockhashNotFound, a dropped transaction has no status', async () => {
    const payer = await chain.newPayer({});
    const stale = await chain.connection.getLatestBlockhash();
    chain.expireBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, ...stale }).add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1e6,
      }),
    );
    tx.sign(payer);
    await expect(chain.connection.sendRawTransaction(tx.serialize())).rejects.toThrow(/Blockhash not found/);
    const dropped = await chain.connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    expect(
      (await chain.connection.getSignatureStatus(dropped, { searchTransactionHistory: true })).value,
    ).toBeNull();
    expect((await chain.connection.getLatestBlockhash()).blockhash).not.toBe(stale.blockhash);

    // Blockhashes also age out after 150 blocks, as lastValidBlockHeight says.
    const aging = await chain.connection.getLatestBlockhash();
    chain.advanceSlots(151);
    expect(await chain.connection.getBlockHeight()).toBeGreaterThan(aging.lastValidBlockHeight);
    expect((await chain.connection.isBlockhashValid(aging.blockhash)).value).toBe(false);
  });

  it('counts RPC calls per method, batch entries included, and answers unknown methods with -32601', async () => {
    chain.resetRpcCalls();
    expect(chain.rpcCalls).toEqual({});
    await chain.connection.getSlot();
    await chain.connection.getSlot();
    const batch = (await rpc([
      { jsonrpc: '2.0', id: 1, method: 'getBlockHeight' },
      { jsonrpc: '2.0', id: 2, method: 'getHealth' },
      { jsonrpc: '2.0', id: 3, method: 'getBlockHeight' },
    ])) as { id: number; result: unknown }[];
    expect(batch.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(batch[1]!.result).toBe('ok');
    expect(await rpc({ jsonrpc: '2.0', id: 9, method: 'noSuchMethod', params: [] })).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32601, message: 'Method not found' },
    });
    expect(chain.rpcCalls).toEqual({ getSlot: 2, getBlockHeight: 2, getHealth: 1, noSuchMethod: 1 });

    chain.setRpcFault((method) => (method === 'getSlot' ? { httpStatus: 503 } : undefined));
    await expect(chain.connection.getSlot()).rejects.toThrow(/503/);
    chain.setRpcFault(null);
    expect(chain.rpcCalls.getSlot).toBe(3);
  });

  it('benchmark: 100 wallet transfers, each found by reference and fetched', async () => {
    const merchant = Keypair.generate().publicKey;
    const payers = await Promise.all(Array.from({ length: 10 }, () => chain.newPayer({ mint: usdt })));
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      const ref = reference();
      const signature = await chain.transfer({
        payer: payers[i % payers.length]!,
        recipientOwner: merchant,
        mint: usdt,
        amountUnits: 1_000_000n,
        reference: ref,
      });
      const [found] = await chain.connection.getSignaturesForAddress(ref);
      expect(found?.signature).toBe(signature);
      const tx = await chain.connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(tx?.meta?.err).toBeNull();
    }
    const elapsed = performance.now() - started;
    expect(await chain.tokenBalance(merchant, usdt)).toBe(100_000_000n);
    console.log(
      `[local-solana] 100 transfers + getSignaturesForAddress + getTransaction: ${elapsed.toFixed(0)} ms`,
    );
  });
});
