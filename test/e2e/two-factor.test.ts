import { generate } from 'otplib';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestServer, TEST_PASSWORD, type TestServer } from '../support/test-server';
import { launchBrowser } from './support/browser';
import { openDashboard, type DashboardPage } from './support/dashboard-page';

/**
 * Two-factor sign-in in the dashboard, in Chromium: turned on in the settings (the key the page
 * shows, a first code, the recovery codes once), then the two-step sign-in (a wrong code first).
 * The service runs on a clock the test moves, so every code is known and none is a replay.
 */
const STEP_MS = 30_000;
let now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;

let server: TestServer;
let browser: Browser;
let d: DashboardPage;

beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' }, { clock: () => new Date(now) });
  browser = await launchBrowser();
  d = await openDashboard(browser, server.url);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(now / 1000) });

describe('two-factor sign-in in the dashboard', () => {
  it('is turned on in the settings, then sign-in asks for the code', async () => {
    const m = await newMerchant(server);
    await d.signIn(m.email, TEST_PASSWORD);
    await d.go('/settings');
    await d.waitText('Two-factor sign-in');
    await d.waitText('Off: your password alone signs you in.');
    await d.click('Turn on two-factor sign-in');
    await d.waitText('Scan this QR code');
    expect(await d.page.$eval('#two-factor img.qr', (img) => (img as HTMLImageElement).alt)).toContain(
      'authenticator',
    );
    const secret = await d.page.$eval('#two-factor .copy-field input', (i) => (i as HTMLInputElement).value);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await d.fill('Code', await codeNow(secret));
    await d.click('Confirm');
    await d.waitText('Your recovery codes');
    const codes = await d.page.$$eval('[data-testid="recovery-codes"] code', (els) =>
      els.map((e) => e.textContent),
    );
    expect(codes).toHaveLength(10);
    await d.shot('two-factor-recovery-codes');
    await d.click('I have saved them');
    await d.waitText(/On since .*Recovery codes left: 10/);
    now += STEP_MS;

    await d.click('Sign out');
    await d.page.waitForSelector('#email');
    await d.page.type('#email', m.email);
    await d.page.type('#password', TEST_PASSWORD);
    await d.click('Sign in');
    await d.waitText('Enter your code');
    expect(await d.page.$('#main-nav')).toBeNull();
    await d.fill('Code', '000000');
    await d.click('Verify');
    await d.waitText('Wrong code');
    await d.shot('two-factor-sign-in-code');
    await d.fill('Code', await codeNow(secret));
    await d.click('Verify');
    await d.page.waitForSelector('#main-nav');
    const cookie = (await d.page.cookies()).find((c) => c.name === 'stablepay_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('enrols on a phone (360 px): the QR code, the key and the recovery codes fit the screen', async () => {
    const m = await newMerchant(server);
    // The first test's member is still signed in: a fresh browser, as a phone would be.
    await d.page.deleteCookie(...(await d.page.cookies()));
    await d.page.setViewport({ width: 360, height: 800 });
    try {
      await d.signIn(m.email, TEST_PASSWORD);
      await d.go('/settings');
      await d.click('Turn on two-factor sign-in');
      await d.waitText('Scan this QR code');
      const fits = () => d.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      expect(await fits()).toBe(true);
      await d.page.$eval('#two-factor', (el) => el.scrollIntoView());
      await d.shot('two-factor-360-qr');
      const secret = await d.page.$eval(
        '#two-factor .copy-field input',
        (i) => (i as HTMLInputElement).value,
      );
      await d.fill('Code', await codeNow(secret));
      await d.click('Confirm');
      await d.waitText('Your recovery codes');
      expect(await fits()).toBe(true);
      await d.page.$eval('[data-testid="recovery-codes"]', (el) => el.scrollIntoView());
      await d.shot('two-factor-360-recovery-codes');
      await d.click('I have saved them');
      await d.waitText(/On since .*Recovery codes left: 10/);
      now += STEP_MS;
    } finally {
      await d.page.setViewport({ width: 1280, height: 900 });
    }
  });
});
