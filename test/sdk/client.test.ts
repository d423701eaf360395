import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventOrderOf } from '../../contract';
import { encodeBase58 } from '../../server/lib/base58';
import { recordUnattributed } from '../../server/payments/unattributed-payments';
import {
  AuthenticationError,
  ConflictError,
  createClient,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  StablepayConnectionError,
  StablepayError,
  UpstreamUnavailableError,
  ValidationError,
  webhooks,
  type StablepayClient,
  type WebhookEventBody,
} from '../../sdk/src/index';
import { newMerchant, TEST_PASSWORD, type TestServer } from '../support/test-server';
import { useDeliveryStack, type DeliveryStack } from '../support/delivery-stack';
import { forwardEverything, until, withScriptedProxy } from './support';

let server: TestServer;
let receiver: DeliveryStack['receiver'];
useDeliveryStack(
  { API_RATE_LIMIT_PER_MINUTE: '100000', LOGIN_RATE_LIMIT_MAX: '1000' },
  (stack) => ({ server, receiver } = stack),
);

const fakeSignature = () => encodeBase58(randomBytes(64));
const unknownReference = () => encodeBase58(randomBytes(32));

/** A merchant with a Solana wallet and a client logged in through the SDK itself. */
async function merchantClient(): Promise<{
  client: StablepayClient;
  email: string;
  id: string;
  solanaAddress: string;
}> {
  const m = await newMerchant(server, { wallets: ['SOLANA'] });
  const client = createClient({ baseUrl: server.url });
  await client.auth.login({ email: m.email, password: TEST_PASSWORD });
  return { client, email: m.email, id: m.id, solanaAddress: m.addresses.SOLANA! };
}

/** A signed-in merchant's client and the references of its `count` orders (1, 2, … USDT), oldest first. */
async function merchantWithOrders(count: number) {
  const { client } = await merchantClient();
  const created: string[] = [];
  for (let i = 0; i < count; i++)
    created.push(
      (await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: `${i + 1}` })).reference,
    );
  return { client, created };
}

