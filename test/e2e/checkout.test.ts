import { Keypair, PublicKey } from '@solana/web3.js';
import type { Browser, Page } from 'puppeteer-core';
import { toHex, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimProofMessage } from '../../contract/proof-messages';
import { decodeBase58 } from '../../server/lib/base58';
import type { LocalEvm, LocalWallet } from '../../sandbox/chains/evm/local-evm';
import type { HarnessShop, PaymentHarness } from '../support/payment-harness';
import type { LocalSolana } from '../../sandbox/chains/solana/local-solana';
import {
  clickWallet,
  expectAccessible,
  openPage,
  screenshot,
  visibleText,
  waitForStatus,
} from './support/browser';
import { injectEvmWallet, injectSolanaWallet } from './support/test-wallets';
import { logStartup, startTwoChains, type TwoChains } from './support/two-chains';

/**
 * The hosted checkout in a real Chromium against the real service, a local Solana chain (litesvm)
 * and a local Polygon chain (Hardhat, chain id 137): a payer clicks through to PAID with a Wallet
 * Standard wallet and with an EIP-1193 wallet, and sees every state in words, in three languages.
 * Screenshots of each state go to docs/checkout/.
 */

const CONFIRMATIONS = 2;
const RETURN_URL = 'https://shop.example.com/orders/1001';

let chains: TwoChains;
let solana: LocalSolana;
let usdtSolana: string;
let evm: LocalEvm;
let usdtPolygon: Address;
let h: PaymentHarness;
let solShop: HarnessShop;
let polyShop: HarnessShop;
let browser: Browser;

beforeAll(async () => {
  const started = performance.now();
  chains = await startTwoChains(CONFIRMATIONS);
  ({ solana, evm, usdtPolygon, h, browser } = chains);
  usdtSolana = chains.usdtSolana.toBase58();
  solShop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
  polyShop = await h.newShop('POLYGON', (await evm.newWallet()).address);
  logStartup('checkout', started);
}, 120_000);

afterAll(() => chains?.stop());

const checkoutUrl = (reference: string, query = '') => `${h.server.url}/checkout/${reference}${query}`;
const tagOf = (reference: string) => toHex(decodeBase58(reference)!);

/** Runs the payment jobs (verification, scanning) until the order has `status`, as the service's cron would. */
const settle = (shop: HarnessShop, reference: string, status: string) => h.settle(shop, reference, status);

describe('Solana: a Wallet Standard wallet', () => {
  it('pays in the page through the transaction request: waiting, confirming, paid with the transaction and the way back', async () => {
    const order = await h.createOrder(solShop, {
      amount: '12.5',
      description: 'Order #1001 · 2 coffees',
      returnUrl: RETURN_URL,
    });
    const payer = await solana.newPayer({ mint: new PublicKey(usdtSolana), units: 50_000_000n });
    const page = await openPage(browser);
    const wallet = await injectSolanaWallet(page, solana, payer);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });

    // Waiting: the amount, the network in words, the warning, a countdown, the QR and its text.
    await waitForStatus(page, 'Waiting for your payment');
    expect(await page.$eval('h1', (n) => n.textContent)).toBe('Payment to Chain Shop');
    expect(await visibleText(page, '#amount-value')).toBe('12.50 USDT');
    expect(await visibleText(page, '#network-warning')).toContain('Send only USDT on Solana (localnet)');
    expect(await visibleText(page, '#token-contract')).toBe(usdtSolana);
    expect(await visibleText(page, '#pay-link')).toBe(order.payUrl);
    expect(await visibleText(page, '#countdown')).toMatch(/Time left to pay: 1[45]:\d\d/);
    await qrShown(page);
    // Not a sandbox: no banner, no sandbox wallet (test/e2e/sandbox.test.ts shows them on one).
    expect(await page.$('#sandbox-banner')).toBeNull();
    expect(await page.$('#sandbox-pay')).toBeNull();
    await expectAccessible(page, 'solana waiting');
    await screenshot(page, 'solana-1-waiting');

    // The wallet signs and sends the service's transaction; the page reports it: confirming.
    solana.holdFinality(true);
    await clickWallet(page, 'Pay with Test Solana Wallet');
    await waitForStatus(page, 'Payment seen, waiting for confirmation');
    expect(wallet.signatures).toHaveLength(1);
    expect(await visibleText(page, '#pay')).toBe(''); // nothing to pay twice with while confirming
    await screenshot(page, 'solana-2-confirming');

    // Final on chain: paid, with the transaction's explorer link and the way back to the shop.
    solana.holdFinality(false);
    solana.finalizeAll();
    await settle(solShop, order.reference, 'PAID');
    await waitForStatus(page, 'Paid. Thank you!');
    const signature = wallet.signatures[0]!;
    expect(await page.$eval('#tx-link', (a) => (a as HTMLAnchorElement).href)).toBe(
      `https://explorer.solana.com/tx/${signature}?cluster=custom`,
    );
    expect(await page.$eval('#back-to-shop', (a) => (a as HTMLAnchorElement).href)).toBe(RETURN_URL);
    expect(await visibleText(page, '#back-to-shop')).toBe('Back to the shop');
    expect(await visibleText(page, '#qr')).toBe('');
    expect(await page.$('#qr[src]')).toBeNull();
    await expectAccessible(page, 'solana paid');
    await screenshot(page, 'solana-3-paid');
    await page.close();
  });
});

