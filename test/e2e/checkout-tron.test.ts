import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimProofMessage } from '../../contract/proof-messages';
import { startLocalTron, type LocalTron } from '../../sandbox/chains/tron';
import { startPaymentHarness, type HarnessShop, type PaymentHarness } from '../support/payment-harness';
import {
  clickWallet,
  expectAccessible,
  launchBrowser,
  openPage,
  screenshot,
  visibleText,
  waitForStatus,
} from './support/browser';
import { injectTronWallet } from './support/tron-wallet';
import { logStartup } from './support/two-chains';

/**
 * USDT on TRON in the hosted checkout, in a real Chromium against the real service and the
 * TRON-compatible local chain (sandbox/chains/tron): TronLink (a test double announcing itself by
 * TIP-6963) signs the service's transaction request and broadcasts it to the chain's HTTP API, the
 * page reports it, and the order turns PAID once solidified. Without TronLink the page shows the
 * address, QR code and words to pay by hand. Screenshots go to docs/checkout/.
 */

let tron: LocalTron;
let h: PaymentHarness;
let browser: Browser;
let shop: HarnessShop;

beforeAll(async () => {
  const started = performance.now();
  [tron, browser] = await Promise.all([startLocalTron(), launchBrowser()]);
  h = await startPaymentHarness({ TRON_RPC_URL: tron.jsonRpcUrl, TRON_API_URL: tron.url });
  shop = await h.newShop('TRON', (await tron.newWallet()).address);
  logStartup('checkout-tron', started);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.stop();
  await tron?.stop();
});

const checkoutUrl = (reference: string) => `${h.server.url}/checkout/${reference}`;

describe('TRON: TronLink through the TRON wallet adapter', () => {
  it('pays the transaction request in the page: signed and broadcast by the wallet, reported, PAID once solidified', async () => {
    const order = await h.createOrder(shop, { amount: '12.5', description: 'Order #2001 · 1 hoodie' });
    const payer = await tron.newWallet({ usdt: 50_000_000n });
    const page = await openPage(browser);
    const wallet = await injectTronWallet(page, tron, payer);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });

    await waitForStatus(page, 'Waiting for your payment');
    expect(await visibleText(page, '#amount-value')).toBe('12.50 USDT');
    expect(await visibleText(page, '#token-contract')).toBe(tron.usdt);
    expect(await visibleText(page, '#recipient')).toBe(shop.wallet);
    await page.waitForSelector('xpath/.//button[contains(., "Pay with TronLink")]', { visible: true });
    expect(await visibleText(page, '#no-wallets')).toBe('');
    await expectAccessible(page, 'tron waiting');
    await screenshot(page, 'tron-1-tronlink');

    await clickWallet(page, 'Pay with TronLink');
    await waitForStatus(page, 'Payment seen, waiting for confirmation');
    expect(wallet.requests).toEqual([
      'eth_requestAccounts',
      'wallet_switchEthereumChain [{"chainId":"0x2b6653dc"}]',
    ]);
    expect(wallet.signed).toHaveLength(1);
    expect(wallet.broadcasts).toEqual([{ result: true, txid: wallet.signed[0] }]);
    // Not final before the block is solidified.
    expect((await h.getOrder(shop, order.reference)).status).toBe('CONFIRMING');

    await tron.solidify();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '12.500000', txId: wallet.signed[0] });
    await waitForStatus(page, 'Paid. Thank you!');
    expect(await page.$eval('#tx-link', (a) => (a as HTMLAnchorElement).href)).toBe(
      `https://tronscan.org/#/transaction/${wallet.signed[0]}`,
    );
    expect(await tron.tokenBalance(shop.wallet)).toBe(12_500_000n);
    await expectAccessible(page, 'tron paid');
    await screenshot(page, 'tron-2-paid');
    await page.close();
  });

  it('without TronLink: no wallet button, the bare address as QR code and text, the amount, network and contract in words', async () => {
    const order = await h.createOrder(shop, { amount: '3' });
    expect(order.qrData).toBe(shop.wallet);
    const page = await openPage(browser, { languages: ['pt-BR', 'pt'] });
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Aguardando seu pagamento');
    // The adapter gives up looking for TronLink after its short check: the page says so.
    await page.waitForSelector('#no-wallets', { visible: true, timeout: 5_000 });
    expect(await page.$('xpath/.//button[contains(., "TronLink")]')).toBeNull();
    expect(await visibleText(page, '#recipient')).toBe(shop.wallet);
    expect(await visibleText(page, '#token-contract')).toBe(tron.usdt);
    expect(await visibleText(page, '#manual-amount')).toBe('3 USDT');
    expect(await visibleText(page, '#manual-network')).toBe('TRON');
    expect(await page.$eval('#qr', (n) => (n as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page, 'tron no wallet');
    await screenshot(page, 'tron-0-no-wallet-pt-BR');
    await page.close();
  });

  it('a transfer made by hand, reported with a TIP-191 signature from TronLink: credited by the claim once solidified', async () => {
    // A shop of its own: the amounts of the other orders stay out of the way.
    const own = await h.newShop('TRON', (await tron.newWallet()).address);
    const order = await h.createOrder(own, { amount: '7' });
    const payer = await tron.newWallet({ usdt: 50_000_000n });
    // No tag and 6.90 instead of 7: nothing ties it to the order but the payer's word.
    const txId = await tron.transfer({ from: payer, to: own.wallet, units: 6_900_000n });
    const page = await openPage(browser, { languages: ['es-ES', 'es'] });
    const wallet = await injectTronWallet(page, tron, payer);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Esperando tu pago');

    await page.click('#report summary');
    await page.waitForSelector('#report-tx', { visible: true });
    expect(await visibleText(page, '#report-tx-hint')).toContain('TronLink, Tronscan');
    await page.type('#report-tx', txId);
    await page.waitForSelector('#report-wallets button', { visible: true });
    expect(await visibleText(page, '#report-wallets')).toContain('TronLink');
    await page.click('#report-wallets button');
    await page.waitForFunction(
      () => (document.querySelector('#report-status')?.textContent ?? '').includes('firma'),
      { timeout: 15_000, polling: 100 },
    );
    expect(wallet.signedMessages).toEqual([claimProofMessage(order.reference, txId)]);
    expect(wallet.signed).toEqual([]); // a signature only: nothing was sent

    await tron.solidify();
    await h.settle(own, order.reference, 'UNDERPAID');
    await waitForStatus(page, 'Pagado en parte: faltan 0,10 USDT');
    const items = (await h.server.api('GET', `/orders/${order.reference}/payments`, { token: own.token }))
      .body.items as { txId: string; matchedBy: string; from: string }[];
    expect(items).toEqual([expect.objectContaining({ txId, matchedBy: 'claim', from: payer.address })]);
    await page.$eval('#report', (n) => n.scrollIntoView());
    await expectAccessible(page, 'tron report signed (es)');
    await screenshot(page, 'tron-3-report-signed-es');
    await page.close();
  });
});
