import type { Browser } from 'puppeteer-core';
import { toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { startLocalTron, type LocalTron, type TronWallet } from '../../sandbox/chains/tron';
import { startPaymentHarness, usePaymentStack, type PaymentHarness } from '../support/payment-harness';
import { TEST_PASSWORD } from '../support/test-server';
import { expectAccessible, launchBrowser } from './support/browser';
import { openDashboard, type DashboardPage } from './support/dashboard-page';

/**
 * TRON in the merchant dashboard, in a real Chromium against the real service on the local TRON
 * chain: a TRON refund shows what sending it costs (energy, bandwidth, TRX) and warns while the
 * receiving wallet's TRX will not cover it (gone once the wallet holds enough); the Wallets page
 * takes a base58 T… address and shows the API's refusal of a hex one in words.
 */

let tron: LocalTron;
let h: PaymentHarness;
let browser: Browser;
let d: DashboardPage;

usePaymentStack(
  async () => {
    [tron, browser] = await Promise.all([startLocalTron(), launchBrowser()]);
    h = await startPaymentHarness({ TRON_RPC_URL: tron.jsonRpcUrl, TRON_API_URL: tron.url });
  },
  () => [{ stop: () => browser?.close() }, h, tron],
);

const SUN = 1_000_000n;
const tagHex = (reference: string) => toHex(decodeBase58(reference)!);

describe('TRON in the dashboard', () => {
  let shop: Awaited<ReturnType<PaymentHarness['newShop']>> & { key: TronWallet };
  let reference = '';

  it("a TRON refund shows its cost and warns while the wallet's TRX does not cover it", async () => {
    // The receiving wallet holds 1 TRX: a USDT transfer burns far more without staked energy.
    const key = await tron.newWallet({ trx: 1n * SUN });
    shop = { ...(await h.newShop('TRON', key.address)), key };
    const payer = await tron.newWallet({ usdt: 100_000_000n });
    const order = await h.createOrder(shop, { amount: '8' });
    reference = order.reference;
    await tron.transfer({ from: payer, to: shop.wallet, units: 8_000_000n, tag: tagHex(reference) });
    await tron.solidify();
    await h.settle(shop, reference, 'PAID');
    const created = await h.server.api('POST', `/orders/${reference}/refunds`, {
      token: shop.token,
      body: { amount: '3', to: payer.address, reason: 'Returned item' },
    });
    expect(created.status, created.text).toBe(201);
    const cost = created.body.transaction.estimatedCost as { trx: string; energy: number; covered: boolean };
    expect(cost.covered).toBe(false);

    d = await openDashboard(browser, h.server.url);
    await d.signIn(shop.email, TEST_PASSWORD);
    await d.go(`/orders/${reference}`);
    await d.waitText('Estimated network cost');
    const text = await d.bodyText();
    expect(text).toContain('TRON');
    expect(text).toMatch(
      new RegExp(`${cost.trx.replace('.', '\\.')}\\d* TRX: ${cost.energy.toLocaleString('en')} energy`),
    );
    expect(text).toContain('1.00 TRX');
    const warning = await d.page.$eval('.refund-cost .notice.warn', (n) => (n as HTMLElement).innerText);
    expect(warning).toContain(`Not enough TRX: the sending wallet ${shop.wallet} holds 1.00 TRX`);
    expect(warning).toContain('the network refuses the transfer');
    // The refund is still there to send: its link and QR code (the bare refund address).
    const walletLink = await d.page.$eval('.sign-refund input', (input) => (input as HTMLInputElement).value);
    expect(walletLink).toBe(`tron:${payer.address}?amount=3`);
    await expectAccessible(d.page, 'order (TRON refund, TRX short)');
    await d.page.$eval('.refund-cost', (n) => n.scrollIntoView({ block: 'center' }));
    await d.shot('40-order-tron-refund-trx-short');

    // The same warning in Portuguese (a tab whose browser asks for pt-BR, signed in by the same cookie).
    const pt = await openDashboard(browser, h.server.url, { languages: ['pt-BR'] });
    await pt.go(`/orders/${reference}`);
    await pt.waitText('Custo de rede estimado');
    await pt.waitText(`TRX insuficiente: a carteira que envia (${shop.wallet}) tem 1,00 TRX`);
    await pt.page.close();

    // Once the wallet holds enough TRX the refund's cost stands without the warning.
    await tron.fundTrx(shop.wallet, 100n * SUN);
    await d.go(`/orders/${reference}`);
    await d.waitText('101.00 TRX');
    expect(await d.page.$('.refund-cost .notice.warn')).toBeNull();
    expect(await d.bodyText()).toContain('Estimated network cost');
  });

  it('the Wallets page takes a base58 T… address and shows the refusal of a hex one', async () => {
    await d.go('/wallets');
    await d.select('Network', 'TRON');
    await d.waitText('Your TRON address in base58: starts with T, 34 characters');
    const spare = await tron.newWallet();
    await d.fill('Address', `41${spare.hex.slice(2)}`);
    await d.click('Add a wallet');
    await d.page.waitForSelector('form .notice.error');
    const refusal = await d.page.$eval('form .notice.error', (n) => (n as HTMLElement).innerText);
    expect(refusal).toContain('public_address');
    await d.fill('Address', spare.address);
    await d.click('Add a wallet');
    await d.waitText('Wallet on TRON added.');
    expect(await d.page.$('form .notice.error')).toBeNull();
    expect(await d.bodyText()).toContain(spare.address);
  });

  it("the Orders page's network filter offers TRON and finds the TRON order", async () => {
    await d.go('/orders');
    const options = await d.page.$$eval('#f-network option', (list) =>
      list.map((o) => (o as HTMLOptionElement).textContent),
    );
    expect(options).toContain('TRON');
    await d.go('/orders?network=TRON');
    await d.page.waitForSelector(`a.order-link[href="/dashboard/orders/${reference}"]`);
    await d.go('/orders?network=SOLANA');
    await d.waitText('No order matches these filters.');
    expect(await d.page.$(`a.order-link[href="/dashboard/orders/${reference}"]`)).toBeNull();
  });
});