describe('Polygon: an EIP-1193 / EIP-6963 wallet', () => {
  it('underpaid, then pays the rest in the page: the link, QR and wallet ask only for what is due (Spanish)', async () => {
    const order = await h.createOrder(polyShop, { amount: '10', returnUrl: RETURN_URL });
    const payerWallet = await evm.newWallet({ token: usdtPolygon, units: 50_000_000n });
    const page = await openPage(browser, { languages: ['es-ES', 'es'] });
    const wallet = await injectEvmWallet(page, evm, payerWallet, 1);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Esperando tu pago');
    expect(await visibleText(page, '#network-warning')).toContain('Envía solo USDT en la red Polygon PoS');

    // A first transfer of 4 from elsewhere (tagged, as the service's transaction request builds it).
    await sendTo(order.recipient, payerWallet, 4_000_000n, order.reference);
    await settle(polyShop, order.reference, 'UNDERPAID');
    await waitForStatus(page, 'Pagado en parte: faltan 6,00 USDT');
    expect(await visibleText(page, '#amount-value')).toBe('6,00 USDT');
    expect(await visibleText(page, '#received')).toBe('Recibido hasta ahora: 4,00 USDT');
    expect(await visibleText(page, '#pay-link')).toContain('uint256=6000000');
    expect(await page.$eval('#qr', (n) => n.getAttribute('src'))).toContain('due=6.000000');
    await expectAccessible(page, 'polygon underpaid');
    await screenshot(page, 'polygon-1-underpaid-es');

    // Pay the rest with the browser wallet: it is switched from Ethereum to Polygon, then sends.
    await clickWallet(page, 'Pagar con Test EVM Wallet');
    await waitForStatus(page, 'Pago recibido, esperando confirmación');
    expect(wallet.calls.map((c) => c.method)).toContain('wallet_switchEthereumChain');
    await screenshot(page, 'polygon-2-confirming-es');
    await evm.mine(CONFIRMATIONS);
    await settle(polyShop, order.reference, 'PAID');
    await waitForStatus(page, 'Pagado. ¡Gracias!');
    expect(await page.$eval('#tx-link', (a) => (a as HTMLAnchorElement).href)).toBe(
      `https://polygonscan.com/tx/${wallet.sent[0]}`,
    );
    expect(await visibleText(page, '#back-to-shop')).toBe('Volver a la tienda');
    await screenshot(page, 'polygon-3-paid-es');
    await page.close();
  });

  it('is usable by keyboard at 320 px, and says so when the payer rejects in the wallet (Portuguese)', async () => {
    const order = await h.createOrder(polyShop, { quoteCurrency: 'BRL', quoteAmount: '6481.125' });
    const payerWallet = await evm.newWallet({ token: usdtPolygon, units: 5_000_000_000n });
    const page = await openPage(browser, { languages: ['pt-BR', 'pt', 'en'], width: 320, height: 700 });
    const wallet = await injectEvmWallet(page, evm, payerWallet, 137);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Aguardando seu pagamento');
    // Locale formatting: 6481.125 BRL at 5.25 is 1234.500000 USDT -> "1.234,50 USDT"; the price in reais.
    expect(await visibleText(page, '#amount-value')).toBe('1.234,50 USDT');
    expect(await visibleText(page, '#quote')).toContain('R$');
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page, 'polygon 320px pt-BR');
    await screenshot(page, 'polygon-0-waiting-pt-BR-320px');

    // Tab to the wallet button and press Enter; the payer rejects in the wallet.
    wallet.rejectNextSend();
    let focused = '';
    for (let i = 0; i < 30 && !focused.includes('Pagar com'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
    }
    expect(focused).toBe('Pagar com Test EVM Wallet');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      /cancelou/.test(document.querySelector('#wallet-message')?.textContent ?? ''),
    );
    expect(await visibleText(page, '#wallet-message')).toBe(
      'Você cancelou o pedido na carteira. Nada foi enviado.',
    );
    expect((await h.getOrder(polyShop, order.reference)).status).toBe('PENDING');
    await page.close();
  });
});

