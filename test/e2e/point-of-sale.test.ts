import { Keypair, PublicKey } from '@solana/web3.js';
import type { Browser } from 'puppeteer-core';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { addMember } from '../support/members';
import type { PaidOrder, PaymentHarness } from '../support/payment-harness';
import { newMerchant, TEST_PASSWORD } from '../support/test-server';
import { openPage } from './support/browser';
import { dashboardPage } from './support/dashboard-page';
import { logStartup, startTwoChains, type TwoChains } from './support/two-chains';

/**
 * The point of sale in a real Chromium, on a phone (360 px) and a tablet (1024 px), against the
 * service and a local Solana chain: a cashier signs in and lands on it, types an amount on the
 * keypad, picks a tip, charges; the customer's wallet pays the QR code's order on the chain and the
 * screen turns to "Paid"; the receipt prints on thermal paper. On the tablet the connection drops
 * as the cashier charges: "no connection", then the same sale once it is back (one order only).
 * Screenshots: docs/dashboard/e2e-pos-*.png.
 */
let chains: TwoChains;
let solana: LocalSolana;
let usdtSolana: PublicKey;
let h: PaymentHarness;
let browser: Browser;
let owner: { id: string; email: string; token: string };

beforeAll(async () => {
  const started = performance.now();
  chains = await startTwoChains(2);
  ({ solana, usdtSolana, h, browser } = chains);
  owner = await newMerchant(h.server, { name: 'Café da Esquina' });
  for (const [network, address] of [
    ['SOLANA', Keypair.generate().publicKey.toBase58()],
    ['POLYGON', (await chains.evm.newWallet()).address],
  ]) {
    const added = await h.server.api('POST', '/users/me/wallets', {
      token: owner.token,
      body: { network, public_address: address },
    });
    expect(added.status, added.text).toBe(201);
  }
  const settings = await h.server.api('PATCH', '/account', {
    token: owner.token,
    body: { currency: 'USDT', tipPercentages: [10, 15, 20] },
  });
  expect(settings.status, settings.text).toBe(200);
  logStartup('point of sale', started);
}, 120_000);

afterAll(() => chains?.stop());

const ordersOf = async (memberId: string) => {
  const list = await h.server.api<{ items: PaidOrder[] }>('GET', '/users/me/orders', { token: owner.token });
  return list.body.items.filter(
    (o) => (o as unknown as { createdBy: { memberId?: string } }).createdBy?.memberId === memberId,
  );
};

