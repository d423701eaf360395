import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  decodeTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { ComputeBudgetProgram, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { decodeFunctionData, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBase58, encodeBase58 } from '../../server/lib/base58';
import { qrContent } from '../../server/pay/render-qr';
import { mintAccountInfoResult, tokenAccountInfoResult } from '../support/token-account-info';
import { SOLANA_TOKEN_TABLE } from '../../contract';
import {
  EVM_WALLET,
  SOLANA_WALLET,
  expectErrorBody,
  expectFieldError,
  newMerchant,
  startTestServer,
  useTestServer,
  type ApiResponse,
  type TestServer,
} from '../support/test-server';

const USDT_POLYGON = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const server = useTestServer();

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

async function createOrder(m: Merchant, body: Record<string, unknown>) {
  const res = await server.api('POST', '/orders', { token: m.token, body });
  if (res.status !== 201) throw new Error(`order failed: ${res.status} ${res.text}`);
  return res.body as {
    reference: string;
    amount: string;
    recipient: string;
    payUrl: string;
    [k: string]: unknown;
  };
}

const solanaOrder = (m: Merchant, extra: Record<string, unknown> = {}) =>
  createOrder(m, { network: 'SOLANA', token: 'USDT', amount: '12.5', ...extra });
const polygonOrder = (m: Merchant, extra: Record<string, unknown> = {}) =>
  createOrder(m, { network: 'POLYGON', token: 'USDT', amount: '7.25', ...extra });

/** A reference that has the right form but belongs to no order. */
const unknownReference = () => Keypair.generate().publicKey.toBase58();
/** An on-curve public key, as a payer's wallet has. */
const payerAccount = () => Keypair.generate().publicKey.toBase58();
const solanaSignature = () => encodeBase58(randomBytes(64));
const evmHash = () => `0x${randomBytes(32).toString('hex')}`;

/** Solana Pay errors: the one error body plus a top-level `message` string. */
function expectPayError(res: ApiResponse, status: number, code: string) {
  expectErrorBody(res, status, code);
  const body = res.body as { message?: unknown; error: { message: string } };
  expect(typeof body.message).toBe('string');
  expect(body.message).toBe(body.error.message);
}

/** A report of a (made-up) transaction on each order, Solana's and Polygon's, answers 409. */
async function expectReportsRefused(solanaReference: string, evmReference: string) {
  for (const [reference, txId] of [
    [solanaReference, solanaSignature()],
    [evmReference, evmHash()],
  ]) {
    expectErrorBody(
      await server.api('POST', `/pay/${reference}/submit-tx`, { body: { txId } }),
      409,
      'CONFLICT',
    );
  }
}

async function setOrder(reference: string, values: Record<string, unknown>) {
  const [count] = await server.deps.db.models.Order.update(values, { where: { reference } });
  expect(count).toBe(1);
}

describe('GET /pay/{reference}/info', () => {
  it('returns the payment-page fields without a token, and nothing private', async () => {
    const m = await newMerchant(server, { name: 'Corner Café', wallets: ['SOLANA'] });
    const order = await solanaOrder(m, {
      webhookUrl: 'https://merchant.example/hook',
      metadata: { secretNote: 'xyz-private' },
      description: 'Two coffees',
    });
    const res = await server.api('GET', `/pay/${order.reference}/info`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      reference: order.reference,
      status: 'PENDING',
      network: 'SOLANA',
      token: 'USDT',
      decimals: 6,
      amount: order.amount,
      amountReceived: '0.000000',
      amountDue: order.amount,
      recipient: m.addresses.SOLANA,
      merchantName: 'Corner Café',
      description: 'Two coffees',
      payUrl: order.payUrl,
      qrData: order.payUrl,
      qrImageUrl: `http://pay.example.test/pay/${order.reference}/qr.svg`,
      checkoutUrl: `http://pay.example.test/checkout/${order.reference}`,
      txRequestUrl: `solana:http://pay.example.test/pay/tx-request/${order.reference}`,
      expiresAt: order.expiresAt,
      paidLate: false,
      txId: null,
    });
    expect(Number(res.body.amount)).toBeCloseTo(12.5, 4);
    expect(res.body.tokenMintOrContract).toBe(order.tokenMintOrContract);
    expect(res.body.payUrl).toMatch(/^solana:/);
    // Nothing of the merchant's private settings.
    expect(res.text).not.toContain(m.email);
    expect(res.text).not.toContain('merchant.example');
    expect(res.text).not.toContain('xyz-private');
    expect(res.text).not.toContain('secretNote');
    expect(res.text).not.toContain('metadata');
    expect(res.text.toLowerCase()).not.toContain('webhook');
    expect(res.text).not.toContain(m.id);
    expect(res.body).not.toHaveProperty('merchantWalletId');
    expect(res.body).not.toHaveProperty('messengerChatId');
  });

  it('answers 404 with the error body for an unknown reference and 400 for a malformed one', async () => {
    expectErrorBody(await server.api('GET', `/pay/${unknownReference()}/info`), 404, 'NOT_FOUND');
    expectErrorBody(await server.api('GET', '/pay/not-a-reference/info'), 400, 'VALIDATION_ERROR');
  });
});

