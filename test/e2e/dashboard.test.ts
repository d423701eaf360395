import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Keypair, PublicKey } from '@solana/web3.js';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, HTTPRequest } from 'puppeteer-core';
import { getAddress, parseUnits, toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import type { LocalEvm, LocalWallet } from '../../sandbox/chains/evm/local-evm';
import type { PaidOrder, PaymentHarness } from '../support/payment-harness';
import type { LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { newMerchant, TEST_PASSWORD } from '../support/test-server';
import { until } from '../support/until';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { expectAccessible } from './support/browser';
import { DASHBOARD_SCREENSHOTS, openDashboard, type DashboardPage } from './support/dashboard-page';
import { logStartup, startTwoChains, type TwoChains } from './support/two-chains';

/**
 * The merchant dashboard in a real Chromium against the real service, a local Solana chain
 * (litesvm) and a local Polygon chain (Hardhat, chain id 137), through a merchant's whole day:
 * sign in, set up webhooks, create two payment links, see them paid live, refund one and send the
 * refund from the receiving wallet (seen verified live), redeliver a webhook, an API key's life,
 * both CSV exports, wallets added and removed (and refused, in words), a cross-site attack, the
 * settings and a password change that ends every session, Spanish, Portuguese, sign out.
 * axe-core checks every page visited; screenshots go to docs/dashboard/e2e-*.png.
 *
 * The steps share one merchant and build on each other: they run in order, in one browser.
 */

const CONFIRMATIONS = 2;

let chains: TwoChains;
let solana: LocalSolana;
let usdtSolana: PublicKey;
let evm: LocalEvm;
let usdtPolygon: Address;
let h: PaymentHarness;
let browser: Browser;
let merchant: { id: string; email: string; token: string };
let solanaWallet: Keypair;
let polygonWallet: LocalWallet;
let d: DashboardPage;
/** The signing secret the Developers page showed once. */
let webhookSecret = '';
/** The two orders made on the New payment link page, then paid. */
const orders: Record<'SOLANA' | 'POLYGON', { reference: string; txId: string; sender: string }> = {
  SOLANA: { reference: '', txId: '', sender: '' },
  POLYGON: { reference: '', txId: '', sender: '' },
};
/** The pages the flow visited, each checked with axe-core once. */
const checked = new Set<string>();

beforeAll(async () => {
  const started = performance.now();
  chains = await startTwoChains(CONFIRMATIONS);
  ({ solana, evm, usdtSolana, usdtPolygon, h, browser } = chains);
  // The merchant and its receiving wallets exist already (the Wallets page is not this test's).
  merchant = await newMerchant(h.server, { name: 'Loja Azul' });
  // The receiving wallets: keys the test holds, as the merchant's wallet apps do (SOL for refund fees).
  solanaWallet = Keypair.generate();
  await solana.fundSol(solanaWallet.publicKey);
  polygonWallet = await evm.newWallet();
  for (const [network, address] of [
    ['SOLANA', solanaWallet.publicKey.toBase58()],
    ['POLYGON', polygonWallet.address],
  ]) {
    const added = await h.server.api('POST', '/users/me/wallets', {
      token: merchant.token,
      body: { network, public_address: address, name: `${network} till` },
    });
    expect(added.status, added.text).toBe(201);
  }
  d = await openDashboard(browser, h.server.url);
  logStartup('dashboard', started);
}, 120_000);

afterAll(() => chains?.stop());

/** axe-core on the page as it is, once per page of the flow (no serious or critical violation). */
async function accessible(page: DashboardPage, label: string) {
  if (checked.has(label)) return;
  checked.add(label);
  await expectAccessible(page.page, label);
}

/** The API as the merchant's login token calls it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function api<T = any>(method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  return h.server.api<T>(method, path, { token: merchant.token, ...opts });
}

const tagOf = (reference: string) => toHex(decodeBase58(reference)!);

function signedBy(hook: ReceivedWebhook, secret: string) {
  const header = String(hook.headers['x-webhook-signature']);
  const t = /t=(\d+)/.exec(header)?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${hook.body}`).digest('hex');
  return header.split(',').includes(`v1=${expected}`);
}

/** The main-frame navigations of `tabs` from now on: a page that updates live makes none. */
function watchNavigations(...tabs: DashboardPage[]) {
  const navigations: string[] = [];
  for (const tab of tabs)
    tab.page.on('framenavigated', (frame) => {
      if (frame === tab.page.mainFrame()) navigations.push(frame.url());
    });
  return navigations;
}

/** The API requests `tab` makes from now on (method and path), the events poll aside. */
function watchApiRequests(tab: DashboardPage) {
  const requests: string[] = [];
  tab.page.on('request', (req) => {
    if (req.resourceType() !== 'fetch' && req.resourceType() !== 'xhr') return;
    const { pathname } = new URL(req.url());
    if (pathname !== '/events') requests.push(`${req.method()} ${pathname}`);
  });
  return requests;
}

const hooksFor = (reference: string) =>
  h.receiver.received.filter((hook) => hook.json.data?.order?.reference === reference);

describe('the merchant dashboard, end to end', () => {
  it('signs in through the page (a wrong password first)', async () => {
    await d.go('');
    await d.page.waitForSelector('#email');
    await d.waitText('Sign in to your dashboard');
    // Not a sandbox (GET /networks, answered by now, says so): no "Sandbox, no real money" banner.
    expect(await d.page.$('#sandbox-banner')).toBeNull();
    await accessible(d, 'sign-in');
    await d.shot('01-sign-in');
    await d.page.type('#email', merchant.email);
    await d.page.type('#password', 'not the password');
    await d.click('Sign in');
    await d.waitText('The e-mail or the password is wrong');
    await d.shot('02-sign-in-wrong-password');
    await d.fill('Password', TEST_PASSWORD);
    await d.click('Sign in');
    await d.page.waitForSelector('#main-nav');
    await d.waitText('Orders in the last 30 days');
    expect(await d.page.$('#sandbox-banner')).toBeNull();
    await accessible(d, 'overview (empty)');
    await d.shot('03-overview-empty');

    // The session is a cookie no script can read.
    const cookie = (await d.page.cookies()).find((c) => c.name === 'stablepay_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await d.page.evaluate(() => document.cookie)).toBe('');
  });

  it('sets the webhook URL and creates the signing secret on the Developers page', async () => {
    await d.go('/developers');
    await d.waitText('No API keys.');
    await d.waitText('No signing secret yet');
    await accessible(d, 'developers');
    await d.fill('Webhook URL', h.receiver.url);
    await d.click('Save');
    await d.waitText('Saved.');
    await d.click('Create a signing secret');
    await d.waitText('New signing secret');
    await d.waitText('A signing secret is set.');
    webhookSecret = await d.page.$eval('.secret-once input', (i) => (i as HTMLInputElement).value);
    expect(webhookSecret.length).toBeGreaterThan(20);
    await d.shot('04-developers-webhook-secret');
    await d.click('I have saved it: hide it');
    // Gone from the page once hidden: shown once only.
    expect(await d.page.$('.secret-once')).toBeNull();
    const profile = await api('GET', '/users/me');
    expect(profile.body).toMatchObject({ webhook_url: h.receiver.url, webhook_secret_set: true });
  });

  it('creates a payment link on Solana and one on Polygon (New payment link page)', async () => {
    for (const [network, amount, description] of [
      ['SOLANA', '12.5', 'Mesa de jantar <b>carvalho</b>'],
      ['POLYGON', '7.25', 'Cadeira "Polygon" & banco'],
    ] as const) {
      await d.go('/links/new');
      await d.waitText('A payment order without code');
      await accessible(d, 'new link');
      await d.select('Network', network);
      await d.page.click(`xpath/.//label[contains(., "Token units")]`);
      await d.fill('Amount (USDT)', amount);
      await d.fill('Description (optional)', description);
      await d.fill('Return URL (optional)', 'https://loja.example.com/obrigado');
      if (network === 'SOLANA') await d.shot('05-new-link-form');
      await d.click('Create payment link');
      await d.waitText('Payment link ready');
      await d.waitText(
        `The payer pays ${amount.includes('.5') ? '12.50' : '7.25'} USDT on ${network === 'SOLANA' ? 'Solana' : 'Polygon'}`,
      );
      // The description is text, never markup.
      await d.waitText(description);
      expect(await d.page.$('.user-text b')).toBeNull();
      const href = await d.page.$eval('a[href^="/dashboard/orders/"]', (a) => a.getAttribute('href')!);
      orders[network].reference = decodeURIComponent(href.split('/').pop()!);
      const checkoutLink = await d.page.$$eval('.copy-field input', (inputs) =>
        inputs.map((i) => (i as HTMLInputElement).value),
      );
      expect(checkoutLink[0]).toContain(`/checkout/${orders[network].reference}`);
      expect(await d.page.$eval('img.qr', (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(
        0,
      );
      await accessible(d, 'new link created');
      await d.shot(`06-new-link-created-${network.toLowerCase()}`);
      const order = (await api<PaidOrder>('GET', `/orders/${orders[network].reference}`)).body;
      expect(order).toMatchObject({ network, status: 'PENDING', description });
    }
  });

  it('shows both orders turn PAID live, on the Orders and the Order page, without a reload', async () => {
    // The list in this tab, the Polygon order's own page in another: neither is reloaded.
    await d.go('/orders');
    await d.waitText('Live: changes show up by themselves.');
    await d.waitRowStatus(orders.SOLANA.reference, 'Waiting for payment');
    await d.waitRowStatus(orders.POLYGON.reference, 'Waiting for payment');
    await accessible(d, 'orders');
    await d.shot('07-orders-waiting');
    const orderTab = await openDashboard(browser, h.server.url);
    await orderTab.go(`/orders/${orders.POLYGON.reference}`);
    await orderTab.waitText('Live: changes show up by themselves.');
    await orderTab.waitText('No payment has been received for this order.');
    await orderTab.page.waitForSelector('.qr-figure img.qr'); // the code to pay it, while it can be paid
    await accessible(orderTab, 'order (waiting)');
    const navigations = watchNavigations(d, orderTab);
    const orderRequests = watchApiRequests(orderTab);

    // Solana: a tagged transfer from a funded wallet, as a wallet pays a Solana Pay link.
    const sol = (await api<PaidOrder>('GET', `/orders/${orders.SOLANA.reference}`)).body;
    const solPayer = await solana.newPayer({ mint: usdtSolana, units: 100_000_000n });
    orders.SOLANA.txId = await solana.transfer({
      payer: solPayer,
      recipientOwner: new PublicKey(sol.recipient),
      mint: usdtSolana,
      amountUnits: parseUnits(sol.amount, 6),
      reference: new PublicKey(sol.reference),
    });
    orders.SOLANA.sender = solPayer.publicKey.toBase58();
    // Polygon: an ERC-20 transfer tagged with the reference, then the confirmations.
    const poly = (await api<PaidOrder>('GET', `/orders/${orders.POLYGON.reference}`)).body;
    const polyPayer = await evm.newWallet({ token: usdtPolygon, units: 100_000_000n });
    orders.POLYGON.txId = await evm.transfer({
      from: polyPayer,
      token: usdtPolygon,
      to: poly.recipient as Address,
      units: parseUnits(poly.amount, 6),
      dataSuffix: tagOf(poly.reference),
    });
    orders.POLYGON.sender = polyPayer.address;
    await evm.mine(CONFIRMATIONS);

    // The service's jobs (run here rather than on their timers) see both payments.
    const solShop = { token: merchant.token, network: 'SOLANA', path: '/hooks', secret: webhookSecret };
    const polyShop = { ...solShop, network: 'POLYGON' };
    await h.settle(solShop, orders.SOLANA.reference, 'PAID');
    await h.settle(polyShop, orders.POLYGON.reference, 'PAID');

    await d.waitRowStatus(orders.SOLANA.reference, 'Paid');
    await d.waitRowStatus(orders.POLYGON.reference, 'Paid');
    await d.shot('08-orders-paid-live');
    await orderTab.page.waitForFunction(
      () => document.querySelector('.page-header .badge')?.textContent === 'Paid',
      { timeout: 20_000, polling: 100 },
    );
    await orderTab.waitText(orders.POLYGON.txId);
    await orderTab.waitText('View on PolygonScan');
    // A payment link lets the payer choose (every network with a wallet); the order says where it was paid.
    await orderTab.waitText('Paid with');
    const facts = Object.fromEntries(
      await orderTab.page.$$eval('dl.facts > div', (rows) =>
        rows.map((r) => [r.querySelector('dt')?.textContent, r.querySelector('dd')?.textContent]),
      ),
    );
    expect(facts['Paid with']).toBe('USDT on Polygon PoS');
    expect(facts['Payable with']).toMatch(/^USDT on Polygon PoS: 7\.25 USDTUSDT on Solana: 7\.25\d* USDT$/);
    // The events refreshed what order.paid changes: the order, its payments, its timeline, and the
    // webhook deliveries once the timeline showed a new attempt; never its refunds or messages.
    await orderTab.page.waitForNetworkIdle({ idleTime: 500, timeout: 10_000 });
    const read = `GET /orders/${orders.POLYGON.reference}`;
    console.log(`[e2e dashboard] the order page's requests after order.paid: ${orderRequests.join(', ')}`);
    expect(orderRequests).toEqual(expect.arrayContaining([read, `${read}/payments`, `${read}/audit`]));
    for (const request of orderRequests)
      expect([read, `${read}/payments`, `${read}/audit`, `${read}/webhook-deliveries`]).toContain(request);
    expect(await orderTab.page.$('.qr-figure'), 'no code to pay a paid order').toBeNull();
    await accessible(orderTab, 'order (paid)');
    await orderTab.shot('09-order-paid-live-polygon');
    await orderTab.page.$eval('xpath/.//h2[text()="Payments"]', (h2) => h2.scrollIntoView());
    await orderTab.shot('09-order-paid-live-polygon-payments');
    // The timeline lists the ways to pay as the order's facts do ("Payable with"), never as JSON.
    const created = (await orderTab.page.$(
      'xpath/.//ol[contains(@class,"timeline")]/li[.//code[text()="order.created"]]',
    ))!;
    const createdText = await created.evaluate((li) => (li as HTMLElement).innerText);
    expect(createdText).toMatch(/paymentOptions\s+USDT on Solana: 7\.25\d* USDT/);
    expect(createdText).not.toMatch(/[[{"]/);
    await created.evaluate((li) => li.scrollIntoView({ block: 'center' }));
    await orderTab.shot('09c-order-timeline-payment-options');
    expect(navigations, 'no page was reloaded').toEqual([]);
    await orderTab.page.close();

    // Each order.paid webhook came to the receiver signed with the secret the page showed.
    for (const { reference } of Object.values(orders)) {
      const paid = hooksFor(reference).filter((hook) => hook.json.type === 'order.paid');
      expect(paid.length, `order.paid webhook of ${reference}`).toBeGreaterThan(0);
      expect(signedBy(paid[0]!, webhookSecret)).toBe(true);
    }
  });

  it('refunds part of the Solana order to an address, and lists the refund', async () => {
    await d.go(`/orders/${orders.SOLANA.reference}`);
    await d.waitText('Live: changes show up by themselves.');
    await d.waitText('New refund');
    await d.fill('Amount (USDT)', '5');
    await d.fill('Reason (optional, for you)', 'Perna <i>quebrada</i>');
    await d.page.click('xpath/.//label[contains(., "Send it to an address I know")]');
    await d.fill('Address on Solana', orders.SOLANA.sender);
    await d.click('Create refund');
    await d.waitText('Refund of 5.00 USDT created.');
    await d.page.waitForSelector('ul.refunds li.refund');
    const listed = await d.page.$eval('ul.refunds li.refund', (li) => (li as HTMLElement).innerText);
    expect(listed).toContain('5.00 USDT');
    expect(listed).toContain('Waiting for transfer');
    expect(listed).toContain(orders.SOLANA.sender);
    expect(listed).toContain('Perna <i>quebrada</i>');
    await d.waitText('Send the refund from your receiving wallet');
    // Not a sandbox: neither "Simulate payment" nor a sandbox wallet to send the refund from.
    expect(await d.page.$('#simulate-payment')).toBeNull();
    expect(await d.bodyText()).not.toContain('Send refund from the sandbox wallet');
    await accessible(d, 'order (refund created)');
    await d.page.$eval('xpath/.//h2[text()="Refunds"]', (h2) => h2.scrollIntoView());
    await d.shot('10-order-refund-created');

    const refunds = await api<{ items: { amount: string; to: string; status: string }[] }>(
      'GET',
      `/orders/${orders.SOLANA.reference}/refunds`,
    );
    expect(refunds.body.items).toEqual([
      expect.objectContaining({
        to: orders.SOLANA.sender,
        status: 'PENDING',
        amount: expect.stringMatching(/^5(\.0+)?$/),
      }),
    ]);
  });

  it("sends the refund from the merchant's wallet with the page's Solana Pay link; it turns Refunded live", async () => {
    // Still on the Solana order's page, which is not reloaded from here on.
    const navigations = watchNavigations(d);
    const before = await solana.tokenBalance(new PublicKey(orders.SOLANA.sender), usdtSolana);
    await d.waitText(`Send the refund from your receiving wallet`);
    expect(
      await d.page.$eval('.sign-refund img.qr', (img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(0);
    const walletLink = await d.page.$eval(
      'xpath/.//div[contains(@class,"sign-refund")]//a[normalize-space(.)="Open in a wallet app"]',
      (a) => a.getAttribute('href')!,
    );
    // A Solana Pay transaction request (solana:<https URL>) on the service's public address, which
    // here stands for this test's server: the wallet's lookup of that name.
    const request = new URL(walletLink.replace(/^solana:/, ''));
    expect(walletLink).toBe(`solana:${request.href}`);
    expect(request.origin).toBe(new URL(h.server.config.PUBLIC_BASE_URL).origin);
    const [, refundId] = /^\/pay\/refunds\/(rf_[0-9a-f]{32})\/tx-request$/.exec(request.pathname) ?? [];
    expect(refundId, request.pathname).toBeDefined();
    // The wallet asks for the label, then posts its account and gets the transaction to sign.
    const label = await h.server.api('GET', request.pathname);
    expect(label.status, label.text).toBe(200);
    expect(label.body.label).toEqual(expect.any(String));
    const built = await h.server.api<{ transaction: string }>('POST', request.pathname, {
      body: { account: solanaWallet.publicKey.toBase58() },
    });
    expect(built.status, built.text).toBe(200);
    const txId = await solana.signAndSend(built.body.transaction, solanaWallet);

    // The refund verifier (run here rather than on its timer) finds it on chain.
    const refundStatus = async () =>
      (
        await api<{ items: { id: string; status: string; txId: string | null }[] }>(
          'GET',
          `/orders/${orders.SOLANA.reference}/refunds`,
        )
      ).body.items.find((r) => r.id === refundId);
    await until(`refund ${refundId} SUCCEEDED`, async () => {
      await h.server.jobs.runNow('verify-refunds');
      await h.deliverWebhooks();
      return (await refundStatus())?.status === 'SUCCEEDED';
    });
    expect(await refundStatus()).toMatchObject({ status: 'SUCCEEDED', txId });
    expect(await solana.tokenBalance(new PublicKey(orders.SOLANA.sender), usdtSolana)).toBe(
      before + 5_000_000n,
    );

    // The page shows it by itself: the refund Refunded with its transaction, the order's refunded sum.
    await d.page.waitForFunction(
      () => document.querySelector('ul.refunds li.refund .badge')?.textContent === 'Refunded',
      { timeout: 20_000, polling: 100 },
    );
    await d.waitText(txId);
    const listed = await d.page.$eval('ul.refunds li.refund', (li) => (li as HTMLElement).innerText);
    expect(listed).toContain('View on Solana Explorer');
    expect(await d.page.$('.sign-refund'), 'the link to sign is gone once sent').toBeNull();
    const refunded = await d.page.$eval(
      'xpath/.//dl[contains(@class,"figures")]/div[dt[normalize-space(.)="Refunded"]]/dd',
      (dd) => dd.textContent,
    );
    expect(refunded).toBe('5.00 USDT');
    await d.waitText('Refund sent'); // the timeline's entry
    // The form's "send it from your wallet" note went with the link.
    expect(await d.bodyText()).not.toContain('Refund of 5.00 USDT created.');
    expect(navigations, 'no page was reloaded').toEqual([]);
    await accessible(d, 'order (refunded)');
    await d.page.$eval('xpath/.//h2[text()="Refunds"]', (h2) => h2.scrollIntoView());
    await d.shot('11-order-refund-sent-live');

    const succeeded = hooksFor(orders.SOLANA.reference).find((hook) => hook.json.type === 'refund.succeeded');
    expect((succeeded?.json.data as { refund?: unknown } | undefined)?.refund).toMatchObject({
      id: refundId,
      status: 'SUCCEEDED',
      txId,
    });
    expect(signedBy(succeeded!, webhookSecret)).toBe(true);
  });

  it('redelivers a webhook from the Order page to the receiver', async () => {
    // Still on the Solana order's page: its deliveries, newest first.
    await d.waitText('Webhook deliveries');
    await d.page.waitForSelector('.deliveries-table tbody tr');
    const paidHooks = () =>
      hooksFor(orders.SOLANA.reference).filter((hook) => hook.json.type === 'order.paid').length;
    const before = paidHooks();
    // The order.paid delivery's row, its Redeliver button.
    const row = "xpath/.//table[contains(@class,'deliveries-table')]//tr[.//code[text()='order.paid']]";
    await (await d.page.waitForSelector(`${row}//button[normalize-space(.)='Redeliver']`))!.click();
    await d.waitText('Send this event again now?');
    await d.click('Send again');
    await d.waitText('Sent again: the receiver answered HTTP 200.');
    await h.receiver.waitFor(() => paidHooks() > before);
    const again = hooksFor(orders.SOLANA.reference)
      .filter((hook) => hook.json.type === 'order.paid')
      .at(-1)!;
    expect(again.json.data.order).toMatchObject({ reference: orders.SOLANA.reference, status: 'PAID' });
    expect(signedBy(again, webhookSecret)).toBe(true);
    await d.waitText('attempt 2');
    await d.page.$eval('.deliveries-table', (table) => table.scrollIntoView({ block: 'center' }));
    await d.shot('12-order-webhook-redelivered');
  });

  it("holds a refund address given without the paying wallet's proof until the merchant clicks Approve", async () => {
    await d.go(`/orders/${orders.POLYGON.reference}`);
    await d.waitText('Live: changes show up by themselves.');
    await d.waitText('New refund');
    await d.fill('Amount (USDT)', '2');
    await d.click('Create refund'); // asking the payer for the address, the form's default
    await d.waitText('Refund of 2.00 USDT created.');
    const [refund] = (
      await api<{ items: { id: string; status: string; to: string | null }[] }>(
        'GET',
        `/orders/${orders.POLYGON.reference}/refunds`,
      )
    ).body.items;
    expect(refund).toMatchObject({ status: 'AWAITING_ADDRESS' });
    // Whoever has the refund page link gives an address there, unsigned: it may not be the payer.
    const given = getAddress((await evm.newWallet()).address);
    const set = await h.server.api('POST', `/pay/refunds/${refund!.id}/address`, {
      body: { address: given },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.status).toBe('AWAITING_APPROVAL');

    // The page shows it by itself, with the address to check and nothing to sign yet.
    await d.page.waitForFunction(
      () =>
        document.querySelector('ul.refunds li.refund .badge')?.textContent === 'Waiting for your approval',
      { timeout: 20_000, polling: 100 },
    );
    const listed = await d.page.$eval('ul.refunds li.refund', (li) => (li as HTMLElement).innerText);
    expect(listed).toContain(given);
    expect(listed).toContain('Anyone who has the refund page link could have given it');
    expect(await d.page.$('.sign-refund'), 'nothing to sign before the approval').toBeNull();
    await accessible(d, 'order (refund awaiting approval)');
    await d.page.$eval('ul.refunds li.refund', (li) => li.scrollIntoView({ block: 'center' }));
    await d.shot('11b-order-refund-awaiting-approval');

    await d.click('Approve');
    await d.waitText(`Send the refund to ${given}?`);
    await d.shot('11c-order-refund-approve-question');
    await d.click('Yes, approve this address');
    await d.page.waitForFunction(
      () => document.querySelector('ul.refunds li.refund .badge')?.textContent === 'Waiting for transfer',
      { timeout: 20_000, polling: 100 },
    );
    await d.waitText('Send the refund from your receiving wallet');
    await d.waitText('Refund address approved'); // the timeline's entry
    const approved = (
      await api<{ items: { id: string; status: string; to: string | null }[] }>(
        'GET',
        `/orders/${orders.POLYGON.reference}/refunds`,
      )
    ).body.items[0];
    expect(approved).toMatchObject({ id: refund!.id, status: 'PENDING', to: given });
  });

  it('creates an API key on the Developers page, uses it from Node, revokes it', async () => {
    await d.go('/developers');
    await d.waitText('No API keys.');
    await d.fill('Name', 'shop backend');
    await d.click('Create key');
    await d.waitText('Key "shop backend" created.');
    await d.waitText('Copy it now: it is shown only this once');
    const secret = await d.page.$eval('.secret-once input', (i) => (i as HTMLInputElement).value);
    expect(secret).toMatch(/^sk_/);
    await accessible(d, 'developers (key created)');
    await d.shot('13-developers-key-created');

    const path = `/orders/${orders.POLYGON.reference}`;
    const used = await h.server.api('GET', path, { token: secret });
    expect(used.status, used.text).toBe(200);
    expect(used.body.status).toBe('PAID');

    await d.click('I have saved it: hide it');
    await d.click('Revoke');
    await d.waitText('Revoke this key? It stops working at once.');
    await d.click('Yes, revoke');
    await d.waitText('No API keys.');
    await d.shot('14-developers-key-revoked');
    const refused = await h.server.api('GET', path, { token: secret });
    expect(refused.status, refused.text).toBe(401);
  });

  it('exports both CSVs from the Exports page, read back by an independent parser', async () => {
    await d.go('/exports');
    await d.waitText('CSV files for your accountant');
    await accessible(d, 'exports');
    await d.shot('15-exports');
    // The page's own links, fetched with its cookie (what a click downloads).
    const csv = async (label: string) => {
      const href = await d.page.$eval(
        `xpath/.//a[normalize-space(.)=${JSON.stringify(label)}]`,
        (a) => (a as HTMLAnchorElement).href,
      );
      const answer = await d.page.evaluate(async (url: string) => {
        const res = await fetch(url);
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
      }, href);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.type).toMatch(/^text\/csv/);
      return parse(answer.text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
    };

    const orderRows = await csv('Download orders (CSV)');
    expect(orderRows).toHaveLength(2);
    for (const [network, { reference, txId, sender }] of Object.entries(orders)) {
      const row = orderRows.find((r) => r.reference === reference);
      expect(row, `orders.csv row of ${reference}`).toMatchObject({
        status: 'PAID',
        network,
        token: 'USDT',
        tx_ids: txId,
        senders: network === 'POLYGON' ? expect.stringMatching(new RegExp(sender, 'i')) : sender,
      });
      expect(Number(row!.amount_received)).toBe(Number(row!.amount));
      expect(row!.paid_at).not.toBe('');
      // The Solana order's refund was sent and verified; nothing went back on Polygon.
      expect(Number(row!.amount_refunded)).toBe(network === 'SOLANA' ? 5 : 0);
    }
    expect(orderRows.find((r) => r.network === 'SOLANA')!.description).toBe('Mesa de jantar <b>carvalho</b>');
    expect(orderRows.find((r) => r.network === 'POLYGON')!.description).toBe('Cadeira "Polygon" & banco');

    const paymentRows = await csv('Download payments (CSV)');
    expect(paymentRows).toHaveLength(2);
    for (const [network, { reference, txId }] of Object.entries(orders)) {
      const row = paymentRows.find((r) => r.order_reference === reference);
      expect(row, `payments.csv row of ${reference}`).toMatchObject({ network, token: 'USDT', tx_id: txId });
      expect(Number(row!.amount)).toBe(network === 'SOLANA' ? 12.5 : 7.25);
    }
  });

  it('adds and removes wallets on the Wallets page, saying in words why the API refuses', async () => {
    // The shop's backend made an order that can still be paid: it pays into the Polygon till.
    const open = await api<PaidOrder>('POST', '/orders', {
      body: { network: 'POLYGON', token: 'USDT', amount: '3', description: 'Still open' },
    });
    expect(open.status, open.text).toBe(201);
    expect(open.body.recipient).toBe(polygonWallet.address);
    const wallets = async () =>
      (await api<{ items: { public_address: string }[] }>('GET', '/users/me/wallets')).body.items.map(
        (w) => w.public_address,
      );
    /** The Wallets page's item of `address` (as the API writes it). */
    const walletItem = (address: string) =>
      `xpath/.//ul[contains(@class,"wallets")]/li[.//code[text()=${JSON.stringify(address)}]]`;

    await d.go('/wallets');
    await d.waitText('Your wallets');
    await d.page.waitForSelector(walletItem(polygonWallet.address));
    await d.page.waitForSelector(walletItem(solanaWallet.publicKey.toBase58()));
    await accessible(d, 'wallets');

    // An address with a broken EIP-55 checksum: the API's reason, in words, by the form.
    const mistyped = polygonWallet.address.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(mistyped).not.toBe(polygonWallet.address);
    await d.select('Network', 'POLYGON');
    await d.fill('Name (optional)', 'Typo');
    await d.fill('Address', mistyped);
    await d.click('Add a wallet');
    await d.waitText('must be a 0x address of 40 hex digits with a valid EIP-55 checksum when mixed-case');
    const refusal = await d.page.$eval('form .notice.error', (n) => (n as HTMLElement).innerText);
    expect(refusal).toContain('public_address');
    expect(refusal.match(/EIP-55/g), 'the reason, once').toHaveLength(1);
    await accessible(d, 'wallets (invalid address)');
    await d.page.$eval('form .notice.error', (n) => n.scrollIntoView({ block: 'center' }));
    await d.shot('16-wallets-invalid-address');
    expect(await wallets()).toHaveLength(2);

    // A valid second Solana wallet, its name hostile text: listed, shown as text.
    const spare = Keypair.generate().publicKey.toBase58();
    await d.select('Network', 'SOLANA');
    await d.fill('Name (optional)', 'Reserva <img src=x>');
    await d.fill('Address', spare);
    await d.click('Add a wallet');
    await d.waitText('Wallet on Solana added.');
    await d.page.waitForSelector(walletItem(spare));
    expect(await d.page.$('form .notice.error')).toBeNull();
    expect(await d.page.$eval(walletItem(spare), (li) => (li as HTMLElement).innerText)).toContain(
      'Reserva <img src=x>',
    );
    expect(await d.page.$('ul.wallets img')).toBeNull();
    expect(await wallets()).toContain(spare);
    await accessible(d, 'wallets (added)');
    await d.page.evaluate(() => window.scrollTo(0, 0));
    await d.shot('17-wallets-added');

    // Removed after an "are you sure?".
    await (await d.page.waitForSelector(
      `${walletItem(spare)}//button[normalize-space(.)="Remove"]`,
    ))!.click();
    await d.waitText('Remove this wallet?');
    await d.click('Yes, remove');
    await d.waitText('Wallet removed.');
    await d.page.waitForSelector(walletItem(spare), { hidden: true });
    expect(await wallets()).not.toContain(spare);
    await d.shot('18-wallets-removed');

    // The Polygon till pays an open order: refused, and the page says why, by that wallet.
    const till = walletItem(polygonWallet.address);
    await (await d.page.waitForSelector(`${till}//button[normalize-space(.)="Remove"]`))!.click();
    await d.click('Yes, remove');
    await d.waitText('This wallet cannot be removed: orders that can still be paid use it.');
    const why = await d.page.$eval(
      `${till}//*[contains(@class,"notice")]`,
      (n) => (n as HTMLElement).innerText,
    );
    expect(why).toContain('Wallet is used by 1 order(s) that can still be paid');
    expect(await wallets()).toContain(polygonWallet.address);
    await accessible(d, 'wallets (in use)');
    await d.page.evaluate(() => window.scrollTo(0, 0));
    await d.shot('19-wallets-in-use');
  });

  it('refuses a cross-site form post and cross-site fetches that ride the session cookie', async () => {
    const ordersBefore = (await api<{ total: number }>('GET', '/users/me/orders?per_page=1')).body.total;
    const profileBefore = (await api('GET', '/users/me')).body;
    const target = h.server.url;
    // A page of another origin that, once loaded, tries to rotate the webhook secret (a "simple"
    // no-cors POST), to change the webhook URL (a PATCH, which needs a CORS preflight), then
    // submits a form creating an order: each would ride the session cookie if the browser sent it.
    const attacker = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><title>Win a prize</title>
        <form id="f" method="POST" action="${target}/orders">
          <input name="network" value="SOLANA"><input name="token" value="USDT"><input name="amount" value="1">
        </form>
        <script>
          const attack = () =>
            fetch(${JSON.stringify(`${target}/users/me/webhook-secret`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' })
              .catch(() => {})
              .finally(() => fetch(${JSON.stringify(`${target}/users/me`)}, {
                method: 'PATCH', credentials: 'include', headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ webhook_url: 'https://evil.example/hooks' }),
              }).catch(() => {}))
              .finally(() => document.getElementById('f').submit());
          addEventListener('load', () => setTimeout(attack, 0));
        </script></html>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const port = (attacker.address() as AddressInfo).port;
    try {
      // The same host on another port is another origin of the same site: the cookie goes along,
      // and the service refuses it for its Origin (403). "localhost" is another site: SameSite=Strict
      // keeps the cookie home, and the service sees no credential at all (401).
      for (const [origin, status] of [
        [`http://127.0.0.1:${port}`, 403],
        [`http://localhost:${port}`, 401],
      ] as const) {
        const tab = await browser.newPage();
        await tab.setViewport({ width: 1280, height: 400 });
        try {
          const [sent, answered] = [[] as string[], [] as string[]];
          const what = (req: HTTPRequest) => `${req.method()} ${req.url().slice(target.length)}`;
          tab.on('request', (req) => void (req.url().startsWith(target) && sent.push(what(req))));
          tab.on(
            'response',
            (res) => void (res.url().startsWith(target) && answered.push(what(res.request()))),
          );
          const posted = tab.waitForResponse(
            (res) => res.url() === `${target}/orders` && res.request().method() === 'POST',
            { timeout: 15_000 },
          );
          const [answer] = await Promise.all([posted, tab.goto(`${origin}/`, { waitUntil: 'load' })]);
          expect(answer.status(), `${origin}: ${await answer.text()}`).toBe(status);
          expect(/stablepay_session=/.test(answer.request().headers().cookie ?? '')).toBe(status === 403);
          // The rotation was sent (refused: nothing changed, below; its answer is hidden from the page);
          // the PATCH was stopped at its preflight, which the service answers without CORS permission.
          expect(sent).toContain('POST /users/me/webhook-secret');
          expect(answered).toContain('OPTIONS /users/me');
          expect(answered).not.toContain('PATCH /users/me');
          if (status === 403) {
            await tab.waitForFunction(() => document.body?.innerText.includes('Cross-site request refused'));
            await tab.screenshot({ path: path.join(DASHBOARD_SCREENSHOTS, 'e2e-20-cross-site-refused.png') });
          }
        } finally {
          await tab.close();
        }
      }
    } finally {
      attacker.closeAllConnections();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
    }
    // Nothing changed: no new order, the same profile (webhook URL, updated_at) ...
    expect((await api<{ total: number }>('GET', '/users/me/orders?per_page=1')).body.total).toBe(
      ordersBefore,
    );
    expect((await api('GET', '/users/me')).body).toEqual(profileBefore);
    // ... and the secret the page showed is still the only one signing (a rotation adds a second v1=).
    const ping = await api('POST', '/users/me/webhook-test');
    expect(ping.status, ping.text).toBe(200);
    const hook = await h.receiver.waitFor((r) => r.some((x) => x.json.type === 'ping'));
    const signature = String(hook.find((x) => x.json.type === 'ping')!.headers['x-webhook-signature']);
    expect(signature.match(/v1=/g)).toHaveLength(1);
    expect(
      signedBy(
        hook.find((x) => x.json.type === 'ping')!,
        webhookSecret,
      ),
    ).toBe(true);
  });

  it('saves the shop name and the underpayment tolerance on the Settings page', async () => {
    await d.go('/settings');
    await d.waitText('Underpayment tolerance');
    await d.waitText("Now: the server's default.");
    await accessible(d, 'settings');
    await d.fill('Shop name', 'Loja Azul & Filhos');
    await d.click('Save', 0);
    await d.waitText('Saved.');
    // The header says the new name at once.
    await d.page.waitForFunction(
      () => document.querySelector('.account .who')?.textContent === 'Loja Azul & Filhos',
      { timeout: 10_000, polling: 100 },
    );
    await d.fill('Tolerance (%)', '0.5');
    await d.click('Save', 1);
    await d.waitText('Now: 0.5%.');
    expect(await d.page.$$('.notice.ok')).toHaveLength(2);
    const profile = (await api('GET', '/users/me')).body;
    expect(profile).toMatchObject({ full_name: 'Loja Azul & Filhos', underpayment_tolerance_bps: 50 });
    await accessible(d, 'settings (saved)');
    await d.shot('21-settings-saved');

    // Out of range: the field's own limit stops it before the API.
    await d.fill('Tolerance (%)', '25');
    await d.click('Save', 1);
    const tolerance = 'xpath/.//input[@id=//label[normalize-space(.)="Tolerance (%)"]/@for]';
    expect(await d.page.$eval(tolerance, (i) => (i as HTMLInputElement).validity.rangeOverflow)).toBe(true);
    await d.waitText('Now: 0.5%.');
    expect((await api('GET', '/users/me')).body.underpayment_tolerance_bps).toBe(50);
  });

  it('changes the password on the Settings page: every session ends; the new password signs in', async () => {
    const NEW_PASSWORD = 'a new and longer passphrase';
    // Other sessions: a second tab of this browser (the same cookie), another browser's session
    // (its own cookie) and the login token of the shop's scripts.
    const other = await h.server.api('POST', '/dashboard/session', {
      body: { email: merchant.email, password: TEST_PASSWORD },
    });
    expect(other.status, other.text).toBe(200);
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    const cookie = (await d.page.cookies()).find((c) => c.name === 'stablepay_session')!;
    const secondTab = await openDashboard(browser, h.server.url);
    await secondTab.go('/orders');
    await secondTab.waitText('Live: changes show up by themselves.');
    const sessionOf = (cookieHeader: string) =>
      fetch(`${h.server.url}/dashboard/session`, { headers: { cookie: cookieHeader } }).then((r) => r.status);
    expect(await sessionOf(otherCookie)).toBe(200);

    await d.page.bringToFront(); // a background tab gets no input
    await d.go('/settings');
    await d.waitText('Change password');
    await d.fill('Current password', TEST_PASSWORD);
    await d.fill('New password', NEW_PASSWORD);
    await d.fill('New password again', `${NEW_PASSWORD}!`);
    await d.waitText('The two new passwords differ.');
    await d.fill('New password again', NEW_PASSWORD);
    await d.page.$eval('xpath/.//h2[normalize-space(.)="Change password"]', (h2) => h2.scrollIntoView());
    await d.shot('22-settings-password-form');
    await d.click('Change password');
    await d.waitText('Your password was changed and every session ended. Sign in with the new password.');
    await d.page.waitForSelector('#email');
    await accessible(d, 'sign-in (password changed)');
    await d.shot('23-password-changed-sign-in');

    // Every session is over on the service, and the old login token too.
    expect(await sessionOf(`${cookie.name}=${cookie.value}`)).toBe(401);
    expect(await sessionOf(otherCookie)).toBe(401);
    expect((await api('GET', '/users/me')).status).toBe(401);
    // The second tab finds out at its next request, its live stream's or a click's, and says so.
    await secondTab.page.bringToFront();
    await Promise.race([
      secondTab.click('Wallets').catch(() => undefined),
      secondTab.page.waitForSelector('#email', { visible: true }),
    ]);
    await secondTab.waitText('Your session has ended');
    await secondTab.page.waitForSelector('#email');
    await secondTab.page.close();
    await d.page.bringToFront();
    // The old password no longer signs in; the new one does (and the scripts log in again).
    const old = await h.server.api('POST', '/auth/login', {
      body: { email: merchant.email, password: TEST_PASSWORD },
    });
    expect(old.status, old.text).toBe(401);
    await d.fill('E-mail', merchant.email);
    await d.fill('Password', NEW_PASSWORD);
    await d.click('Sign in');
    await d.page.waitForSelector('#main-nav');
    // Back where the merchant was.
    await d.waitText('Underpayment tolerance');
    const login = await h.server.api<{ token: string }>('POST', '/auth/login', {
      body: { email: merchant.email, password: NEW_PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    merchant.token = login.body.token;
  });

  it('speaks Spanish once chosen: the Overview and the Wallets page, amounts written the Spanish way', async () => {
    // The overview's figures come from the service's stats job (run here rather than on its timer).
    await h.server.jobs.runNow('refresh-dashboard-stats');
    await d.go('');
    await d.waitText('Orders in the last 30 days');
    await d.page.select('.account .lang select', 'es');
    await d.waitText('Pedidos de los últimos 30 días');
    expect(await d.page.$eval('html', (html) => html.lang)).toBe('es');
    expect(await d.page.$eval('h1', (h1) => h1.textContent)).toBe('Resumen');
    // 12.50 and 7.25 USDT received today, the decimal comma of Spanish.
    await d.waitText('12,50 USDT');
    await d.waitText('7,25 USDT');
    // The orders chart counts: its axis has whole numbers only, none twice.
    const axis = await d.page.$$eval('.chart-svg', (svgs) =>
      Array.from(svgs[0]!.querySelectorAll('line.grid + text.axis'), (t) => t.textContent ?? ''),
    );
    expect(
      axis.every((label) => /^\d+$/.test(label)),
      axis.join(' '),
    ).toBe(true);
    expect(new Set(axis).size, axis.join(' ')).toBe(axis.length);
    await accessible(d, 'overview (es)');
    await d.shot('24-overview-es');
    await d.click('Billeteras');
    await d.waitText('Tus billeteras');
    expect(await d.page.$eval('h1', (h1) => h1.textContent)).toBe('Billeteras');
    await accessible(d, 'wallets (es)');
    await d.shot('25-wallets-es');
  });

  it('speaks Portuguese once chosen, then signs out; a protected page then asks to sign in', async () => {
    await d.go('/orders');
    await d.waitText('En vivo: los cambios aparecen solos.'); // Spanish, as chosen before
    await d.page.select('.account .lang select', 'pt-BR');
    await d.waitText('Ao vivo: as mudanças aparecem sozinhas.');
    expect(await d.page.$eval('h1', (h1) => h1.textContent)).toBe('Pedidos');
    expect(await d.page.$eval('html', (html) => html.lang)).toBe('pt-BR');
    await d.waitRowStatus(orders.SOLANA.reference, 'Pago');
    await d.waitRowStatus(orders.POLYGON.reference, 'Pago');
    await accessible(d, 'orders (pt-BR)');
    await d.shot('26-orders-pt-BR');
    await d.go(`/orders/${orders.POLYGON.reference}`);
    await d.waitText('Ao vivo: as mudanças aparecem sozinhas.');
    await d.shot('27-order-pt-BR');

    const cookie = (await d.page.cookies()).find((c) => c.name === 'stablepay_session')!;
    await d.click('Sair');
    await d.waitText('Você saiu.');
    await d.page.waitForSelector('#email');
    await d.shot('28-signed-out-pt-BR');
    // The session is over on the service, not just forgotten by the page.
    const old = await fetch(`${h.server.url}/dashboard/session`, {
      headers: { cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(old.status).toBe(401);
    await d.go('/orders');
    await d.page.waitForSelector('#email');
    await d.waitText('Entre no seu painel');
    expect(await d.page.$('#main-nav')).toBeNull();
    await accessible(d, 'sign-in (pt-BR)');
    await d.shot('29-protected-page-asks-sign-in-pt-BR');
  });
});

/**
 * Issue 27 in the dashboard, for a merchant of its own in a browser profile of its own (nothing
 * above sees its orders or its transfers): transfers to its wallet that credited no order are
 * listed a page at a time and attributed from the page, and a payer's report without proof shows on
 * the order's timeline, where the merchant attributes it too. Every transfer is real, on the local
 * Polygon chain; the jobs that judge them are run here.
 */
describe('unattributed payments and reports without proof', () => {
  let context: BrowserContext;
  let p: DashboardPage;
  let shop: { id: string; email: string; token: string; network: string; path: string; secret: string };
  let till: LocalWallet;
  let reference = '';
  /** The exchange withdrawal, short by its fee: what the merchant attributes from the list. */
  let withdrawal = { txId: '', from: '' };
  /** The payer's wallet-app transfer, reported without proof. */
  let reported = { txId: '', from: '' };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const shopApi = <T = any>(method: string, path: string, body?: unknown) =>
    h.server.api<T>(method, path, { token: shop.token, body });
  const unattributedTxIds = async () =>
    (
      await shopApi<{ items: { txId: string }[] }>('GET', '/users/me/unattributed-payments?per_page=50')
    ).body.items.map((i) => i.txId);
  const item = (txId: string) => `xpath/.//li[contains(@class,"transfer")][.//code[text()="${txId}"]]`;

  beforeAll(async () => {
    const m = await newMerchant(h.server, { name: 'Loja Verde' });
    shop = { ...m, network: 'POLYGON', path: '/none', secret: '' };
    till = await evm.newWallet();
    const added = await shopApi('POST', '/users/me/wallets', {
      network: 'POLYGON',
      public_address: till.address,
      name: 'Polygon till',
    });
    expect(added.status, added.text).toBe(201);
    context = await browser.createBrowserContext();
    p = await openDashboard(context, h.server.url);
    await p.go('');
    await p.page.waitForSelector('#email');
    await p.page.type('#email', shop.email);
    await p.page.type('#password', TEST_PASSWORD);
    await p.click('Sign in');
    await p.page.waitForSelector('#main-nav');
  });
  afterAll(async () => {
    await context?.close();
  });

  it('lists transfers that credited no order, a page at a time, and attributes one to its order from the page', async () => {
    await p.click('Unattributed payments');
    await p.waitText('No unattributed payments: every transfer to your wallets went to an order.');
    expect(await p.page.$eval('h1', (h1) => h1.textContent)).toBe('Unattributed payments');
    await accessible(p, 'unattributed (empty)');
    await p.shot('30-unattributed-empty');

    const created = await shopApi<PaidOrder>('POST', '/orders', {
      network: 'POLYGON',
      token: 'USDT',
      amount: '20',
      description: 'Mesa de centro',
    });
    expect(created.status, created.text).toBe(201);
    reference = created.body.reference;
    // Twenty small transfers from a customer's wallet app (no tag, no order's amount), then an
    // exchange's withdrawal for the order, short by its fee: 19.20 of 20.
    const customer = await evm.newWallet({ token: usdtPolygon, units: 100_000_000n });
    for (let i = 1; i <= 20; i++)
      await evm.transfer({
        from: customer,
        token: usdtPolygon,
        to: till.address,
        units: 1_000_000n + BigInt(i) * 10_000n,
      });
    const exchange = await evm.newWallet({ token: usdtPolygon, units: 100_000_000n });
    withdrawal = {
      txId: await evm.transfer({ from: exchange, token: usdtPolygon, to: till.address, units: 19_200_000n }),
      from: exchange.address,
    };
    await evm.mine(CONFIRMATIONS);
    await h.runJobs(async () => (await unattributedTxIds()).length === 21);

    // Newest first, 20 to a page: the withdrawal on top, and "Load more".
    await p.click('Refresh');
    await p.page.waitForSelector(item(withdrawal.txId));
    expect(await p.page.$$('li.transfer')).toHaveLength(20);
    const first = await p.page.$eval('li.transfer', (li) => (li as HTMLElement).innerText);
    expect(first).toContain('19.20 USDT');
    expect(first).toContain('Polygon PoS');
    expect(first).toContain(withdrawal.from);
    expect(first).toContain(till.address);
    expect(first).toContain(withdrawal.txId);
    expect(first).toContain('View on PolygonScan');
    expect(
      await p.page.$eval(
        `${item(withdrawal.txId)}//a[contains(., "View on PolygonScan")]`,
        (a) => (a as HTMLAnchorElement).href,
      ),
    ).toBe(`https://polygonscan.com/tx/${withdrawal.txId}`);
    await accessible(p, 'unattributed (listed)');
    await p.shot('31-unattributed-list');
    await p.click('Load more');
    await p.waitText('All 21 shown.');
    expect(await p.page.$$('li.transfer')).toHaveLength(21);
    expect(await p.page.$$eval('li.transfer .transfer-head strong', (s) => s.at(-1)?.textContent)).toBe(
      '1.01 USDT',
    );

    // Attributed to the order by its reference: checked on chain, credited, gone from the list.
    const form = `${item(withdrawal.txId)}//form`;
    await (await p.page.waitForSelector(`${form}//input`))!.type(reference);
    await (await p.page.waitForSelector(`${form}//button[normalize-space(.)="Attribute"]`))!.click();
    await p.waitText(
      `Attributed to order ${reference.slice(0, 6)}…${reference.slice(-4)}: checking on chain…`,
    );
    await p.page.$eval(item(withdrawal.txId), (li) => li.scrollIntoView({ block: 'center' }));
    await accessible(p, 'unattributed (attributing)');
    await p.shot('32-unattributed-attributing');
    expect((await h.getOrder(shop, reference)).status).toBe('CONFIRMING');

    await h.settle(shop, reference, 'UNDERPAID');
    await p.waitText('Confirmed on chain: 19.20 USDT credited to order');
    await p.page.waitForSelector(item(withdrawal.txId), { hidden: true });
    expect(await p.page.$$('li.transfer')).toHaveLength(20);
    expect(await unattributedTxIds()).not.toContain(withdrawal.txId);
    await p.page.evaluate(() => window.scrollTo(0, 0));
    await p.shot('33-unattributed-credited');

    // The order shows it received, matched as a reported transaction, from the exchange.
    await p.page.click(`xpath/.//div[contains(@class,"notice")]//a[contains(@href,"/orders/${reference}")]`);
    await p.waitText('Mesa de centro');
    const received = await p.page.$eval(
      'xpath/.//dl[contains(@class,"figures")]/div[dt[normalize-space(.)="Received"]]/dd',
      (dd) => dd.textContent,
    );
    expect(received).toBe('19.20 USDT');
    await p.waitText(withdrawal.txId);
    await p.waitText('a reported transaction');
  });

  it("shows a payer's report without proof on the order's timeline, where the merchant attributes it", async () => {
    // Still on the order's page. The payer sends 0.50 from a wallet app (no tag, not the 0.80 due)
    // and reports it on the public route, unsigned: recorded, crediting nothing.
    const payer = await evm.newWallet({ token: usdtPolygon, units: 10_000_000n });
    reported = {
      txId: await evm.transfer({ from: payer, token: usdtPolygon, to: till.address, units: 500_000n }),
      from: payer.address,
    };
    await evm.mine(CONFIRMATIONS);
    const report = await h.submitTx(reference, reported.txId);
    expect(report.status, report.text).toBe(202);
    await h.runJobs(async () => (await h.auditOf(shop, reference)).some((e) => e.type === 'payment.claimed'));

    // The page follows the order's events by itself.
    await p.waitText('Payment reported without proof');
    await p.waitText('Not signed by the sending wallet');
    const claim = await p.page.$eval('.claim', (n) => (n as HTMLElement).innerText);
    expect(claim).toContain('0.50 USDT');
    expect(claim).toContain(reported.from);
    expect(claim).toContain(reported.txId);
    expect(claim).toContain('Held back because');
    expect((await h.getOrder(shop, reference)).amountReceived).toBe('19.200000');
    await p.page.$eval('.claim', (n) => n.scrollIntoView({ block: 'center' }));
    await accessible(p, 'order (report without proof)');
    await p.shot('34-order-report-without-proof');

    await p.click('Attribute to this order');
    await p.waitText(
      "Credit this transfer to this order? Do so only if you know it is this order's payment.",
    );
    await p.click('Yes, attribute');
    await p.waitText('Attributed to this order: checking on chain…');
    await h.runJobs(async () => (await h.getOrder(shop, reference)).amountReceived === '19.700000');
    await p.waitText('Credited to this order.');
    await p.page.waitForFunction(
      () =>
        document.evaluate(
          '//dl[contains(@class,"figures")]/div[dt[normalize-space(.)="Received"]]/dd',
          document,
          null,
          XPathResult.STRING_TYPE,
        ).stringValue === '19.70 USDT',
      { timeout: 20_000, polling: 100 },
    );
    expect(await p.page.$('xpath/.//button[normalize-space(.)="Attribute to this order"]')).toBeNull();
    await p.page.$eval('.claim', (n) => n.scrollIntoView({ block: 'center' }));
    await p.shot('35-order-report-attributed');
    expect(await unattributedTxIds()).not.toContain(reported.txId);
  });

  it('speaks Portuguese on the Unattributed payments page, on a phone too', async () => {
    await p.page.select('.account .lang select', 'pt-BR');
    await p.click('Pagamentos não atribuídos');
    await p.waitText('Transferências, as mais recentes primeiro');
    await p.waitText('Atribuir a um pedido');
    expect(await p.page.$eval('h1', (h1) => h1.textContent)).toBe('Pagamentos não atribuídos');
    await accessible(p, 'unattributed (pt-BR)');
    await p.shot('36-unattributed-pt-BR');
    // On a phone: one column, nothing wider than the screen.
    await p.page.setViewport({ width: 390, height: 844 });
    await p.waitText('Atribuir a um pedido');
    expect(await p.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.shot('37-unattributed-pt-BR-390');
  });
});