describe('the point of sale, end to end', () => {
  /** The cashiers who made a paid sale, for the owner's view of them. */
  const cashiers: { email: string }[] = [];
  for (const width of [360, 1024]) {
    it(`a cashier charges 12.50 with a 15% tip and sees it paid on a local chain (${width} px)`, async () => {
      const cashier = await addMember(h.server, owner.id, 'cashier');
      const context = await browser.createBrowserContext();
      try {
        const page = await openPage(context, { width, height: width < 500 ? 800 : 768 });
        const d = dashboardPage(page, h.server.url);
        await d.signIn(cashier.email, TEST_PASSWORD);
        // A cashier lands on the point of sale, and it is in the menu.
        await page.waitForSelector('.pos-keypad');
        expect(new URL(page.url()).pathname).toBe('/dashboard/pos');
        await d.shot(`pos-${width}-01-keypad`);

        // By keyboard on the tablet, by touch on the phone.
        if (width > 500) await page.keyboard.type('1250');
        else for (const key of ['1', '2', '5', '0']) await d.click(key);
        await d.waitText('12.50 USDT');
        await d.click('15%');
        await d.waitText('Tip 1.88 USDT · total 14.38 USDT');
        await d.shot(`pos-${width}-02-tip`);

        const offline = width > 500;
        if (offline) await page.setOfflineMode(true);
        await d.click('Charge 14.38 USDT');
        if (offline) {
          await d.waitText('No connection. Retrying the same sale');
          await d.shot(`pos-${width}-03-no-connection`);
          await page.setOfflineMode(false);
        }
        await page.waitForSelector('.pos-qr img.qr', { visible: true });
        await d.waitText('Waiting for payment');
        await d.shot(`pos-${width}-04-qr`);

        const sales = await ordersOf(cashier.id);
        expect(sales).toHaveLength(1); // retried or not, one sale is one order
        const order = sales[0]!;
        expect(order.amount).toMatch(/^14\.3800/); // raised a few base units when another open order has it
        expect((order as unknown as { paymentOptions: unknown[] }).paymentOptions.length).toBeGreaterThan(1);

        // The customer switches to Polygon on the screen and back to Solana, then pays on Solana.
        await d.click('USDT · Polygon PoS');
        await d.click('USDT · Solana');
        const payer = await solana.newPayer({ mint: usdtSolana, units: 100_000_000n });
        await solana.transfer({
          payer,
          recipientOwner: new PublicKey(order.recipient),
          mint: usdtSolana,
          amountUnits: parseUnits(order.amount, 6),
          reference: new PublicKey(order.reference),
        });
        await h.settle(
          { token: owner.token, network: 'SOLANA', path: '/hooks', secret: '' },
          order.reference,
          'PAID',
        );
        await page.waitForSelector('.pos-paid', { visible: true, timeout: 20_000 });
        await d.waitText('Paid');
        await d.waitText('14.38');
        await d.waitText('Today: 1 paid sales');
        await d.shot(`pos-${width}-05-paid`);

        await d.click('Receipt');
        await page.waitForSelector('.receipt');
        await d.waitText('Tip (15%)');
        await d.shot(`pos-${width}-06-receipt`);
        // As the printer gets it: the strip alone, the dashboard's frame not printed.
        await page.emulateMediaType('print');
        expect(await page.$eval('.topbar', (e) => getComputedStyle(e).display)).toBe('none');
        await d.shot(`pos-${width}-07-receipt-print`);
        await page.emulateMediaType('screen');
        await d.click('← Point of sale');
        await page.waitForSelector('.pos-keypad');
        await d.waitText('Today: 1 paid sales');
        // A cashier sees its own day, never the others'.
        expect(await page.$('.pos-by-cashier')).toBeNull();
        cashiers.push(cashier);
      } finally {
        await context.close();
      }
    });
  }

  it("shows the owner each cashier's sales, on the overview and at the counter", async () => {
    expect(cashiers.length, 'the sales above ran').toBe(2);
    const context = await browser.createBrowserContext();
    try {
      const page = await openPage(context, { width: 1024, height: 900 });
      const d = dashboardPage(page, h.server.url);
      await d.signIn(owner.email, TEST_PASSWORD);
      await d.go('/');
      await d.waitText('Sales by member');
      const rowsOf = () =>
        page.$$eval('table.sales-by-member tbody tr', (rows) =>
          rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim())),
        );
      await page.waitForSelector('table.sales-by-member tbody tr');
      const rows = await rowsOf();
      // Each cashier: one order made, one paid, 14.38 USDT received (a unique amount may add units).
      expect(rows).toHaveLength(2);
      for (const cashier of cashiers) {
        const row = rows.find((cells) => cells[0]!.includes(cashier.email));
        expect(row, cashier.email).toBeDefined();
        expect(row!.slice(1, 3)).toEqual(['1', '1']);
        expect(row![3]).toMatch(/14\.38/);
      }
      await page.$eval('table.sales-by-member', (e) => e.scrollIntoView());
      await d.shot('pos-owner-01-sales-by-member');

      await d.go('/pos');
      await page.waitForSelector('.pos-by-cashier summary');
      await page.click('.pos-by-cashier summary');
      await page.waitForSelector('.pos-by-cashier table.sales-by-member tbody tr', { visible: true });
      expect(await page.$$eval('.pos-by-cashier tbody tr', (r) => r.length)).toBe(2);
      await d.shot('pos-owner-02-today-by-cashier', { fullPage: true });
    } finally {
      await context.close();
    }
  });
});
