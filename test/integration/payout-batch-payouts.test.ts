import { fileURLToPath } from 'node:url';
import { encodeFunctionData, erc20Abi, getAddress, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Payout } from '../../contract/payouts';
import { compiledContract } from '../../sandbox/chains/evm/compile-token';
import { createClient, ValidationError } from '../../sdk/src';
import { randomEvmAddress, type LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { PAYOUT_BATCH_ABI, PAYOUT_BATCH_BYTECODE } from '../../server/chains/evm/payout-batch/payout-batch';
import { addMember } from '../support/members';
import { BSC_CONFIRMATIONS, withOptionChains, units18, type OptionChains } from '../support/option-chains';
import { expectFieldError, expectErrorBody } from '../support/test-server';

/**
 * Payouts through the PayoutBatch contract (issue 40) on a local BSC (18 decimals): its deployment
 * recorded only as the chain shows it (the paying wallet's, the artifact's code), a batch paid by
 * one approve and one pay(), each item confirmed by the verified contract's Paid events, items
 * paid short or elsewhere FAILED while the rest confirm, and a look-alike contract confirming nothing.
 */

type Shop = Awaited<ReturnType<OptionChains['newShop']>>;
type Tx = { network: string; purpose: string; items: string[]; transaction: { to: Address; data: Hex } };
type BatchContract = {
  network: string;
  status: string;
  address: string | null;
  deployTxId: string | null;
  deployedBy: string | null;
  reportedBy: { memberId: string; email: string } | { apiKeyId: string } | null;
};

const LOOK_ALIKE = compiledContract(
  fileURLToPath(new URL('../support/payout-lookalike/LookAlikeBatch.sol', import.meta.url)),
  'LookAlikeBatch',
);

const o = withOptionChains();

const api = () => o.h.server.api;
const evm = () => o.bsc.evm;

/** Sends and makes final (BSC_CONFIRMATIONS on top). */
async function sendFinal(from: LocalWallet, to: Address | undefined, data: Hex): Promise<Hex> {
  const hash = to
    ? await evm().sendTransaction({ from, to, data, gas: 16_000_000n })
    : await evm().walletClient.sendTransaction({ account: from, chain: evm().chain, data, to: null });
  await evm().publicClient.waitForTransactionReceipt({ hash });
  await evm().mine(BSC_CONFIRMATIONS);
  return hash;
}
const deployedAt = async (hash: Hex) =>
  getAddress((await evm().publicClient.getTransactionReceipt({ hash })).contractAddress!);

/** Reports a deployment for the shop, as its owner or as the holder of `token`. */
const reportDeployment = (s: Shop, txId: string, token = s.shop.token) =>
  api()<BatchContract>('POST', '/payouts/batch-contracts/BSC', { token, body: { txId } });

async function fundedShop() {
  const s = await o.newShop();
  await evm().mint(o.bsc.usdt, s.keys.bsc.address, units18('1000000'));
  return s;
}

/** A shop with its PayoutBatch deployed from the transaction the service builds, and verified. */
async function shopWithContract() {
  const s = await fundedShop();
  const built = await api()<{ from: string; transaction: { data: Hex } }>(
    'POST',
    '/payouts/batch-contracts',
    {
      token: s.shop.token,
      body: { network: 'BSC' },
    },
  );
  expect(built.status, built.text).toBe(200);
  expect(built.body.from).toBe(s.keys.bsc.address);
  expect(built.body.transaction.data).toBe(PAYOUT_BATCH_BYTECODE);
  const hash = await sendFinal(s.keys.bsc, undefined, built.body.transaction.data);
  const res = await reportDeployment(s, hash);
  expect(res.status, res.text).toBe(200);
  return { s, contract: await deployedAt(hash) };
}

/** An APPROVED payout of `items` BSC items (amounts with 18 decimals), and its transactions through the contract. */
async function approvedPayout(s: Shop, count: number, recipients?: Address[]) {
  const items = Array.from({ length: count }, (_, i) => ({
    network: 'BSC',
    token: 'USDT',
    to: recipients?.[i] ?? randomEvmAddress(),
    amount: `${i + 1}.00000000000000000${(i % 9) + 1}`,
  }));
  const made = await api()<Payout>('POST', '/payouts', { token: s.shop.token, body: { items } });
  expect(made.status, made.text).toBe(201);
  const approved = await api()<Payout>('POST', `/payouts/${made.body.id}/approve`, { token: s.shop.token });
  expect(approved.status, approved.text).toBe(200);
  return made.body;
}
async function transactionsOf(s: Shop, id: string, batch: boolean) {
  const res = await api()<{ transactions: Tx[] }>(
    'GET',
    `/payouts/${id}/transactions${batch ? '?batch=true' : ''}`,
    { token: s.shop.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.transactions;
}
async function report(s: Shop, id: string, txId: string) {
  const res = await api()<Payout>('POST', `/payouts/${id}/transactions`, {
    token: s.shop.token,
    body: { network: 'BSC', txId },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const payData = (token: Address, to: Address[], amounts: bigint[], tags: Hex[]) =>
  encodeFunctionData({ abi: PAYOUT_BATCH_ABI, functionName: 'pay', args: [token, to, amounts, tags] });

describe('payout batch contract: deployment', () => {
  it("is recorded only for the paying wallet's own deployment of PayoutBatch's exact code", async () => {
    const s = await fundedShop();
    const listed = await api()<{ items: BatchContract[] }>('GET', '/payouts/batch-contracts', {
      token: s.shop.token,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.find((c) => c.network === 'BSC')).toMatchObject({
      status: 'NONE',
      address: null,
    });
    expect(listed.body.items.map((c) => c.network)).not.toContain('SOLANA');

    // Someone else's PayoutBatch (another account's wallet, or a stranger's): not this account's.
    const other = await o.newShop();
    const othersDeployment = await sendFinal(other.keys.bsc, undefined, PAYOUT_BATCH_BYTECODE);
    expectFieldError(await reportDeployment(s, othersDeployment), 'body.txId');
    // The paying wallet's own contract with other code (pay() and Paid alike).
    const lookAlike = await sendFinal(s.keys.bsc, undefined, LOOK_ALIKE.bytecode);
    const refused = await reportDeployment(s, lookAlike);
    expectFieldError(refused, 'body.txId');
    expect(refused.text).toContain("is not PayoutBatch's");
    // A transaction of the paying wallet that deploys nothing.
    const transfer = await sendFinal(
      s.keys.bsc,
      o.bsc.usdt,
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [randomEvmAddress(), 1n] }),
    );
    expectFieldError(await reportDeployment(s, transfer), 'body.txId');

    // Its own deployment: 409 until final, then VERIFIED at the receipt's address.
    const hash = await evm().walletClient.sendTransaction({
      account: s.keys.bsc,
      chain: evm().chain,
      data: PAYOUT_BATCH_BYTECODE,
      to: null,
    });
    await evm().publicClient.waitForTransactionReceipt({ hash });
    expectErrorBody(await reportDeployment(s, hash), 409, 'CONFLICT');
    await evm().mine(BSC_CONFIRMATIONS);
    const verified = await reportDeployment(s, hash);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({
      network: 'BSC',
      status: 'VERIFIED',
      address: await deployedAt(hash),
      deployedBy: s.keys.bsc.address,
      reportedBy: { memberId: s.shop.id, email: s.shop.email },
    });
    // A new deployment replaces it, recorded with who reported it this time.
    const admin = await addMember(o.h.server, s.shop.id, 'admin');
    const again = await sendFinal(s.keys.bsc, undefined, PAYOUT_BATCH_BYTECODE);
    const replaced = await reportDeployment(s, again, admin.token);
    expect(replaced.status, replaced.text).toBe(200);
    const listedNow = await api()<{ items: BatchContract[] }>('GET', '/payouts/batch-contracts', {
      token: s.shop.token,
    });
    expect(listedNow.body.items.find((c) => c.network === 'BSC')).toMatchObject({
      address: await deployedAt(again),
      deployTxId: again,
      reportedBy: { memberId: admin.id, email: admin.email },
    });
    // Another account does not see it.
    const theirs = await api()<{ items: BatchContract[] }>('GET', '/payouts/batch-contracts', {
      token: other.shop.token,
    });
    expect(theirs.body.items.find((c) => c.network === 'BSC')?.status).toBe('NONE');
  }, 120_000);
});

describe('payout batch contract: paying', () => {
  it('pays 40 items with one approve and one pay(), each confirmed to the unit', async () => {
    const { s, contract } = await shopWithContract();
    const recipients = Array.from({ length: 40 }, () => randomEvmAddress());
    const payout = await approvedPayout(s, 40, recipients);

    // Without asking for the batch: one transfer per item, as before.
    expect(await transactionsOf(s, payout.id, false)).toHaveLength(40);
    const txs = await transactionsOf(s, payout.id, true);
    // The SDK says the same.
    const sdk = createClient({ baseUrl: o.h.server.url, token: s.shop.token });
    expect((await sdk.payouts.transactions(payout.id, { batch: true })).map((t) => t.purpose)).toEqual([
      'approve',
      'pay',
    ]);
    expect((await sdk.payouts.batchContracts.list()).find((c) => c.network === 'BSC')).toMatchObject({
      status: 'VERIFIED',
      address: contract,
    });
    expect((await sdk.payouts.batchContracts.deployment('BSC')).transaction.data).toBe(PAYOUT_BATCH_BYTECODE);
    await expect(sdk.payouts.batchContracts.report('BSC', '0x1234')).rejects.toBeInstanceOf(ValidationError);
    expect(txs.map((t) => [t.purpose, t.transaction.to, t.items.length])).toEqual([
      ['approve', o.bsc.usdt, 40],
      ['pay', contract, 40],
    ]);
    await sendFinal(s.keys.bsc, txs[0]!.transaction.to, txs[0]!.transaction.data);
    const paid = await sendFinal(s.keys.bsc, txs[1]!.transaction.to, txs[1]!.transaction.data);
    const after = await report(s, payout.id, paid);
    expect(after.status).toBe('COMPLETED');
    expect(after.items.every((i) => i.status === 'CONFIRMED' && i.txId === paid)).toBe(true);
    expect(await evm().balanceOf(o.bsc.usdt, recipients[1]!)).toBe(units18('2.000000000000000002'));
  }, 120_000);

  it('an item paid short and one paid to another address FAIL; the rest confirm and the batch is PARTIAL', async () => {
    const { s, contract } = await shopWithContract();
    const payout = await approvedPayout(s, 6);
    const [approveTx, payTx] = await transactionsOf(s, payout.id, true);
    const { args } = (await import('viem')).decodeFunctionData({
      abi: PAYOUT_BATCH_ABI,
      data: payTx!.transaction.data,
    });
    const [token, to, amounts, tags] = args as [Address, Address[], bigint[], Hex[]];
    const thief = randomEvmAddress();
    const forged = payData(
      token,
      to.map((a, i) => (i === 4 ? thief : a)),
      amounts.map((u, i) => (i === 1 ? u - 1n : u)),
      tags,
    );
    await sendFinal(s.keys.bsc, approveTx!.transaction.to, approveTx!.transaction.data);
    const hash = await sendFinal(s.keys.bsc, contract, forged);
    const after = await report(s, payout.id, hash);
    expect(after.items.map((i) => i.status)).toEqual([
      'CONFIRMED',
      'FAILED',
      'CONFIRMED',
      'CONFIRMED',
      'FAILED',
      'CONFIRMED',
    ]);
    expect(after.items[1]!.failureReason).toMatch(/^pays 2\.000000000000000001 of /);
    expect(after.items[4]!.failureReason).toContain(thief);
    expect(after.status).toBe('PARTIAL');
  }, 120_000);

  it("a look-alike contract's real transfers and matching Paid events confirm nothing", async () => {
    const { s } = await shopWithContract();
    const payout = await approvedPayout(s, 3);
    const [, payTx] = await transactionsOf(s, payout.id, true);
    // The paying wallet itself approves and calls the look-alike with the very same items.
    const lookAlike = await evm().deployContract(LOOK_ALIKE);
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [lookAlike, units18('100')],
    });
    await sendFinal(s.keys.bsc, o.bsc.usdt, approve);
    const hash = await sendFinal(s.keys.bsc, lookAlike, payTx!.transaction.data);
    const receipt = await evm().publicClient.getTransactionReceipt({ hash });
    expect(receipt.logs.filter((l) => l.address.toLowerCase() === o.bsc.usdt.toLowerCase())).toHaveLength(3);
    const after = await report(s, payout.id, hash);
    expect(after.items.map((i) => i.status)).toEqual(['SENT', 'SENT', 'SENT']);
    expect(after.status).toBe('SENDING');
    // Nor does a look-alike's call count for an account without a verified contract.
    const bare = await fundedShop();
    const p2 = await approvedPayout(bare, 1);
    expect((await transactionsOf(bare, p2.id, true)).map((t) => t.purpose)).toEqual(['pay']);
  }, 120_000);
});