/** Opens "Already paid? Report your transaction" and types the transaction id. */
/** Waits until the QR image has loaded and has a size (its src changes with the chosen option). */
async function qrShown(page: Page) {
  await page.waitForFunction(
    () => {
      const qr = document.querySelector<HTMLImageElement>('#qr');
      return qr !== null && qr.complete && qr.naturalWidth > 0;
    },
    { timeout: 10_000, polling: 100 },
  );
}

async function openReport(page: Page, summary: string, txId: string) {
  await page.click('#report summary');
  await page.waitForSelector('#report-tx', { visible: true });
  expect(await visibleText(page, '#report summary')).toBe(summary);
  await page.type('#report-tx', txId);
}

/**
 * A Polygon order of `amount` paid outside the checkout: a plain transfer of `units` (no tag) from
 * a new wallet, mined until final.
 */
async function transferredOutside(amount: string, units: bigint) {
  const order = await h.createOrder(polyShop, { amount });
  const from = await evm.newWallet({ token: usdtPolygon, units: 50_000_000n });
  return { order, from, txId: await sendTo(order.recipient, from, units) };
}

/**
 * A transfer of `units` of Polygon USDT from `from` to `recipient`, tagged with an order's
 * reference when one is given (as the service's transaction request builds it), mined until final.
 */
async function sendTo(recipient: string, from: LocalWallet, units: bigint, tagReference?: string) {
  const txId = await evm.transfer({
    from,
    token: usdtPolygon,
    to: recipient as Address,
    units,
    ...(tagReference ? { dataSuffix: tagOf(tagReference) } : {}),
  });
  await evm.mine(CONFIRMATIONS);
  return txId;
}

/** Waits until the report's status line says `text`. */
async function waitForReport(page: Page, text: string) {
  await page.waitForFunction(
    (want: string) => (document.querySelector('#report-status')?.textContent ?? '').includes(want),
    { timeout: 15_000, polling: 100 },
    text,
  );
}

