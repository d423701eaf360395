import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestServer, TEST_PASSWORD, type TestServer } from '../support/test-server';
import { expectAccessible, launchBrowser } from './support/browser';
import { DASHBOARD_SCREENSHOTS, openDashboard, type DashboardPage } from './support/dashboard-page';

/**
 * Subscriptions in the dashboard, in a real Chromium against the real service: one made through
 * the form, found in the list, opened, paused, resumed and set to cancel at the period's end.
 * Screenshots: docs/dashboard/subscription-new.png, subscriptions-list.png, subscription.png.
 */

let server: TestServer;
let browser: Browser;
let merchant: { email: string; token: string };
let d: DashboardPage;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  merchant = await newMerchant(server, { name: 'Loja Azul', wallets: ['SOLANA'] });
  d = await openDashboard(browser, server.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const shot = (name: string, fullPage = true) =>
  d.page.screenshot({
    path: path.join(DASHBOARD_SCREENSHOTS, `${name}.png`) as `${string}.png`,
    fullPage,
  });

describe('dashboard: subscriptions', () => {
  let id = '';

  it('signs in and creates a subscription through the form', async () => {
    await d.go('');
    await d.page.waitForSelector('#email');
    await d.page.type('#email', merchant.email);
    await d.page.type('#password', TEST_PASSWORD);
    await d.click('Sign in');
    await d.page.waitForSelector('#main-nav');
    await d.click('Subscriptions');
    await d.waitText('No subscriptions yet.');
    await d.click('New subscription');
    await d.waitText('Language of their page and e-mails');
    await d.fill('E-mail (optional)', 'Ana.Souza@example.com');
    await d.fill('Name (optional)', 'Ana Souza');
    await d.select('Language of their page and e-mails', 'pt-BR');
    await d.fill('Price (BRL)', '49.90');
    await d.fill('Description (optional)', 'Plano Café mensal');
    await d.fill('Trial days', '0');
    await expectAccessible(d.page, 'new subscription');
    await shot('subscription-new', false);
    await d.click('Create subscription');
    await d.page.waitForFunction(() => /\/subscriptions\/sub_/.test(location.pathname), { timeout: 20_000 });
    id = decodeURIComponent(new URL(d.page.url()).pathname.split('/').pop()!);
    expect(id).toMatch(/^sub_/);
    await d.waitText(`Subscription ${id}`);
    await d.waitText('Incomplete');
    await d.waitText('R$');
  });

  it('shows it in the list, found by status and by the customer’s e-mail in any case', async () => {
    await d.click('← All subscriptions');
    await d.waitText('Ana Souza');
    await d.select('Status', 'INCOMPLETE');
    await d.fill('Customer e-mail', 'ana.souza@EXAMPLE.com');
    await d.click('Show subscriptions');
    await d.page.waitForFunction(() => location.search.includes('customer_email'));
    await d.waitText(id);
    await expectAccessible(d.page, 'subscriptions list');
    await shot('subscriptions-list');
    await d.select('Status', 'PAUSED');
    await d.click('Show subscriptions');
    await d.waitText('No subscription matches these filters.');
    await d.click('Clear filters');
    await d.waitText(id);
  });

  it('opens it: its orders link to the order page, which links back', async () => {
    await d.click(id);
    await d.waitText('Period 1');
    await d.waitText('Customer’s page');
    const manage = await d.page.$eval('.copy-field input', (i) => (i as HTMLInputElement).value);
    expect(manage).toContain('/subscriptions/manage/');
    await d.page.click('table a.order-link');
    await d.waitText(`${id} (period 1)`);
    await d.click(`${id} (period 1)`);
    await d.waitText(`Subscription ${id}`);
  });

  it('pauses, resumes and cancels at the period’s end, each asked first', async () => {
    await d.click('Pause');
    await d.waitText('Pause? No orders are made until you resume it.');
    await d.click('Yes, pause');
    await d.waitText('Paused');
    await d.click('Resume');
    await d.click('Yes, resume');
    // The Pause button, not the text: "Paused" holds it until the page has the resumed state.
    await d.waitButton('Pause');
    await d.click('Cancel at period end');
    await d.click('Yes, cancel');
    await d.waitText(/Ends when this period ends/);
    await expectAccessible(d.page, 'subscription');
    await shot('subscription');
    const api = await server.api<{ status: string; cancelAtPeriodEnd: boolean }>(
      'GET',
      `/subscriptions/${id}`,
      { token: merchant.token },
    );
    expect(api.body).toMatchObject({ cancelAtPeriodEnd: true });
    expect(api.body.status).not.toBe('CANCELED');
  });

  it('shows what went wrong: cancelling one already canceled', async () => {
    // Canceled elsewhere while the confirmation is open: the page's live refresh may already
    // know of it (no "Cancel now" any more) if the other cancel comes first.
    await d.click('Cancel now');
    await server.api('POST', `/subscriptions/${id}/cancel`, { token: merchant.token, body: {} });
    await d.click('Yes, cancel');
    await d.waitText(/CANCELED|canceled/);
  });
});
