import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, Keypair, VersionedTransaction } from '@solana/web3.js';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineChain, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { randomEvmAddress, type LocalEvm } from '../../sandbox/chains/evm/local-evm';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { newMerchant, TEST_PASSWORD } from '../support/test-server';
import { expectAccessible, launchBrowser } from './support/browser';
import { DASHBOARD_SCREENSHOTS, openDashboard, type DashboardPage } from './support/dashboard-page';
import { decodeBase58 } from '../../server/lib/base58';
import type { LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { injectEvmWallet, injectSolanaWallet } from './support/test-wallets';

/**
 * Payouts in a real Chromium against the sandbox (its chains and keys): a CSV uploaded with bad rows
 * (each named by its row, nothing made), then a good one (the payout's page, Draft), approved,
 * sent from the sandbox wallets and seen Completed, item by item; then a BSC batch paid from the
 * injected browser wallet: the payout contract deployed, approved and one pay(), Completed; and a
 * Solana batch paid from an injected Wallet Standard wallet, a recipient's token account created.
 * Screenshots: docs/dashboard/payouts-*.png.
 */

let stack: SandboxStack;
let browser: Browser;
let d: DashboardPage;
let merchantToken: string;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startSandboxStack(), launchBrowser()]);
  const merchant = await newMerchant(stack.server, { name: 'Loja Sandbox' });
  merchantToken = merchant.token;
  await stack.addWallets(merchant.token);
  // The merchant's own wallets hold what they pay out.
  for (const c of stack.chains.chains.info()) {
    const funded = await stack.server.api('POST', '/sandbox/faucet', {
      token: merchant.token,
      body: { network: c.network, address: c.wallet.address, amount: '100' },
    });
    expect(funded.status, funded.text).toBe(200);
  }
  d = await openDashboard(browser, stack.server.url);
  await d.signIn(merchant.email, TEST_PASSWORD);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const shot = (name: string, page = d.page) =>
  page.screenshot({
    path: path.join(DASHBOARD_SCREENSHOTS, `payouts-${name}.png`) as `${string}.png`,
    fullPage: true,
  });

type PayoutItemInput = { network: string; token: string; to: string; amount: string };

/** Makes and approves a payout of `items` through the API; its id. */
async function approvedPayout(items: PayoutItemInput[]) {
  const api = stack.server.api;
  const made = await api<{ id: string }>('POST', '/payouts', { token: merchantToken, body: { items } });
  expect(made.status, made.text).toBe(201);
  const approved = await api('POST', `/payouts/${made.body.id}/approve`, { token: merchantToken });
  expect(approved.status, approved.text).toBe(200);
  return made.body.id;
}

/** Makes and approves a payout of `items` through the API, then opens its page (Approved). */
async function openApprovedPayout(items: PayoutItemInput[]) {
  const id = await approvedPayout(items);
  await d.go(`/payouts/${id}`);
  await d.waitText('Approved');
  return id;
}

/** The sandbox's BSC node as a browser wallet reaches it, and the key of the account's wallet there. */
function localBsc() {
  const bsc = stack.chains.chains.info().find((c) => c.network === 'BSC');
  if (!bsc || bsc.kind !== 'evm' || !bsc.chainId) throw new Error('the sandbox has no BSC chain');
  const chain = defineChain({
    id: bsc.chainId,
    name: 'Local BSC',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [bsc.rpcUrl] } },
  });
  const node = { chainId: bsc.chainId, chain, nodeUrl: bsc.rpcUrl } as unknown as LocalEvm;
  return { node, paying: bsc.wallet.privateKey as Hex, payingAddress: bsc.wallet.address };
}

/** Chooses `csv` (written to a file) in the upload form and makes the payout. */
async function upload(csv: string) {
  const file = path.join(tmpdir(), `payout-${Date.now()}.csv`);
  writeFileSync(file, csv);
  const input = await d.page.waitForSelector('input[type=file]');
  await input!.uploadFile(file);
  await d.click('Make the payout');
}