describe('a payment made another way, reported on the page', () => {
  it('Solana: the sending wallet signs the report (solana:signMessage), and a transfer with no reference is credited', async () => {
    // A shop of its own: an earlier 12.50 order on the shared one still holds that amount (late window).
    const shop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const order = await h.createOrder(shop, { amount: '12.5' });
    const mint = new PublicKey(usdtSolana);
    const payer = await solana.newPayer({ mint, units: 50_000_000n });
    // Sent from the wallet app by hand: no reference, and 12.40 instead of 12.50.
    const txId = await solana.transfer({
      payer,
      recipientOwner: new PublicKey(shop.wallet),
      mint,
      amountUnits: 12_400_000n,
    });
    const page = await openPage(browser);
    const wallet = await injectSolanaWallet(page, solana, payer);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Waiting for your payment');

    // Closed until asked for: one line under the ways to pay.
    expect(await visibleText(page, '#report-tx')).toBe('');
    await openReport(page, 'Already paid? Report your transaction', txId);
    await page.waitForSelector('#report-wallets button', { visible: true });
    expect(await visibleText(page, '#report-wallets')).toBe(
      'Sign with Test Solana Wallet to prove I sent it',
    );
    expect(await visibleText(page, '#report-send')).toBe('Report without signing');
    await expectAccessible(page, 'report form (solana)');
    await page.$eval('#report', (n) => n.scrollIntoView());
    await screenshot(page, 'report-1-form-solana');

    await page.click('#report-wallets button');
    await waitForReport(page, 'Reported with your signature.');
    expect(wallet.signedMessages).toEqual([claimProofMessage(order.reference, txId)]);
    expect(wallet.signatures).toEqual([]); // nothing was sent: a signature only

    await settle(shop, order.reference, 'UNDERPAID');
    await waitForStatus(page, 'Partly paid: 0.10 USDT still to pay');
    await waitForReport(page, 'Your transaction was credited to this order.');
    expect(await h.ledgerOf(shop, order.reference)).toEqual([
      expect.objectContaining({
        txId,
        amount: '12.400000',
        matchedBy: 'claim',
        from: payer.publicKey.toBase58(),
      }),
    ]);
    await expectAccessible(page, 'report signed (solana)');
    await screenshot(page, 'report-2-signed-credited-solana');
    await page.close();
  });

  it('Polygon: personal_sign by the sending wallet (a first refusal said in words) credits a plain transfer (Spanish)', async () => {
    // An EIP-681 transfer from the wallet app: no tag, and more than asked.
    const { order, from: payerWallet, txId } = await transferredOutside('10', 10_250_000n);
    const page = await openPage(browser, { languages: ['es-ES', 'es'] });
    const wallet = await injectEvmWallet(page, evm, payerWallet, 137);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Esperando tu pago');

    // Signing asked for nothing typed yet: said, and the field is marked.
    await page.click('#report summary');
    await page.waitForSelector('#report-wallets button', { visible: true });
    await page.click('#report-wallets button');
    await waitForReport(page, 'Pega primero el ID de la transacción.');
    expect(await page.$eval('#report-tx', (n) => n.getAttribute('aria-invalid'))).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('report-tx');
    await page.type('#report-tx', `  ${txId} `);

    wallet.rejectNextSign();
    await page.click('#report-wallets button');
    await waitForReport(page, 'Cancelaste la firma en la billetera. No se informó nada.');
    expect((await h.auditOf(polyShop, order.reference)).map((e) => e.type)).not.toContain('tx.submitted');

    await page.click('#report-wallets button');
    await waitForReport(page, 'Informada con tu firma.');
    // The txId as the body sends it (trimmed): the message the service rebuilds.
    expect(wallet.signedMessages).toEqual([claimProofMessage(order.reference, txId)]);
    await page.$eval('#report', (n) => n.scrollIntoView());
    await screenshot(page, 'report-3-signed-polygon-es');
    await settle(polyShop, order.reference, 'PAID');
    await waitForStatus(page, 'Pagado. ¡Gracias!');
    expect(await visibleText(page, '#report')).toBe(''); // nothing to report once paid
    expect(await h.ledgerOf(polyShop, order.reference)).toEqual([
      expect.objectContaining({ txId, amount: '10.250000', matchedBy: 'claim' }),
    ]);
    const submitted = (await h.auditOf(polyShop, order.reference)).find((e) => e.type === 'tx.submitted');
    expect(submitted?.data).toMatchObject({ txId, signed: true });
    await page.close();
  });

  it('without a browser wallet: the report is sent alone and the shop checks it; a bad id is said in words (Portuguese, 320 px)', async () => {
    // An amount no other test's order has: this one stays open (a later one would be raised to
    // 4.000001). An exchange's hot wallet withdraws to the shop, short by its fee.
    const { order, txId } = await transferredOutside('4', 3_900_000n);
    const page = await openPage(browser, { languages: ['pt-BR', 'pt'], width: 320, height: 700 });
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Aguardando seu pagamento');

    await openReport(page, 'Já pagou? Informe sua transação', '0x1234');
    expect(await visibleText(page, '#report-sign')).toBe(''); // no wallet to sign with
    expect(await visibleText(page, '#report-send')).toBe('Informar a transação');
    await page.click('#report-send');
    await waitForReport(page, 'Isto não é um ID de transação na rede Polygon PoS.');

    await page.click('#report-tx', { clickCount: 3 });
    await page.type('#report-tx', txId);
    await page.keyboard.press('Enter');
    await waitForReport(page, 'Informada. A loja vai verificar a transação');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page, 'report unsigned (pt-BR, 320 px)');
    await page.$eval('#report', (n) => n.scrollIntoView());
    await screenshot(page, 'report-4-unsigned-pt-BR-320px');

    // Recorded for the shop, credited nothing: the page is back to waiting for the payment.
    await h.runJobs(async () =>
      (await h.auditOf(polyShop, order.reference)).some((e) => e.type === 'payment.claimed'),
    );
    await waitForStatus(page, 'Aguardando seu pagamento');
    expect(await h.getOrder(polyShop, order.reference)).toMatchObject({
      status: 'PENDING',
      amountReceived: '0.000000',
    });
    const submitted = (await h.auditOf(polyShop, order.reference)).find((e) => e.type === 'tx.submitted');
    expect(submitted?.data).toMatchObject({ txId, signed: false });
    await page.close();
  });
});

