import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { newMerchant, TEST_PASSWORD } from '../support/test-server';
import {
  expectAccessible,
  launchBrowser,
  openPage,
  screenshot,
  visibleText,
  waitForStatus,
} from './support/browser';
import { DASHBOARD_SCREENSHOTS, openDashboard, type DashboardPage } from './support/dashboard-page';

/**
 * The sandbox in a real Chromium, against the sandbox's own chains and the service with
 * SANDBOX=true (as `npm run sandbox` runs them): the "Sandbox, no real money" banner before sign-in,
 * on an order and on the checkout (with or without its script); "Simulate payment" of what is due
 * (PAID) and of half of it (partly paid); a refund sent from the sandbox wallet (Refunded); the
 * checkout's "Pay with the sandbox wallet" (paid). Screenshots: docs/dashboard/sandbox-*.png and
 * docs/checkout/sandbox-*.png. The steps share one merchant and run in order.
 */

let stack: SandboxStack;
let browser: Browser;
let merchant: { email: string; token: string };
let d: DashboardPage;
/** The order paid exactly through "Simulate payment", refunded later. */
let paidReference = '';

beforeAll(async () => {
  [stack, browser] = await Promise.all([startSandboxStack(), launchBrowser()]);
  merchant = await newMerchant(stack.server, { name: 'Loja Sandbox' });
  await stack.addWallets(merchant.token);
  d = await openDashboard(browser, stack.server.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A screenshot from the top: the banner is sticky, and a full page taken scrolled shows it midway. */
async function shot(name: string, fullPage = false) {
  await d.page.evaluate(() => window.scrollTo(0, 0));
  await d.page.screenshot({
    path: path.join(DASHBOARD_SCREENSHOTS, `sandbox-${name}.png`) as `${string}.png`,
    fullPage,
  });
}

async function createOrder(network: string, amount: string, more: Record<string, unknown> = {}) {
  const res = await stack.server.api<{ reference: string }>('POST', '/orders', {
    token: merchant.token,
    body: { network, token: 'USDT', amount, description: `Sandbox ${network} order`, ...more },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.reference;
}

/** The banner's text, and that it is a status (read out), in view at the top of the page. */
async function banner(page: Page) {
  await page.waitForSelector('#sandbox-banner', { visible: true });
  return page.$eval('#sandbox-banner', (node) => ({
    text: (node as HTMLElement).innerText,
    role: node.getAttribute('role'),
    top: node.getBoundingClientRect().top,
  }));
}

/** Waits until the order page's status badge reads `label`. */
async function waitOrderStatus(label: string) {
  await d.page.waitForFunction(
    (want: string) => document.querySelector('.page-header .badge')?.textContent === want,
    { timeout: 30_000, polling: 100 },
    label,
  );
}

describe('the sandbox: dashboard', () => {
  it('says "Sandbox, no real money" on the sign-in page, before sign-in, in the chosen language', async () => {
    await d.go('');
    await d.page.waitForSelector('#email');
    expect(await banner(d.page)).toMatchObject({ role: 'status', top: 0 });
    expect((await banner(d.page)).text).toMatch(/^Sandbox, no real money/);
    await expectAccessible(d.page, 'sandbox sign-in');
    await shot('1-sign-in');
    await d.page.select('.lang select', 'pt-BR');
    await d.waitText('Sandbox, sem dinheiro real');
    await d.page.select('.lang select', 'es');
    await d.waitText('Sandbox, sin dinero real');
    await d.page.select('.lang select', 'en');
    await d.waitText('Sandbox, no real money');
    await d.page.type('#email', merchant.email);
    await d.page.type('#password', TEST_PASSWORD);
    await d.click('Sign in');
    await d.page.waitForSelector('#main-nav');
    expect((await banner(d.page)).text).toContain('Sandbox, no real money');
  });

  it('"Simulate payment", exact: the order turns Paid on the page by itself', async () => {
    paidReference = await createOrder('SOLANA', '12.5');
    await d.go(`/orders/${paidReference}`);
    await d.waitText('Live: changes show up by themselves.');
    expect((await banner(d.page)).text).toContain('Sandbox, no real money');
    await d.page.waitForSelector('#simulate-payment');
    await expectAccessible(d.page, 'sandbox order');
    await shot('2-order-simulate', true);
    // Exact, tagged, not reported: the scanner finds the transfer by its tag.
    await d.click('Simulate payment');
    await d.waitText(/Sent 12\.50 USDT \(transaction \w+…\)/);
    await waitOrderStatus('Paid');
    await shot('3-order-paid', true);
    const order = await stack.server.api('GET', `/orders/${paidReference}`, { token: merchant.token });
    expect(order.body).toMatchObject({ status: 'PAID', amountReceived: '12.500000' });
  });

  it('"Simulate payment", part and reported: the order is Partly paid', async () => {
    const reference = await createOrder('POLYGON', '10');
    await d.go(`/orders/${reference}`);
    await d.page.waitForSelector('#simulate-payment');
    await d.select('Amount', 'part');
    await d.page.click('xpath/.//label[contains(., "Reported: tell the service")]');
    await d.click('Simulate payment');
    await d.waitText(/Sent 5\.00 USDT/);
    await waitOrderStatus('Partly paid');
    await shot('4-order-partly-paid', true);
    const order = await stack.server.api('GET', `/orders/${reference}`, { token: merchant.token });
    expect(order.body).toMatchObject({ status: 'UNDERPAID', amountReceived: '5.000000' });
  });

  it('"Send refund from the sandbox wallet": the PENDING refund is sent and turns Refunded', async () => {
    await d.go(`/orders/${paidReference}`);
    await d.waitText('New refund');
    await d.fill('Amount (USDT)', '2');
    await d.page.click('xpath/.//label[contains(., "Send it to an address I know")]');
    await d.fill('Address on Solana', Keypair.generate().publicKey.toBase58());
    await d.click('Create refund');
    await d.waitText('Refund of 2.00 USDT created.');
    await d.waitText('Send refund from the sandbox wallet');
    await expectAccessible(d.page, 'sandbox refund pending');
    await shot('5-refund-pending', true);
    await d.click('Send refund from the sandbox wallet');
    // Sent ("Sent from the sandbox wallet …" while it is PENDING), then verified on chain like any.
    await d.page.waitForFunction(
      () => document.querySelector('ul.refunds li.refund .badge')?.textContent === 'Refunded',
      { timeout: 30_000, polling: 100 },
    );
    // The order's figures follow: 2.00 refunded.
    await d.page.waitForFunction(
      () => document.querySelector('dl.figures div:nth-child(3) dd')?.textContent === '2.00 USDT',
      { timeout: 10_000, polling: 100 },
    );
    // Sent once: no button left to send it again.
    expect(await d.bodyText()).not.toContain('Send refund from the sandbox wallet');
    await shot('6-refund-sent', true);
    const refunds = await stack.server.api('GET', `/orders/${paidReference}/refunds`, {
      token: merchant.token,
    });
    expect(refunds.body.items).toMatchObject([{ status: 'SUCCEEDED', amount: '2.000000' }]);
  });
});

describe('the sandbox: checkout', () => {
  it('"Pay with the sandbox wallet": the banner, then the page shows the order paid', async () => {
    const reference = await createOrder('POLYGON', '3');
    const page = await openPage(browser);
    await page.goto(`${stack.server.url}/checkout/${reference}`, { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Waiting for your payment');
    expect(await banner(page)).toMatchObject({ role: 'status', top: 0 });
    expect((await banner(page)).text).toContain('Sandbox, no real money');
    expect(await visibleText(page, '#sandbox-pay')).toContain('Pay with the sandbox wallet');
    await expectAccessible(page, 'sandbox checkout');
    await screenshot(page, 'sandbox-1-waiting');
    await page.click('#sandbox-pay-button');
    await waitForStatus(page, 'Paid. Thank you!', 30_000);
    expect(await visibleText(page, '#sandbox-pay')).toBe(''); // nothing to pay twice with
    expect((await banner(page)).text).toContain('Sandbox, no real money');
    await expectAccessible(page, 'sandbox checkout paid');
    await screenshot(page, 'sandbox-2-paid');
    const order = await stack.server.api('GET', `/orders/${reference}`, { token: merchant.token });
    expect(order.body).toMatchObject({ status: 'PAID', amountReceived: '3.000000' });
    await page.close();
  });

  it('the banner in the payer’s language, and without the script (server-rendered)', async () => {
    // Payable every way the sandbox has: without the script, a wallet link per way.
    const reference = await createOrder('SOLANA', '1', { paymentOptions: 'all' });
    const page = await openPage(browser, { languages: ['es-ES', 'es'] });
    await page.setJavaScriptEnabled(false);
    await page.goto(`${stack.server.url}/checkout/${reference}`, { waitUntil: 'networkidle0' });
    expect(await banner(page)).toMatchObject({ role: 'status' });
    expect((await banner(page)).text).toContain('Sandbox, sin dinero real');
    // Without the script there is no sandbox wallet button: the page's no-script way to pay stays.
    expect(await page.$('#sandbox-pay-button')).toBeNull();
    const links = await page.$$eval('.noscript-options a', (as) => as.map((a) => a.textContent));
    expect(links.length).toBeGreaterThanOrEqual(3);
    expect(links).toContain('1.000000 USDT · BNB Smart Chain');
    await screenshot(page, 'sandbox-3-no-script-es');
    await page.close();
  });
});