describe('CORS', () => {
  it('opens the /pay routes to any origin', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const origin = { origin: 'https://shop.example' };
    for (const path of [
      `/pay/${order.reference}/info`,
      `/pay/tx-request/${order.reference}`,
      `/pay/${order.reference}/qr.svg`,
      '/pay/icon.svg',
      `/pay/${unknownReference()}/info`, // errors too
    ]) {
      const res = await server.api('GET', path, { headers: origin });
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
    }
    const post = await server.api('POST', `/pay/${order.reference}/submit-tx`, {
      headers: origin,
      body: { txId: 'abc' },
    });
    expect(post.status).toBe(400);
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a preflight with 204 and the allow headers', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    for (const path of [`/pay/${order.reference}/submit-tx`, `/pay/tx-request/${order.reference}`]) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://wallet.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('lets other origins embed the QR images and the icon (Cross-Origin-Resource-Policy)', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    for (const path of [
      `/pay/${order.reference}/qr.svg`,
      `/pay/${order.reference}/qr.png`,
      '/pay/icon.svg',
    ]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('cross-origin');
      expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/i);
    }
    const merchant = await server.api('GET', '/users/me', { token: m.token });
    expect(merchant.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('does not open merchant routes', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const headers = { origin: 'https://evil.example' };
    for (const res of [
      await server.api('GET', `/orders/${order.reference}`, { token: m.token, headers }),
      await server.api('GET', '/users/me', { token: m.token, headers }),
      await server.api('POST', '/orders', { token: m.token, headers, body: {} }),
      await server.api('POST', '/auth/login', { headers, body: { email: m.email, password: 'x' } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const preflight = await fetch(`${server.url}/orders`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('Solana Pay transaction request', () => {
  it('GET without account returns the label and icon', async () => {
    const m = await newMerchant(server, { name: 'Label Shop', wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const res = await server.api('GET', `/pay/tx-request/${order.reference}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ label: 'Label Shop', icon: 'http://pay.example.test/pay/icon.svg' });
    expect(new URL(res.body.icon).pathname).toBe('/pay/icon.svg');
  });

  it('serves the icon as SVG', async () => {
    const res = await fetch(`${server.url}/pay/icon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg[\s>]/);
  });

  it('answers 502 UPSTREAM_UNAVAILABLE with a top-level message when the RPC is unreachable', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const account = payerAccount();
    const get = await server.api('GET', `/pay/tx-request/${order.reference}?account=${account}`);
    expectPayError(get, 502, 'UPSTREAM_UNAVAILABLE');
    expect(get.text).not.toContain('127.0.0.1:9'); // the RPC URL may embed an API key
    const post = await server.api('POST', `/pay/tx-request/${order.reference}`, { body: { account } });
    expectPayError(post, 502, 'UPSTREAM_UNAVAILABLE');
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses an invalid account with 400 and a top-level message', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    for (const account of [
      'not-a-key',
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '11111111111111111111111111111111',
      '',
    ]) {
      const res = await server.api(
        'GET',
        `/pay/tx-request/${order.reference}?account=${encodeURIComponent(account)}`,
      );
      expectPayError(res, 400, 'VALIDATION_ERROR');
    }
    expectPayError(
      await server.api('GET', `/pay/tx-request/${order.reference}?account=${'A'.repeat(101)}`),
      400,
      'VALIDATION_ERROR',
    );
    expectPayError(
      await server.api('POST', `/pay/tx-request/${order.reference}`, { body: { account: 'nope' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectPayError(
      await server.api('POST', `/pay/tx-request/${order.reference}`, { body: {} }),
      400,
      'VALIDATION_ERROR',
    );
    expectPayError(
      await server.api('POST', `/pay/tx-request/${order.reference}`, { rawBody: '{"account":' }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('answers 404 with a top-level message for an unknown reference', async () => {
    const ref = unknownReference();
    expectPayError(await server.api('GET', `/pay/tx-request/${ref}`), 404, 'NOT_FOUND');
    expectPayError(
      await server.api('GET', `/pay/tx-request/${ref}?account=${payerAccount()}`),
      404,
      'NOT_FOUND',
    );
    expectPayError(
      await server.api('POST', `/pay/tx-request/${ref}`, { body: { account: payerAccount() } }),
      404,
      'NOT_FOUND',
    );
    expectPayError(await server.api('GET', '/pay/tx-request/bad-ref'), 400, 'VALIDATION_ERROR');
    // Express routes are case-insensitive: the message follows the route, whatever the case.
    expectPayError(await server.api('GET', `/PAY/TX-REQUEST/${ref}`), 404, 'NOT_FOUND');
    expectPayError(await server.api('GET', '/pay/tx-request/%E0%A4%A'), 400, 'VALIDATION_ERROR');
    // Other /pay routes keep the plain error body.
    const info = await server.api('GET', `/pay/${ref}/info`);
    expectErrorBody(info, 404, 'NOT_FOUND');
    expect(info.body).not.toHaveProperty('message');
  });
});

describe('EVM transaction request', () => {
  it('GET on a POLYGON order returns the unsigned USDT transfer', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const order = await polygonOrder(m);
    expect(order.recipient).toBe(m.addresses.POLYGON);
    const res = await server.api('GET', `/pay/tx-request/${order.reference}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      chainId: 137,
      to: USDT_POLYGON,
      value: '0',
      network: 'POLYGON',
      reference: order.reference,
      amount: order.amount,
    });
    expect(typeof res.body.message).toBe('string');
    const call = decodeFunctionData({ abi: erc20Abi, data: res.body.data });
    expect(call.functionName).toBe('transfer');
    const units = BigInt(Math.round(Number(order.amount) * 1e6));
    expect(call.args).toEqual([m.addresses.POLYGON, units]);
    // The order's tag follows the two arguments: its reference as 32 raw bytes.
    expect(res.body.data.slice(-64)).toBe(Buffer.from(decodeBase58(order.reference)!).toString('hex'));

    // A Solana key is refused before anything is asked of the chain.
    expectPayError(
      await server.api('GET', `/pay/tx-request/${order.reference}?account=${payerAccount()}`),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('POST (Solana Pay only) on a POLYGON order is a 400 and builds nothing', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const order = await polygonOrder(m);
    for (const account of [payerAccount(), EVM_WALLET]) {
      const res = await server.api('POST', `/pay/tx-request/${order.reference}`, { body: { account } });
      expectPayError(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.message).toMatch(/solana/i);
    }
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    expect(audit.status).toBe(200);
    expect(audit.body.items.map((e: { type: string }) => e.type)).not.toContain('tx_request.issued');
  });
});

/** A 400 at the field the request gave the account in; the message names that field first. */
function expectAccountError(res: ApiResponse, path: 'query.account' | 'body.account', message: RegExp) {
  expectPayError(res, 400, 'VALIDATION_ERROR');
  const body = res.body as { message: string; error: { details: { path: string; message: string }[] } };
  expect(body.error.details).toHaveLength(1);
  const [detail] = body.error.details;
  expect(detail!.path).toBe(path);
  expect(detail!.message).toMatch(message);
  expect(body.message).toBe(`${path}: ${detail!.message}`);
}

describe('a refused payer account is named where the request carried it', () => {
  const offCurve = PublicKey.findProgramAddressSync([Buffer.from('pda')], TOKEN_PROGRAM_ID)[0].toBase58();

  it('Solana: GET ?account= at query.account, POST {account} at body.account', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const url = `/pay/tx-request/${order.reference}`;
    for (const [account, message] of [
      ['not-a-key', /^must be a Solana public key$/],
      [offCurve, /^must be a wallet address/],
    ] as const) {
      expectAccountError(
        await server.api('GET', `${url}?account=${encodeURIComponent(account)}`),
        'query.account',
        message,
      );
      expectAccountError(await server.api('POST', url, { body: { account } }), 'body.account', message);
    }
    expectAccountError(await server.api('GET', `${url}?account=`), 'query.account', /^is required/);
    expectAccountError(
      await server.api('POST', url, { body: { account: '' } }),
      'body.account',
      /^is required/,
    );
  });

  it('EVM: GET ?account= at query.account', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const order = await polygonOrder(m);
    expectAccountError(
      await server.api('GET', `/pay/tx-request/${order.reference}?account=${payerAccount()}`),
      'query.account',
      /^must be an EVM address/,
    );
  });
});

describe('POST /pay/{reference}/submit-tx', () => {
  it('refuses malformed transaction ids per network', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const sol = await solanaOrder(m);
    for (const txId of ['abc', evmHash(), encodeBase58(randomBytes(32)), '', '   ', 'x'.repeat(201)]) {
      const res = await server.api('POST', `/pay/${sol.reference}/submit-tx`, { body: { txId } });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
    }
    const evm = await polygonOrder(m);
    for (const txId of [solanaSignature(), '0x1234', `0x${'g'.repeat(64)}`]) {
      const res = await server.api('POST', `/pay/${evm.reference}/submit-tx`, { body: { txId } });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
    }
    // Wrong shapes of body.
    for (const body of [{}, { txId: 5 }, { txId: solanaSignature(), extra: 1 }]) {
      expectErrorBody(
        await server.api('POST', `/pay/${sol.reference}/submit-tx`, { body }),
        400,
        'VALIDATION_ERROR',
      );
    }
    const info = await server.api('GET', `/pay/${sol.reference}/info`);
    expect(info.body.status).toBe('PENDING');
  });

  it('accepts a well-formed Solana signature as a claim: 202 CONFIRMING, audited as the payer', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m, {
      webhookUrl: 'https://merchant.example/hook',
      metadata: { secretNote: 'xyz-private' },
    });
    const txId = solanaSignature();
    const res = await server.api('POST', `/pay/${order.reference}/submit-tx`, { body: { txId } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      reference: order.reference,
      status: 'CONFIRMING',
      amountDue: order.amount,
    });
    expect(res.text).not.toContain('xyz-private');
    expect(res.text).not.toContain(m.email);
    expect(res.text.toLowerCase()).not.toContain('webhook');

    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    expect(audit.status).toBe(200);
    const submitted = audit.body.items.filter((e: { type: string }) => e.type === 'tx.submitted');
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({ actor: 'payer', data: { txId, signed: false } });
    // A claim is never trusted: the merchant view shows CONFIRMING, not PAID.
    const merchantView = await server.api('GET', `/orders/${order.reference}`, { token: m.token });
    expect(merchantView.body.status).toBe('CONFIRMING');

    // Re-reporting the same id for the same order is accepted once more, without a second claim.
    const again = await server.api('POST', `/pay/${order.reference}/submit-tx`, { body: { txId } });
    expect(again.status).toBe(202);
    const audit2 = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    expect(audit2.body.items.filter((e: { type: string }) => e.type === 'tx.submitted')).toHaveLength(1);

    // The same id for another order is checked too: a report holds nothing until it is credited,
    // so a stranger who reports someone's transaction first never blocks that payer's report.
    const other = await solanaOrder(m, { amount: '3' });
    expect((await server.api('POST', `/pay/${other.reference}/submit-tx`, { body: { txId } })).status).toBe(
      202,
    );
  });

  it('refuses a malformed signature with 400 at body.signature, per network', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const solana = await solanaOrder(m);
    const polygon = await polygonOrder(m);
    for (const [reference, txId, signature] of [
      [solana.reference, solanaSignature(), '0x' + 'ab'.repeat(65)],
      [solana.reference, solanaSignature(), 'short'],
      [polygon.reference, evmHash(), solanaSignature()],
      [polygon.reference, evmHash(), '0x1234'],
    ])
      expectFieldError(
        await server.api('POST', `/pay/${reference}/submit-tx`, { body: { txId, signature } }),
        'body.signature',
      );
    // The merchant attests: its route takes no signature.
    expectFieldError(
      await server.api('POST', `/orders/${solana.reference}/submit-tx`, {
        token: m.token,
        body: { txId: solanaSignature(), signature: 'x' },
      }),
      'body',
    );
  });

  it('records a well-formed EVM hash on a POLYGON order as a claim to verify (CONFIRMING)', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const order = await polygonOrder(m);
    const txId = evmHash();
    const res = await server.api('POST', `/pay/${order.reference}/submit-tx`, { body: { txId } });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('CONFIRMING');
    expect(res.body.network).toBe('POLYGON');
    const audit = await server.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    expect(audit.body.items.find((e: { type: string }) => e.type === 'tx.submitted')).toMatchObject({
      actor: 'payer',
      data: { txId: txId.toLowerCase() },
    });
  });

  it('answers 404 for an unknown reference', async () => {
    const res = await server.api('POST', `/pay/${unknownReference()}/submit-tx`, {
      body: { txId: solanaSignature() },
    });
    expectErrorBody(res, 404, 'NOT_FOUND');
  });
});

describe('QR images', () => {
  it('renders the payment URI as SVG, cacheable', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await solanaOrder(m);
    const res = await fetch(`${server.url}/pay/${order.reference}/qr.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toMatch(/public/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text.startsWith('<svg') || text.startsWith('<?xml')).toBe(true);
  });

  it('renders the payment URI as PNG, cacheable', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const order = await polygonOrder(m);
    const res = await fetch(`${server.url}/pay/${order.reference}/qr.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toMatch(/public/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(bytes.length).toBeGreaterThan(100);
  });

  it('keeps a long non-Latin label and message within QR capacity, so the QR code encodes qrData exactly', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const patch = await server.api('PATCH', '/users/me', {
      token: m.token,
      body: { full_name: '☃'.repeat(200) },
    });
    expect(patch.status).toBe(200);
    for (const description of ['Заказ'.repeat(40), '☃'.repeat(200)]) {
      const order = await solanaOrder(m, { description });
      expect(order.payUrl).toContain('%E2%80%A6'); // clipped with an ellipsis
      expect(qrContent(String(order.qrData)).text).toBe(order.qrData);
      for (const ext of ['svg', 'png']) {
        const res = await fetch(`${server.url}/pay/${order.reference}/qr.${ext}`);
        expect(res.status, `${ext}: ${description.slice(0, 5)}`).toBe(200);
      }
    }
  });

  it('encodes qrData as given whenever it fits, dropping only the display parameters when it cannot', () => {
    const base = `solana:${SOLANA_WALLET}?amount=1&spl-token=${SOLANA_WALLET}&reference=${SOLANA_WALLET}`;
    const short = `${base}&label=Shop&message=Hi`;
    expect(qrContent(short)).toEqual({ text: short, level: 'M' });
    const fitsL = `${base}&label=${'a'.repeat(1200)}&message=${'b'.repeat(1300)}`;
    expect(qrContent(fitsL)).toEqual({ text: fitsL, level: 'L' });
    const tooBig = `${base}&label=${'a'.repeat(1800)}&message=${'%e2%98%83'.repeat(200)}`;
    expect(qrContent(tooBig)).toEqual({ text: base, level: 'L' });
  });

  it('answers 404 with the error body for an unknown reference, 400 for a malformed one', async () => {
    for (const ext of ['svg', 'png']) {
      const res = await server.api('GET', `/pay/${unknownReference()}/qr.${ext}`);
      expectErrorBody(res, 404, 'NOT_FOUND');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control') ?? '').not.toMatch(/public/);
      expectErrorBody(await server.api('GET', `/pay/0OIl/qr.${ext}`), 400, 'VALIDATION_ERROR');
    }
  });
});

describe('orders that can no longer be paid', () => {
  it('refuses a transaction request and submit-tx on a PAID order with 409', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const sol = await solanaOrder(m);
    const evm = await polygonOrder(m);
    await setOrder(sol.reference, { status: 'PAID', paidAt: new Date() });
    await setOrder(evm.reference, { status: 'PAID', paidAt: new Date() });

    expectPayError(
      await server.api('GET', `/pay/tx-request/${sol.reference}?account=${payerAccount()}`),
      409,
      'CONFLICT',
    );
    expectPayError(
      await server.api('POST', `/pay/tx-request/${sol.reference}`, { body: { account: payerAccount() } }),
      409,
      'CONFLICT',
    );
    expectPayError(await server.api('GET', `/pay/tx-request/${evm.reference}`), 409, 'CONFLICT');
    await expectReportsRefused(sol.reference, evm.reference);
    // The page itself still shows the order.
    const info = await server.api('GET', `/pay/${sol.reference}/info`);
    expect(info.status).toBe(200);
    expect(info.body.status).toBe('PAID');
  });

  it('refuses an order expired beyond the late-payment window with 409', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const sol = await solanaOrder(m);
    const evm = await polygonOrder(m);
    const twoDaysAgo = new Date(Date.now() - 2 * 86400_000);
    expect(server.config.LATE_PAYMENT_WINDOW_SECONDS).toBeLessThan(2 * 86400);
    await setOrder(sol.reference, { status: 'EXPIRED', expiresAt: twoDaysAgo });
    await setOrder(evm.reference, { status: 'EXPIRED', expiresAt: twoDaysAgo });

    expectPayError(
      await server.api('GET', `/pay/tx-request/${sol.reference}?account=${payerAccount()}`),
      409,
      'CONFLICT',
    );
    expectPayError(await server.api('GET', `/pay/tx-request/${evm.reference}`), 409, 'CONFLICT');
    await expectReportsRefused(sol.reference, evm.reference);
  });

  it('still builds for an order expired within the late-payment window', async () => {
    const m = await newMerchant(server, { wallets: ['POLYGON'] });
    const evm = await polygonOrder(m);
    await setOrder(evm.reference, { status: 'EXPIRED', expiresAt: new Date(Date.now() - 3600_000) });
    const res = await server.api('GET', `/pay/tx-request/${evm.reference}`);
    expect(res.status).toBe(200);
    const submit = await server.api('POST', `/pay/${evm.reference}/submit-tx`, { body: { txId: evmHash() } });
    expect(submit.status).toBe(202);
  });
});

/**
 * A local Solana JSON-RPC endpoint answering the two methods a transaction request needs, so the
 * success path runs over real HTTP against the real server (the chain itself is out of reach).
 */
async function startSolanaRpc() {
  const state = {
    blockhash: encodeBase58(randomBytes(32)),
    fees: [0, 100, 300, 200] as number[],
    failBlockhash: false,
    failFees: false,
    payerBalance: (10n ** 12n) as bigint | null,
    calls: [] as string[],
  };
  const rpc = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: unknown;
        method: string;
        params?: unknown[];
      };
      state.calls.push(call.method);
      const reply = (body: object) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, ...body }));
      };
      if (call.method === 'getLatestBlockhash') {
        if (state.failBlockhash) return reply({ error: { code: -32005, message: 'Node is behind' } });
        return reply({
          result: {
            context: { slot: 1000 },
            value: { blockhash: state.blockhash, lastValidBlockHeight: 2000 },
          },
        });
      }
      // The mint itself, as a node shows it (the service checks its decimals at start).
      if (call.method === 'getAccountInfo' && call.params?.[0] === SOLANA_TOKEN_TABLE.USDT.contract)
        return reply({ result: mintAccountInfoResult({ decimals: 6 }) });
      if (call.method === 'getAccountInfo')
        return reply({
          result:
            state.payerBalance === null
              ? { context: { slot: 1000 }, value: null }
              : tokenAccountInfoResult({ amount: state.payerBalance }),
        });
      if (call.method === 'getRecentPrioritizationFees') {
        if (state.failFees) return reply({ error: { code: -32601, message: 'Method not found' } });
        return reply({
          result: state.fees.map((prioritizationFee, i) => ({ slot: 990 + i, prioritizationFee })),
        });
      }
      reply({ error: { code: -32601, message: 'Method not found' } });
    });
  });
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`,
    state,
    stop: () => new Promise<void>((resolve) => rpc.close(() => resolve())),
  };
}

describe('Solana Pay transaction request against a reachable RPC', () => {
  let rpc: Awaited<ReturnType<typeof startSolanaRpc>>;
  let withRpc: TestServer;
  beforeAll(async () => {
    rpc = await startSolanaRpc();
    withRpc = await startTestServer({ SOLANA_RPC_URL: rpc.url });
  });
  afterAll(async () => {
    await withRpc?.stop();
    await rpc?.stop();
  });

  async function newSolanaOrder() {
    const m = await newMerchant(withRpc, { name: 'Chain Shop', wallets: ['SOLANA'] });
    const res = await withRpc.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '12.5', description: 'Order #42' },
    });
    expect(res.status).toBe(201);
    return { m, order: res.body };
  }

  it('answers 400, not a transaction bound to fail, when the payer lacks the token account or the balance', async () => {
    const { order } = await newSolanaOrder();
    const payer = Keypair.generate().publicKey.toBase58();
    try {
      rpc.state.payerBalance = null;
      const none = await withRpc.api('GET', `/pay/tx-request/${order.reference}?account=${payer}`);
      expectErrorBody(none, 400, 'VALIDATION_ERROR');
      expect(none.body.message).toMatch(/has no USDT token account/);
      rpc.state.payerBalance = 1n;
      const poor = await withRpc.api('POST', `/pay/tx-request/${order.reference}`, {
        body: { account: payer },
      });
      expectErrorBody(poor, 400, 'VALIDATION_ERROR');
      expect(poor.body.message).toMatch(/holds 0.000001 USDT, less than/);
    } finally {
      rpc.state.payerBalance = 10n ** 12n;
    }
  });

  it('names the field the account came in when the payer cannot pay: query.account or body.account', async () => {
    const { order } = await newSolanaOrder();
    const url = `/pay/tx-request/${order.reference}`;
    const payer = Keypair.generate().publicKey.toBase58();
    try {
      rpc.state.payerBalance = 1n;
      const short = /^holds 0.000001 USDT, less than the [\d.]+ USDT due$/;
      expectAccountError(await withRpc.api('GET', `${url}?account=${payer}`), 'query.account', short);
      expectAccountError(await withRpc.api('POST', url, { body: { account: payer } }), 'body.account', short);
    } finally {
      rpc.state.payerBalance = 10n ** 12n;
    }
  });

  it('GET and POST return the transfer for the payer to sign', async () => {
    const { m, order } = await newSolanaOrder();
    const payer = Keypair.generate().publicKey;
    const mint = new PublicKey(order.tokenMintOrContract);
    const recipient = new PublicKey(order.recipient);
    const units = BigInt(order.amount.replace('.', ''));

    const get = await withRpc.api('GET', `/pay/tx-request/${order.reference}?account=${payer.toBase58()}`);
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.body).toMatchObject({
      network: 'SOLANA',
      reference: order.reference,
      amount: order.amount,
      message: 'Order #42',
    });
    const tx = Transaction.from(Buffer.from(get.body.transaction, 'base64'));
    expect(tx.feePayer?.equals(payer)).toBe(true);
    expect(tx.recentBlockhash).toBe(rpc.state.blockhash);
    expect(tx.signatures.every((s) => s.signature === null)).toBe(true);
    const programs = tx.instructions.map((ix) => ix.programId.toBase58());
    expect(programs).toEqual([
      ComputeBudgetProgram.programId.toBase58(),
      ComputeBudgetProgram.programId.toBase58(),
      ASSOCIATED_TOKEN_PROGRAM_ID.toBase58(),
      'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
      TOKEN_PROGRAM_ID.toBase58(), // the transfer last, as Solana Pay's validateTransfer expects
    ]);
    // Compute-unit price: the median of the non-zero recent fees (100, 200, 300).
    const price = tx.instructions[1]!.data;
    expect(price[0]).toBe(3);
    expect(price.readBigUInt64LE(1)).toBe(200n);
    // The idempotent create of the merchant's token account, paid by the payer.
    const merchantAta = getAssociatedTokenAddressSync(mint, recipient, true);
    const create = tx.instructions[2]!;
    expect([...create.data]).toEqual([1]);
    expect(create.keys[0]!.pubkey.equals(payer)).toBe(true);
    expect(create.keys[1]!.pubkey.equals(merchantAta)).toBe(true);
    // TransferChecked of the exact amount, with the reference as a read-only key.
    const transfer = decodeTransferCheckedInstruction(tx.instructions[4]!);
    expect(transfer.data.amount).toBe(units);
    expect(transfer.data.decimals).toBe(6);
    expect(transfer.keys.source.pubkey.equals(getAssociatedTokenAddressSync(mint, payer))).toBe(true);
    expect(transfer.keys.mint.pubkey.equals(mint)).toBe(true);
    expect(transfer.keys.destination.pubkey.equals(merchantAta)).toBe(true);
    expect(transfer.keys.owner.pubkey.equals(payer)).toBe(true);
    expect(transfer.keys.owner.isSigner).toBe(true);
    const reference = transfer.keys.multiSigners.find((k) => k.pubkey.toBase58() === order.reference);
    expect(reference).toMatchObject({ isSigner: false, isWritable: false });
    expect(tx.instructions[3]!.data.toString('utf8')).toBe(`stablepay:${order.reference}`);

    const post = await withRpc.api('POST', `/pay/tx-request/${order.reference}`, {
      body: { account: payer.toBase58() },
    });
    expect(post.status).toBe(200);
    expect(Object.keys(post.body).sort()).toEqual([
      'amount',
      'message',
      'network',
      'reference',
      'transaction',
    ]);
    expect(Transaction.from(Buffer.from(post.body.transaction, 'base64')).feePayer?.equals(payer)).toBe(true);

    const audit = await withRpc.api('GET', `/orders/${order.reference}/audit`, { token: m.token });
    const issued = audit.body.items.filter((e: { type: string }) => e.type === 'tx_request.issued');
    expect(issued).toEqual([
      expect.objectContaining({ actor: 'payer', data: { account: payer.toBase58() } }),
    ]);
  });

  it('still builds without a priority fee when the RPC does not serve recent fees', async () => {
    const { order } = await newSolanaOrder();
    rpc.state.failFees = true;
    try {
      const res = await withRpc.api('GET', `/pay/tx-request/${order.reference}?account=${payerAccount()}`);
      expect(res.status).toBe(200);
      const tx = Transaction.from(Buffer.from(res.body.transaction, 'base64'));
      expect(tx.instructions[1]!.data.readBigUInt64LE(1)).toBe(0n);
    } finally {
      rpc.state.failFees = false;
    }
  });

  it('answers 502 with a top-level message when the RPC answers with an error', async () => {
    const { order } = await newSolanaOrder();
    rpc.state.failBlockhash = true;
    try {
      const res = await withRpc.api('GET', `/pay/tx-request/${order.reference}?account=${payerAccount()}`);
      expectPayError(res, 502, 'UPSTREAM_UNAVAILABLE');
      expect(res.text).not.toContain(rpc.url);
    } finally {
      rpc.state.failBlockhash = false;
    }
  });
});