describe('expiry and late payment', () => {
  it('leaves nothing payable once expired, and shows a payment that arrives late', async () => {
    const order = await h.createOrder(polyShop, { amount: '3' });
    const page = await openPage(browser);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Waiting for your payment');

    // The order's time runs out (moved into the past rather than waited for) and the job expires it.
    await h.server.deps.db.models.Order.update(
      { expiresAt: new Date(Date.now() - 1000) },
      { where: { reference: order.reference } },
    );
    await h.server.jobs.runNow('expire-orders');
    await waitForStatus(page, 'This payment request has expired');
    for (const selector of ['#pay', '#countdown', '#qr', '#recipient', '#wallets', '#open-wallet'])
      expect(await visibleText(page, selector), selector).toBe('');
    expect(await page.$('#qr[src]')).toBeNull();
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown).not.toContain(order.payUrl);
    expect(shown).not.toContain(order.recipient);
    expect(await page.$eval('#pay-link', (n) => n.textContent)).toBe('');
    await expectAccessible(page, 'expired');
    await screenshot(page, 'state-expired');

    // Money sent anyway (tagged) still counts: the page turns to "paid late" by itself.
    const payerWallet = await evm.newWallet({ token: usdtPolygon, units: 3_000_000n });
    await sendTo(order.recipient, payerWallet, 3_000_000n, order.reference);
    await settle(polyShop, order.reference, 'PAID');
    await waitForStatus(page, 'Paid after the deadline', 15_000);
    await screenshot(page, 'state-paid-late');
    await page.close();
  });
});