describe('client: every merchant route', () => {
  it('account.get and account.update: the point of sale settings', async () => {
    const m = await newMerchant(server, { name: 'Till Shop' });
    const client = createClient({ baseUrl: server.url, token: m.token });
    expect(await client.account.get()).toMatchObject({
      name: 'Till Shop',
      currency: 'USDT',
      tipPercentages: [],
    });
    const updated = await client.account.update({ currency: 'EUR', tipPercentages: [15, 10] });
    expect(updated).toMatchObject({ currency: 'EUR', tipPercentages: [10, 15] });
    expect((await client.account.get()).currency).toBe('EUR');
  });

  it('auth.login returns the token and the client keeps it for later calls', async () => {
    const m = await newMerchant(server);
    const client = createClient({ baseUrl: `${server.url}/` });
    expect(client.token).toBeUndefined();
    const login = await client.auth.login({ email: m.email, password: TEST_PASSWORD });
    if (!('token' in login)) throw new Error('no two-factor here: the token was expected');
    expect(login.tokenType).toBe('Bearer');
    expect(new Date(login.expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect(client.token).toBe(login.token);
    const profile = await client.profile.get();
    expect(profile.email).toBe(m.email);

    // A client given a token keeps it: logging in returns the new one without switching to it.
    const fixed = createClient({ baseUrl: server.url, token: m.token });
    const again = await fixed.auth.login({ email: m.email, password: TEST_PASSWORD });
    expect(fixed.token).toBe(m.token);
    expect('token' in again && typeof again.token).toBe('string');
  });

  it('orders: create, get, list (page and cursor), submitTx, audit', async () => {
    const { client } = await merchantClient();
    const order = await client.orders.create({
      network: 'SOLANA',
      token: 'USDT',
      amount: '12.5',
      description: 'SDK order',
      metadata: { cart: 42 },
    });
    expect(order).toMatchObject({ status: 'PENDING', amount: '12.500000', network: 'SOLANA' });
    expect(order.metadata).toEqual({ cart: 42 });

    const quoted = await client.orders.create({
      network: 'SOLANA',
      token: 'USDT',
      quoteCurrency: 'BRL',
      quoteAmount: '100.00',
    });
    expect(quoted.fxRateLabel).toBe('1 USDT = 5.250000 BRL');

    expect(await client.orders.get(order.reference)).toEqual(order);

    const page = await client.orders.list({ page: 1, per_page: 1 });
    expect(page).toMatchObject({ page: 1, per_page: 1, total: 2 });
    expect(page.items.map((o) => o.reference)).toEqual([quoted.reference]);

    const first = await client.orders.list({ cursor: '', per_page: 1 });
    expect(first.items.map((o) => o.reference)).toEqual([quoted.reference]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.orders.list({ cursor: first.nextCursor!, per_page: 1 });
    expect(second.items.map((o) => o.reference)).toEqual([order.reference]);

    const filtered = await client.orders.list({ status: 'PAID' });
    expect(filtered.total).toBe(0);

    const txId = fakeSignature();
    const claimed = await client.orders.submitTx(order.reference, txId);
    expect(claimed.status).toBe('CONFIRMING');
    // The same txId again is accepted (idempotent server-side).
    expect((await client.orders.submitTx(order.reference, txId)).status).toBe('CONFIRMING');

    const audit = await client.orders.audit(order.reference);
    expect(audit.items.map((e) => e.type)).toEqual(
      expect.arrayContaining(['order.created', 'tx.submitted', 'status.changed']),
    );
    expect(audit.items.find((e) => e.type === 'tx.submitted')?.actor).toBe('member');
  });

  it("unattributedPayments: list (paged) and listAll, newest first, only the merchant's own", async () => {
    const { client, id, solanaAddress } = await merchantClient();
    expect(await client.unattributedPayments.list()).toEqual({ items: [], per_page: 20, nextCursor: null });
    // Three transfers the scanner kept (no order took them), as it records them.
    const txIds = [fakeSignature(), fakeSignature(), fakeSignature()];
    for (const [i, txId] of txIds.entries())
      await recordUnattributed(server.deps, {
        merchantId: id,
        network: 'SOLANA',
        txId,
        recipient: solanaAddress,
        token: 'USDT',
        tokenMint: server.deps.chains.get('SOLANA').tokenMint('USDT')!,
        decimals: 6,
        sender: null,
        amountUnits: BigInt(i + 1) * 1_500_000n,
        blockTime: null,
      });
    const page = await client.unattributedPayments.list({ per_page: 2 });
    expect(page.items.map((p) => p.txId)).toEqual([txIds[2], txIds[1]]);
    expect(page.items[0]).toMatchObject({
      network: 'SOLANA',
      token: 'USDT',
      to: solanaAddress,
      amount: '4.500000',
    });
    const rest = await client.unattributedPayments.list({ per_page: 2, cursor: page.nextCursor! });
    expect(rest).toMatchObject({ items: [expect.objectContaining({ txId: txIds[0] })], nextCursor: null });
    const all: string[] = [];
    for await (const p of client.unattributedPayments.listAll()) all.push(p.txId);
    expect(all).toEqual([...txIds].reverse());
    const other = await merchantClient();
    expect((await other.client.unattributedPayments.list()).items).toEqual([]);
    await expect(client.unattributedPayments.list({ cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(
      ValidationError,
    );
  });

  it('profile: get, update, rotateWebhookSecret; webhooks arrive, verify and redeliver', async () => {
    const { client, id } = await merchantClient();
    const path = `/sdk/${id}`;
    const updated = await client.profile.update({
      full_name: 'Loja SDK',
      webhook_url: receiver.url.replace('/hooks', path),
    });
    expect(updated.full_name).toBe('Loja SDK');
    expect((await client.profile.get()).webhook_url).toContain(path);

    const { webhook_secret: secret, previous_secret_expires_at } = await client.profile.rotateWebhookSecret();
    expect(secret.length).toBeGreaterThan(20);
    expect(previous_secret_expires_at).toBeNull();
    expect((await client.profile.get()).webhook_secret_set).toBe(true);

    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '3' });
    await receiver.waitFor((r) => r.some((h) => h.url === path));
    const hook = receiver.received.find((h) => h.url === path)!;
    const event = webhooks.constructEvent({
      payload: hook.body,
      header: hook.headers['x-webhook-signature'],
      secret,
    });
    expect(event).toMatchObject({ type: 'order.created', data: { order: { reference: order.reference } } });
    expect(event.id).toBe(hook.headers['x-webhook-id']);

    const deliveries = await until('a recorded delivery', async () => {
      const list = await client.orders.webhookDeliveries(order.reference);
      return list.items.find((d) => d.responseStatus === 200) ? list : undefined;
    });
    const delivery = deliveries.items[0]!;
    expect(delivery).toMatchObject({ eventType: 'order.created', attempt: 1, responseStatus: 200 });

    const redelivered = await client.orders.redeliverWebhook(order.reference, delivery.id);
    expect(redelivered).toMatchObject({ eventId: delivery.eventId, responseStatus: 200 });
    expect(redelivered.requestBody).toBe(delivery.requestBody);
    await receiver.waitFor((r) => r.filter((h) => h.url === path).length >= 2);

    expect((await client.orders.messengerDeliveries(order.reference)).items).toEqual([]);
    expect((await client.orders.emailDeliveries(order.reference)).items).toEqual([]);
  });

  it('profile.changePassword: old tokens stop working (AuthenticationError)', async () => {
    const { client, email } = await merchantClient();
    await expect(
      client.profile.changePassword({
        current_password: TEST_PASSWORD,
        new_password: 'a brand new password',
      }),
    ).resolves.toBeUndefined();
    const error = await client.profile.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const fresh = createClient({ baseUrl: server.url });
    await fresh.auth.login({ email, password: 'a brand new password' });
    expect((await fresh.profile.get()).email).toBe(email);
  });

  it('wallets: list, create, remove', async () => {
    const { client } = await merchantClient();
    const before = await client.wallets.list();
    expect(before.items.map((w) => w.network)).toEqual(['SOLANA']);
    const wallet = await client.wallets.create({
      network: 'POLYGON',
      public_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      name: 'polygon',
    });
    expect(wallet).toMatchObject({ network: 'POLYGON', name: 'polygon' });
    expect((await client.wallets.list()).items).toHaveLength(2);
    await expect(client.wallets.remove(wallet.wallet_id)).resolves.toBeUndefined();
    expect((await client.wallets.list()).items).toHaveLength(1);
  });

  it('networks.list: what the service has on, without a token, the same as GET /networks', async () => {
    const anonymous = createClient({ baseUrl: server.url });
    const networks = await anonymous.networks.list();
    expect(networks.map((n) => n.network)).toEqual(['SOLANA', 'POLYGON', 'ETHEREUM']);
    expect(networks.find((n) => n.network === 'POLYGON')).toMatchObject({
      kind: 'evm',
      chainId: 137,
      tokens: [{ symbol: 'USDT', decimals: 6 }],
    });
    expect(networks).toEqual((await server.api('GET', '/networks')).body.items);
  });

  it('orders.listAll walks every cursor page, each order exactly once', async () => {
    const { client, created } = await merchantWithOrders(57);
    await withScriptedProxy(server.url, forwardEverything, async (proxy) => {
      const counted = createClient({ baseUrl: proxy.url, token: client.token });
      const seen: string[] = [];
      for await (const order of counted.orders.listAll()) seen.push(order.reference);
      expect(seen).toHaveLength(57);
      expect(new Set(seen).size).toBe(57);
      expect([...seen].sort()).toEqual([...created].sort());
      expect(seen).toEqual([...created].reverse()); // newest first
      // Two pages of 50 and 7.
      expect(proxy.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('per_page'))).toEqual([
        '50',
        '50',
      ]);

      // Filters pass through; breaking out early stops fetching.
      const early: string[] = [];
      proxy.setPlan(() => ({ kind: 'forward' }));
      for await (const order of counted.orders.listAll({ network: 'SOLANA', status: 'PENDING' })) {
        early.push(order.reference);
        if (early.length === 3) break;
      }
      expect(early).toEqual(seen.slice(0, 3));
      expect(proxy.requests).toHaveLength(1);
      expect(proxy.requests[0]!.url).toContain('status=PENDING');
    });
  });
});

describe('client: events', () => {
  const referenceOf = (event: WebhookEventBody) => eventOrderOf(event)?.reference ?? null;

  it('events.list, get, and listAll: newest first, or oldest first after ending_before', async () => {
    const { client, created } = await merchantWithOrders(55);

    const page = await client.events.list({ per_page: 2 });
    expect(page.per_page).toBe(2);
    expect(page.items.map((e) => e.type)).toEqual(['order.created', 'order.created']);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await client.events.list({ per_page: 2, cursor: page.nextCursor! });
    expect(await client.events.get(page.items[0]!.id)).toEqual(page.items[0]);

    const all: WebhookEventBody[] = [];
    for await (const event of client.events.listAll()) all.push(event);
    expect(all).toHaveLength(55);
    expect(all.slice(0, 4)).toEqual([...page.items, ...next.items]);
    expect(new Set(all.map(referenceOf))).toEqual(new Set(created));
    expect(all.map(referenceOf)).toEqual([...created].reverse()); // newest first

    // A receiver that processed the third event catches up: the 52 after it, oldest first, in two pages.
    const oldestFirst = [...all].reverse();
    await withScriptedProxy(server.url, forwardEverything, async (proxy) => {
      const counted = createClient({ baseUrl: proxy.url, token: client.token });
      const caughtUp: string[] = [];
      for await (const event of counted.events.listAll({ ending_before: oldestFirst[2]!.id }))
        caughtUp.push(event.id);
      expect(caughtUp).toEqual(oldestFirst.slice(3).map((e) => e.id));
      expect(proxy.requests).toHaveLength(2);
      expect(proxy.requests[0]!.url).toContain(`ending_before=${oldestFirst[2]!.id}`);
      expect(proxy.requests[1]!.url).not.toContain('ending_before');
    });

    // Filters pass through.
    const confirming: WebhookEventBody[] = [];
    for await (const event of client.events.listAll({ type: 'order.confirming' })) confirming.push(event);
    expect(confirming).toEqual([]);
    const ofOrder = await client.events.list({ order: created[7]! });
    expect(ofOrder.items.map(referenceOf)).toEqual([created[7]]);

    await expect(client.events.get(`evt_${'0'.repeat(32)}`)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.events.list({ per_page: 51 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.events.list({ cursor: 'nope' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('client: idempotency keys', () => {
  it('the same explicit key returns the same order; automatic keys differ', async () => {
    const { client } = await merchantClient();
    const body = { network: 'SOLANA', token: 'USDT', amount: '7.25' } as const;
    const a = await client.orders.create(body, { idempotencyKey: 'sdk-key-1' });
    const b = await client.orders.create(body, { idempotencyKey: 'sdk-key-1' });
    expect(b.reference).toBe(a.reference);

    const c = await client.orders.create(body);
    const d = await client.orders.create(body);
    expect(new Set([a.reference, c.reference, d.reference]).size).toBe(3);

    // Same key, another body: 409.
    const error = await client.orders
      .create({ ...body, amount: '8' }, { idempotencyKey: 'sdk-key-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
  });

  it('sends a UUID Idempotency-Key, the same on every retry: a lost answer never makes two orders', async () => {
    const { client } = await merchantClient();
    // The first attempt reaches the server, but its answer is lost (a 502 from the proxy).
    await withScriptedProxy(
      server.url,
      (n) => (n === 0 ? { kind: 'forward-then-answer', status: 502 } : { kind: 'forward' }),
      async (proxy) => {
        const viaProxy = createClient({
          baseUrl: proxy.url,
          token: client.token,
          retry: { baseDelayMs: 20 },
        });
        const order = await viaProxy.orders.create({ network: 'SOLANA', token: 'USDT', amount: '5' });
        expect(proxy.requests).toHaveLength(2);
        const keys = proxy.requests.map((r) => r.headers['idempotency-key']);
        expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(keys[1]).toBe(keys[0]);
        const all = await client.orders.list({ per_page: 50 });
        expect(all.total).toBe(1);
        expect(all.items[0]!.reference).toBe(order.reference);
      },
    );
  });
});

describe('client: typed errors', () => {
  it('401 → AuthenticationError, a StablepayError with status, code, message and request id', async () => {
    const client = createClient({ baseUrl: server.url, token: 'not-a-jwt' });
    const error = await client.orders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(StablepayError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(NotFoundError);
    const e = error as AuthenticationError;
    expect(e).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', name: 'AuthenticationError' });
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.requestId).toMatch(/^[\w.-]+$/);
    expect(e.headers?.get('x-request-id')).toBe(e.requestId);

    const noToken = createClient({ baseUrl: server.url });
    await expect(noToken.profile.get()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(
      noToken.auth.login({ email: 'nobody@example.com', password: 'wrong password' }),
    ).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  it('404 → NotFoundError; 400 → ValidationError with details; 409 → ConflictError', async () => {
    const { client, solanaAddress } = await merchantClient();
    const missing = await client.orders.get(unknownReference()).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const invalid = await client.orders
      .create({ network: 'SOLANA', token: 'USDT', amount: '1.1234567' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    const v = invalid as ValidationError;
    expect(v.status).toBe(400);
    expect(v.details).toEqual([expect.objectContaining({ path: 'body.amount' })]);

    // A path parameter the contract refuses is a ValidationError too, not a crash.
    await expect(client.orders.get('not/a reference')).rejects.toBeInstanceOf(ValidationError);

    const duplicate = await client.wallets
      .create({ network: 'SOLANA', public_address: solanaAddress })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ConflictError);
    expect(duplicate).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('a success that is not JSON (wrong baseUrl) is UNEXPECTED_RESPONSE; empty path parameters are refused', async () => {
    await withScriptedProxy(
      server.url,
      () => ({
        kind: 'answer',
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html>a shop</html>',
      }),
      async (proxy) => {
        const client = createClient({ baseUrl: proxy.url, token: 'x' });
        const error = await client.orders.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StablepayError);
        expect(error).toMatchObject({
          code: 'UNEXPECTED_RESPONSE',
          status: 200,
          body: '<html>a shop</html>',
        });
        expect((error as Error).message).toContain('is baseUrl the stablepay API?');
        await expect(client.orders.get('')).rejects.toBeInstanceOf(TypeError);
        await expect(client.wallets.remove('')).rejects.toBeInstanceOf(TypeError);
        expect(proxy.requests).toHaveLength(1);
      },
    );
    expect(() => createClient({ baseUrl: 'localhost:3000' })).toThrow(/baseUrl must be an http\(s\) URL/);
    expect(() => createClient({ baseUrl: server.url, maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it('no server → StablepayConnectionError with the cause', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', token: 'x', maxRetries: 0 });
    const error = await client.orders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StablepayConnectionError);
    expect(error).toBeInstanceOf(StablepayError);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR', status: undefined });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('client: retries', () => {
  it('503 twice then success: three requests, the body of the third', async () => {
    const { client } = await merchantClient();
    await withScriptedProxy(
      server.url,
      (n) => (n < 2 ? { kind: 'answer', status: 503, body: 'busy' } : { kind: 'forward' }),
      async (proxy) => {
        const viaProxy = createClient({ baseUrl: proxy.url, token: client.token });
        const started = Date.now();
        const profile = await viaProxy.profile.get();
        const elapsed = Date.now() - started;
        expect(profile.email).toEqual(expect.stringContaining('@example.com'));
        expect(proxy.requests).toHaveLength(3);
        // Backoff: 150-300 ms, then 300-600 ms.
        expect(elapsed).toBeGreaterThanOrEqual(450);
        expect(elapsed).toBeLessThan(3000);

        // Three 503s with maxRetries 2: the error of the last one.
        proxy.setPlan(() => ({ kind: 'answer', status: 503, body: 'busy' }));
        const error = await viaProxy.profile.get().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UpstreamUnavailableError);
        expect(error).toMatchObject({ status: 503, message: 'HTTP 503: busy' });
        expect(proxy.requests).toHaveLength(3);

        // maxRetries: 0 turns retries off.
        proxy.setPlan(() => ({
          kind: 'answer',
          status: 500,
          body: '{"error":{"code":"INTERNAL_ERROR","message":"x"}}',
        }));
        const once = createClient({ baseUrl: proxy.url, token: client.token, maxRetries: 0 });
        await expect(once.profile.get()).rejects.toBeInstanceOf(InternalServerError);
        expect(proxy.requests).toHaveLength(1);
      },
    );
  });

  it('429 with Retry-After: 1 waits a second, then succeeds; a long Retry-After is thrown at once', async () => {
    const { client } = await merchantClient();
    await withScriptedProxy(
      server.url,
      (n) =>
        n === 0
          ? {
              kind: 'answer',
              status: 429,
              headers: { 'retry-after': '1' },
              body: '{"error":{"code":"RATE_LIMITED","message":"Too many requests"}}',
            }
          : { kind: 'forward' },
      async (proxy) => {
        const viaProxy = createClient({ baseUrl: proxy.url, token: client.token });
        const order = await viaProxy.orders.create({ network: 'SOLANA', token: 'USDT', amount: '2' });
        expect(order.status).toBe('PENDING');
        expect(proxy.requests).toHaveLength(2);
        expect(proxy.requests[1]!.at - proxy.requests[0]!.at).toBeGreaterThanOrEqual(1000);

        proxy.setPlan(() => ({
          kind: 'answer',
          status: 429,
          headers: { 'retry-after': '900' },
          body: '{"error":{"code":"RATE_LIMITED","message":"Too many failed logins"}}',
        }));
        const error = await viaProxy.orders.list().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RateLimitError);
        expect(error).toMatchObject({ status: 429, retryAfter: 900, message: 'Too many failed logins' });
        expect(proxy.requests).toHaveLength(1);
      },
    );
  });

  it('network errors are retried for safe requests, never for a password change; 4xx never', async () => {
    const { client } = await merchantClient();
    await withScriptedProxy(
      server.url,
      (n) => (n === 0 ? { kind: 'drop' } : { kind: 'forward' }),
      async (proxy) => {
        const viaProxy = createClient({
          baseUrl: proxy.url,
          token: client.token,
          retry: { baseDelayMs: 20 },
        });
        expect((await viaProxy.wallets.list()).items).toHaveLength(1);
        expect(proxy.requests).toHaveLength(2);

        // 4xx are answers, not failures: one request each.
        proxy.setPlan(() => ({ kind: 'forward' }));
        await expect(viaProxy.orders.get(unknownReference())).rejects.toBeInstanceOf(NotFoundError);
        await expect(
          viaProxy.orders.create({ network: 'SOLANA', token: 'USDT', amount: '-1' }),
        ).rejects.toBeInstanceOf(ValidationError);
        expect(proxy.requests).toHaveLength(2);

        // Password change: neither a dropped connection nor a 5xx is retried (it may have happened).
        proxy.setPlan(() => ({ kind: 'drop' }));
        const dropped = await viaProxy.profile
          .changePassword({ current_password: TEST_PASSWORD, new_password: 'another long password' })
          .catch((e: unknown) => e);
        expect(dropped).toBeInstanceOf(StablepayConnectionError);
        expect(proxy.requests).toHaveLength(1);

        proxy.setPlan(() => ({ kind: 'answer', status: 502 }));
        await expect(
          viaProxy.profile.changePassword({
            current_password: TEST_PASSWORD,
            new_password: 'another long password',
          }),
        ).rejects.toBeInstanceOf(UpstreamUnavailableError);
        expect(proxy.requests).toHaveLength(1);

        // ...but a 429 is (the server did nothing).
        proxy.setPlan((n) =>
          n === 0 ? { kind: 'answer', status: 429, headers: { 'retry-after': '0' } } : { kind: 'forward' },
        );
        await viaProxy.profile.changePassword({
          current_password: TEST_PASSWORD,
          new_password: 'another long password',
        });
        expect(proxy.requests).toHaveLength(2);

        // Rotating the webhook secret twice would lose the first new secret: no retry on 5xx.
        proxy.setPlan(() => ({ kind: 'answer', status: 500 }));
        await expect(viaProxy.profile.rotateWebhookSecret()).rejects.toBeInstanceOf(InternalServerError);
        expect(proxy.requests).toHaveLength(1);
      },
    );
  });
});
