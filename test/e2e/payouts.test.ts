import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomEvmAddress } from '../../sandbox/chains/evm/local-evm';
import { startSandboxStack, type SandboxStack } from '../support/sandbox-stack';
import { newMerchant, TEST_PASSWORD } from '../support/test-server';
import { expectAccessible, launchBrowser } from './support/browser';
import { DASHBOARD_SCREENSHOTS, openDashboard, type DashboardPage } from './support/dashboard-page';

/**
 * Payouts in a real Chromium against the sandbox (its chains and keys): a CSV uploaded with bad rows
 * (each named by its row, nothing made), then a good one (the payout's page, Draft), approved,
 * sent from the sandbox wallets and seen Completed, item by item. Screenshots:
 * docs/dashboard/payouts-*.png.
 */

let stack: SandboxStack;
let browser: Browser;
let d: DashboardPage;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startSandboxStack(), launchBrowser()]);
  const merchant = await newMerchant(stack.server, { name: 'Loja Sandbox' });
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

const shot = (name: string) =>
  d.page.screenshot({
    path: path.join(DASHBOARD_SCREENSHOTS, `payouts-${name}.png`) as `${string}.png`,
    fullPage: true,
  });

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
});