describe('languages and bad links', () => {
  it('follows the browser languages, ?lang= overrides them', async () => {
    const order = await h.createOrder(solShop, { amount: '1' });
    const page = await openPage(browser, { languages: ['pt-BR'] });
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Aguardando seu pagamento');
    expect(await page.$eval('html', (n) => n.lang)).toBe('pt-BR');
    await page.goto(checkoutUrl(order.reference, '?lang=es'), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Esperando tu pago');
    expect(await page.$eval('html', (n) => n.lang)).toBe('es');
    // The switcher is plain links, in each language's own name.
    await page.click('a[hreflang="en"]');
    await waitForStatus(page, 'Waiting for your payment');
    await page.close();
  });

  it('answers a bad or unknown link with an HTML page in the payer’s language', async () => {
    const page = await openPage(browser, { languages: ['es'] });
    const unknown = await page.goto(checkoutUrl(Keypair.generate().publicKey.toBase58()));
    expect(unknown!.status()).toBe(404);
    expect(unknown!.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.$eval('h1', (n) => n.textContent)).toBe('Página de pago no encontrada');
    await expectAccessible(page, 'unknown reference');
    const bad = await page.goto(checkoutUrl('not-a-reference', '?lang=en'));
    expect(bad!.status()).toBe(400);
    expect(await visibleText(page, '[role=alert]')).toContain('This payment link is not valid');
    await screenshot(page, 'state-bad-link');
    await page.close();
  });
});

describe('an order with several payment options', () => {
  it('the payer chooses USDT on Polygon over USDT on Solana: words, QR, link, recipient and wallets follow; what is due after a partial payment; paid with it', async () => {
    // A shop with a wallet on each network.
    const shop = await h.newShop('SOLANA', Keypair.generate().publicKey.toBase58());
    const polygonWallet = (await evm.newWallet()).address;
    const added = await h.server.api('POST', '/users/me/wallets', {
      token: shop.token,
      body: { network: 'POLYGON', public_address: polygonWallet, name: 'Polygon till' },
    });
    expect(added.status, added.text).toBe(201);
    const order = await h.createOrder(shop, {
      amount: '7.5',
      returnUrl: RETURN_URL,
      paymentOptions: [
        { network: 'SOLANA', token: 'USDT' },
        { network: 'POLYGON', token: 'USDT' },
      ],
    });
    const options = order.paymentOptions as { network: string; payUrl: string; recipient: string }[];
    const [onSolana, onPolygon] = options;
    expect(options.map((o) => o.network)).toEqual(['SOLANA', 'POLYGON']);

    const solanaPayer = await solana.newPayer({ mint: new PublicKey(usdtSolana), units: 1_000_000n });
    const payerWallet = await evm.newWallet({ token: usdtPolygon, units: 50_000_000n });
    const page = await openPage(browser);
    await injectSolanaWallet(page, solana, solanaPayer);
    const wallet = await injectEvmWallet(page, evm, payerWallet, 137);
    await page.goto(checkoutUrl(order.reference), { waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Waiting for your payment');

    // The choice in words, the first option chosen: its warning, link, QR and Solana wallets only.
    expect(await visibleText(page, '#choice legend')).toBe('Pay with');
    expect(await page.$$eval('#choice label', (ls) => ls.map((l) => l.textContent))).toEqual([
      'USDT on Solana (localnet)',
      'USDT on Polygon PoS',
    ]);
    expect(await page.$eval('#option-SOLANA-USDT', (n) => (n as HTMLInputElement).checked)).toBe(true);
    expect(await visibleText(page, '#network-warning')).toBe(
      'Send only on Solana (localnet); a transfer on another network is lost.',
    );
    expect(await visibleText(page, '#amount-value')).toBe('7.50 USDT');
    expect(await visibleText(page, '#pay-link')).toBe(onSolana!.payUrl);
    await page.waitForSelector('#wallets button', { visible: true });
    expect(await visibleText(page, '#wallets')).toBe('Pay with Test Solana Wallet');
    const solanaQr = await page.$eval('#qr', (n) => n.getAttribute('src'));
    expect(solanaQr).toContain('network=SOLANA');
    await expectAccessible(page, 'options choice');
    await screenshot(page, 'options-1-choice');

    // Nothing wider than a phone at 320 px.
    await page.setViewport({ width: 320, height: 700, deviceScaleFactor: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(page, 'options choice 320px');
    await screenshot(page, 'options-0-choice-320px');
    await page.setViewport({ width: 400, height: 860, deviceScaleFactor: 1 });

    // The payer chooses Polygon: the warning, amount, link, QR, recipient and wallets switch.
    await page.click('label[for="option-POLYGON-USDT"]');
    await page.waitForFunction(() =>
      (document.querySelector('#network-warning')?.textContent ?? '').includes('Polygon PoS'),
    );
    expect(await visibleText(page, '#network-warning')).toBe(
      'Send only on Polygon PoS; a transfer on another network is lost.',
    );
    expect(await visibleText(page, '#pay-link')).toBe(onPolygon!.payUrl);
    expect(await visibleText(page, '#recipient')).toBe(onPolygon!.recipient);
    expect(await visibleText(page, '#manual-network')).toBe('Polygon PoS');
    expect(await page.$eval('#qr', (n) => n.getAttribute('src'))).toContain('network=POLYGON');
    await page.waitForFunction(() =>
      /Test EVM Wallet/.test(document.querySelector('#wallets')?.textContent ?? ''),
    );
    expect(await visibleText(page, '#wallets')).toBe('Pay with Test EVM Wallet');
    await qrShown(page);
    await expectAccessible(page, 'options polygon chosen');
    await screenshot(page, 'options-2-polygon-chosen');

    // A report names the chosen option's network (submit-tx's network), and speaks of it.
    const reports: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/submit-tx'))
        reports.push(JSON.parse(r.postData() ?? '{}'));
    });
    await openReport(page, 'Already paid? Report your transaction', '0x1234');
    await page.click('#report-send');
    await waitForReport(page, 'This is not a transaction id on Polygon PoS.');
    expect(reports).toEqual([{ txId: '0x1234', network: 'POLYGON' }]);
    await page.click('#report summary');

    // A first 2.50 on Polygon from elsewhere: the page shows what is still due on it.
    await sendTo(onPolygon!.recipient, payerWallet, 2_500_000n, order.reference);
    await settle(shop, order.reference, 'UNDERPAID');
    await waitForStatus(page, 'Partly paid: 5.00 USDT still to pay');
    expect(await visibleText(page, '#amount-value')).toBe('5.00 USDT');
    expect(await visibleText(page, '#pay-link')).toContain('uint256=5000000');
    expect(await page.$eval('#qr', (n) => n.getAttribute('src'))).toContain('due=5.000000');
    // Opened again, the page starts on the option the first payment was made with.
    await page.reload({ waitUntil: 'networkidle0' });
    await waitForStatus(page, 'Partly paid: 5.00 USDT still to pay');
    expect(await page.$eval('#option-POLYGON-USDT', (n) => (n as HTMLInputElement).checked)).toBe(true);
    expect(await visibleText(page, '#pay-link')).toContain('uint256=5000000');
    await page.waitForFunction(() =>
      /Test EVM Wallet/.test(document.querySelector('#wallets')?.textContent ?? ''),
    );
    expect(await visibleText(page, '#received')).toBe('Received so far: 2.50 USDT');
    await expectAccessible(page, 'options polygon underpaid');
    await screenshot(page, 'options-2b-polygon-underpaid');

    // The rest with the browser wallet, on Polygon: paid, and the page says with what.
    await clickWallet(page, 'Pay with Test EVM Wallet');
    await waitForStatus(page, 'Payment seen, waiting for confirmation');
    expect(reports.at(-1)).toEqual({ txId: wallet.sent[0], network: 'POLYGON' });
    await evm.mine(CONFIRMATIONS);
    await settle(shop, order.reference, 'PAID');
    await waitForStatus(page, 'Paid. Thank you!');
    expect(await visibleText(page, '#paid-with')).toBe('Paid with USDT on Polygon PoS');
    expect(await page.$eval('#tx-link', (a) => (a as HTMLAnchorElement).href)).toBe(
      `https://polygonscan.com/tx/${wallet.sent[0]}`,
    );
    expect(await visibleText(page, '#choice')).toBe('');
    await expectAccessible(page, 'options paid');
    await screenshot(page, 'options-3-paid');
    await page.close();
  });
});
