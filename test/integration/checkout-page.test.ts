import { Keypair } from '@solana/web3.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, startTestServer, type TestServer } from '../support/test-server';

/**
 * The checkout page over HTTP (the browser suite, npm run test:e2e, drives it in Chromium): the
 * page carries the order and its language, a browser gets HTML for a bad link while API clients
 * keep the error body, returnUrl round-trips, GET / links the docs, and each request logs one line.
 */

const logLines: Record<string, unknown>[] = [];
let server: TestServer;
beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  server = await startTestServer({ LOG_LEVEL: 'info' }, { logger });
});
afterAll(() => server?.stop());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers }).then(async (res) => ({ res, text: await res.text() }));

async function order(body: Record<string, unknown> = {}) {
  const m = await newMerchant(server, { name: 'Loja <Azul>', wallets: ['SOLANA'] });
  const created = await server.api('POST', '/orders', {
    token: m.token,
    body: { network: 'SOLANA', token: 'USDT', amount: '12.5', ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.body as { reference: string; returnUrl: string | null };
}

describe('GET /checkout/{reference}', () => {
  it('embeds the order, in the language of ?lang= or Accept-Language, escaped and never cached', async () => {
    const o = await order({ returnUrl: 'https://shop.example.com/thanks?o=1', description: '</script><b>x' });
    expect(o.returnUrl).toBe('https://shop.example.com/thanks?o=1');
    const info = await server.api('GET', `/pay/${o.reference}/info`);
    expect(info.body.returnUrl).toBe('https://shop.example.com/thanks?o=1');

    const pt = await get(`/checkout/${o.reference}`, { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.5' });
    expect(pt.res.status).toBe(200);
    expect(pt.res.headers.get('cache-control')).toBe('no-store');
    expect(pt.text).toContain('<html lang="pt-BR">');
    expect(pt.text).toContain('Pagamento para Loja &lt;Azul&gt;');
    expect(pt.text).not.toContain('</script><b>');
    const config = JSON.parse(
      /<script type="application\/json" id="checkout-config">(.*?)<\/script>/s.exec(pt.text)![1]!,
    );
    expect(config).toMatchObject({
      reference: o.reference,
      locale: 'pt-BR',
      localeFromQuery: false,
      sandbox: false,
    });
    // Not a sandbox: no banner, no sandbox wallet (test/e2e/sandbox.test.ts shows them on one).
    expect(pt.text).not.toContain('sandbox-banner');
    expect(pt.text).not.toContain('Sandbox');
    expect(config.info).toMatchObject({ amountDue: '12.500000', description: '</script><b>x' });
    expect(config.network).toMatchObject({
      network: 'SOLANA',
      name: 'Solana (localnet)',
      walletChain: 'solana:localnet',
      walletProtocol: 'wallet-standard',
      tokenKind: 'mint',
    });
    // Every payment option's network in words: here the order's own, alone.
    expect(Object.keys(config.networks)).toEqual(['SOLANA']);
    expect(config.networks.SOLANA).toEqual(config.network);

    const es = await get(`/checkout/${o.reference}?lang=es`, { 'accept-language': 'pt-BR' });
    expect(es.text).toContain('<html lang="es">');
    const fallback = await get(`/checkout/${o.reference}?lang=xx`, { 'accept-language': 'es-MX' });
    expect(fallback.text).toContain('<html lang="es">');
  });

  it('without its script, offers a wallet link per way to pay (one button for one)', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const created = await server.api('POST', '/orders', {
      token: m.token,
      body: {
        network: 'SOLANA',
        token: 'USDT',
        amount: '7',
        paymentOptions: [{ network: 'POLYGON', token: 'USDT' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    const options = created.body.paymentOptions as { payUrl: string; network: string }[];
    expect(options).toHaveLength(2);
    const { text } = await get(`/checkout/${created.body.reference}`, { accept: BROWSER_ACCEPT });
    const noscript = text.slice(text.indexOf('<noscript>'), text.indexOf('</noscript>'));
    const links = [...noscript.matchAll(/<a class="button" href="([^"]+)">([^<]+)<\/a>/g)];
    expect(links.map((l) => l[1]!.replaceAll('&amp;', '&'))).toEqual(options.map((o) => o.payUrl));
    expect(links.map((l) => l[2])).toEqual([
      '7.000000 USDT · Solana (localnet)',
      '7.000000 USDT · Polygon PoS',
    ]);

    const single = await order();
    const one = await get(`/checkout/${single.reference}`, { accept: BROWSER_ACCEPT });
    const oneNoscript = one.text.slice(one.text.indexOf('<noscript>'), one.text.indexOf('</noscript>'));
    expect([...oneNoscript.matchAll(/class="button"/g)]).toHaveLength(1);
  });

  it('answers a browser with an HTML page for a bad or unknown link, and API clients with the error body', async () => {
    const unknown = `/checkout/${Keypair.generate().publicKey.toBase58()}`;
    for (const [path, status] of [
      [unknown, 404],
      ['/checkout/not-a-reference', 400],
      ['/checkout/a/b', 404],
    ] as const) {
      const page = await get(path, { accept: BROWSER_ACCEPT, 'accept-language': 'es' });
      expect(page.res.status).toBe(status);
      expect(page.res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain('Página de pago no encontrada');
      const api = await get(path, { accept: 'application/json' });
      expect(api.res.status).toBe(status);
      expect(JSON.parse(api.text).error.code).toBe(status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR');
    }
  });

  it('serves its script (the SDK payer helpers and the signed report bundled) and stylesheet itself', async () => {
    const script = await get('/checkout/assets/checkout.js');
    expect(script.res.headers.get('content-type')).toMatch(/javascript/);
    expect(script.text).toContain('/pay/:reference/info');
    expect(script.text).toContain('wallet-standard:app-ready');
    expect(script.text).toContain('eip6963:requestProvider');
    // The report of a payment made another way, signed by the sending wallet when it can.
    expect(script.text).toContain('/submit-tx');
    expect(script.text).toContain('stablepay claim ');
    expect(script.text).toContain('solana:signMessage');
    expect(script.text).toContain('personal_sign');
    const css = await get('/checkout/assets/checkout.css');
    expect(css.res.headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('around the checkout', () => {
  it('GET / is a small page linking the docs and health', async () => {
    const home = await get('/');
    expect(home.res.status).toBe(200);
    for (const link of ['/docs', '/openapi.json', '/healthz', '/readyz'])
      expect(home.text).toContain(`href="${link}"`);
  });

  it('logs one concise line per request: method, path, status, time; no headers, no query', async () => {
    logLines.length = 0;
    await get('/pay/icon.svg?account=secretish', { authorization: 'Bearer abc', cookie: 'c=1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = logLines.filter((l) => String(l.msg).includes('/pay/icon.svg'));
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.msg).toMatch(/^GET \/pay\/icon\.svg 200 \d+ms$/);
    expect(line.req).toEqual({ id: expect.any(String), method: 'GET', path: '/pay/icon.svg' });
    expect(line.res).toEqual({ status: 200 });
    expect(JSON.stringify(line)).not.toMatch(/secretish|Bearer|cookie|user-agent/i);
  });
});