describe('payouts: dashboard', () => {
  it('a CSV with bad rows names each by its row and makes nothing', async () => {
    await d.go('/payouts');
    await d.waitText('No payouts yet.');
    await expectAccessible(d.page, 'payouts');
    await upload(
      [
        'network,token,to,amount,reference,note',
        `POLYGON,USDT,${randomEvmAddress()},1,,`,
        'POLYGON,USDT,not-an-address,1,,',
        `BSC,USDT,${randomEvmAddress()},0,,`,
      ].join('\n'),
    );
    await d.waitText('Nothing was made. Fix these and upload again:');
    const text = await d.bodyText();
    expect(text).toMatch(/Row 2, to: /);
    expect(text).toMatch(/Row 3, amount: must be greater than zero/);
    expect(text).not.toMatch(/Row 1,/);
    await expectAccessible(d.page, 'payouts bad rows');
    await shot('1-bad-rows');
  });

  it('a good CSV makes a Draft payout; approved and sent from the sandbox wallets, it is Completed', async () => {
    const solana = Keypair.generate().publicKey.toBase58();
    await upload(
      [
        'network,token,to,amount,reference,note',
        `SOLANA,USDT,${solana},1.5,aff-1,"Fees, November"`,
        `POLYGON,USDT,${randomEvmAddress()},2.25,aff-2,`,
        `BSC,USDT,${randomEvmAddress()},0.000000000000000001,aff-3,`,
      ].join('\n'),
    );
    await d.page.waitForFunction(() => location.pathname.startsWith('/dashboard/payouts/po_'));
    await d.waitText('Draft');
    await d.waitText('0.000000000000000001 USDT');
    await expectAccessible(d.page, 'payout draft');
    await shot('2-draft');
    await d.click('Approve');
    await d.click('Yes, approve');
    await d.waitText('Approved');
    await d.click('Send from the sandbox wallets');
    await d.click('Yes, send');
    // The verifier confirms the items on chain; the page follows their events by itself.
    await d.waitText('Completed', 60_000);
    expect((await d.bodyText()).match(/Confirmed/g)).toHaveLength(3);
    await expectAccessible(d.page, 'payout completed');
    await shot('3-completed');
    await d.go('/payouts');
    await d.waitText('Completed');
    await shot('4-list');
  });

  it('pays a BSC batch from the browser wallet: the payout contract deployed, approved and one pay(), Completed', async () => {
    const { node, paying } = localBsc();
    const account = Object.assign(privateKeyToAccount(paying), { privateKey: paying });
    const wallet = await injectEvmWallet(d.page, node, account, 1);

    const api = stack.server.api;
    const items = [1, 2, 3].map((i) => ({
      network: 'BSC',
      token: 'USDT',
      to: randomEvmAddress(),
      amount: `${i}.00000000000000000${i}`,
    }));
    const payoutId = await openApprovedPayout(items);
    await d.waitText('Pay from your browser wallet');
    await shot('5-wallet-approved');
    await d.click('Pay from your browser wallet');
    await d.waitText('Completed', 120_000);
    expect((await d.bodyText()).match(/Confirmed/g)).toHaveLength(3);
    await expectAccessible(d.page, 'payout paid from the browser wallet');
    await shot('6-wallet-completed');

    // Three transactions from the wallet: the deployment, the approve and one pay() for all three.
    expect(wallet.sent).toHaveLength(3);
    const sends = wallet.calls.filter((c) => c.method === 'eth_sendTransaction');
    expect((sends[0]!.params as [{ to?: string }])[0].to).toBeUndefined();
    const contracts = await api<{ items: { network: string; status: string; address: string }[] }>(
      'GET',
      '/payouts/batch-contracts',
      { token: merchantToken },
    );
    const verified = contracts.body.items.find((c) => c.network === 'BSC');
    expect(verified?.status).toBe('VERIFIED');
    expect((sends[2]!.params as [{ to: string }])[0].to.toLowerCase()).toBe(verified!.address.toLowerCase());
    const payout = await api<{ items: { txId: string }[] }>('GET', `/payouts/${payoutId}`, {
      token: merchantToken,
    });
    expect(new Set(payout.body.items.map((i) => i.txId))).toEqual(new Set([wallet.sent[2]]));
  }, 240_000);

  it('pays a Solana batch from a Wallet Standard wallet: signed and sent by the wallet, reported, Completed', async () => {
    const solana = stack.chains.chains.info().find((c) => c.network === 'SOLANA');
    if (!solana) throw new Error('the sandbox has no Solana chain');
    const merchantKey = Keypair.fromSecretKey(decodeBase58(solana.wallet.privateKey)!);
    // The wallet signs and sends on the sandbox's chain, as Phantom would on its cluster.
    const connection = new Connection(solana.rpcUrl, 'confirmed');
    const node = {
      async signAndSend(base64Tx: string, signer: Keypair) {
        const tx = VersionedTransaction.deserialize(Buffer.from(base64Tx, 'base64'));
        tx.sign([signer]);
        return connection.sendRawTransaction(tx.serialize());
      },
    } as unknown as LocalSolana;
    const wallet = await injectSolanaWallet(d.page, node, merchantKey);

    const api = stack.server.api;
    // New recipients: their USDT accounts do not exist until the batch creates them.
    const items = [1, 2, 3].map((i) => ({
      network: 'SOLANA',
      token: 'USDT',
      to: Keypair.generate().publicKey.toBase58(),
      amount: `0.${i}0000${i}`,
    }));
    const payoutId = await openApprovedPayout(items);
    await d.click('Pay from your browser wallet');
    await d.waitText('Completed', 120_000);
    expect((await d.bodyText()).match(/Confirmed/g)).toHaveLength(3);
    await shot('7-solana-wallet-completed');

    // The wallet sent what the service built, and what it sent is what the items name.
    expect(wallet.signatures.length).toBeGreaterThanOrEqual(1);
    const payout = await api<{ items: { txId: string }[] }>('GET', `/payouts/${payoutId}`, {
      token: merchantToken,
    });
    expect(new Set(payout.body.items.map((i) => i.txId))).toEqual(new Set(wallet.signatures));
  }, 240_000);
  it("refuses a browser wallet that is not the paying one, in the merchant's language: nothing signed, the payout untouched", async () => {
    const { node, payingAddress } = localBsc();
    const key = generatePrivateKey();
    const stranger = Object.assign(privateKeyToAccount(key), { privateKey: key });
    // A tab of its own (the session is the browser's): a page takes one injected wallet, and this
    // merchant's browser asks for Spanish.
    const es = await openDashboard(browser, stack.server.url, { languages: ['es-ES', 'es'] });
    try {
      const wallet = await injectEvmWallet(es.page, node, stranger, 1);
      const id = await approvedPayout([
        { network: 'BSC', token: 'USDT', to: randomEvmAddress(), amount: '1.5' },
      ]);
      await es.go(`/payouts/${id}`);
      await es.click('Pagar desde tu billetera del navegador');
      await es.waitText('Conecta la billetera pagadora');
      await shot('8-not-the-paying-wallet-es', es.page);
      const text = (await es.bodyText()).toLowerCase();
      expect(text).toContain(payingAddress.toLowerCase());
      expect(text).toContain(stranger.address.toLowerCase());
      expect(wallet.sent).toHaveLength(0);
      const payout = await stack.server.api<{ status: string; items: { status: string }[] }>(
        'GET',
        `/payouts/${id}`,
        { token: merchantToken },
      );
      expect(payout.body.status).toBe('APPROVED');
      expect(payout.body.items.map((i) => i.status)).toEqual(['PENDING']);
    } finally {
      await es.page.close();
    }
  }, 120_000);
});
