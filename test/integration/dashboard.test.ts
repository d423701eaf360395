import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PAGE } from '../../server/dashboard/keyset-csv';
import { refreshDashboardStats } from '../../server/dashboard/refresh-stats';
import { expectErrorBody, newMerchant, startTestServer, TEST_PASSWORD } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { until } from '../support/until';

let server: TestServer;
let now = new Date('2026-11-24T12:00:00Z');
const clock = () => new Date(now);

beforeAll(async () => {
  server = await startTestServer(
    {
      LOGIN_RATE_LIMIT_MAX: '1000',
      DASHBOARD_SESSION_IDLE_HOURS: '12',
      DASHBOARD_SESSION_MAX_HOURS: '48',
      JOBS: 'none',
    },
    { clock },
  );
});
afterAll(async () => {
  await server?.stop();
});

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

/** Signs in as a browser would: the cookie and the CSRF token of the session. */
async function signIn(m: Merchant) {
  const res = await server.api('POST', '/dashboard/session', {
    body: { email: m.email, password: TEST_PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0]!;
  return { cookie, csrf: res.body.csrfToken as string, setCookie, body: res.body };
}

/** A request riding the cookie, from the dashboard's own origin unless said otherwise. */
function withSession(s: { cookie: string; csrf?: string }, origin: string | null = server.url) {
  const headers: Record<string, string> = { cookie: s.cookie };
  if (s.csrf) headers['x-csrf-token'] = s.csrf;
  if (origin) headers.origin = origin;
  return headers;
}

/** The session no longer opens the dashboard: GET /users/me with it is 401. */
async function expectSignedOut(s: { cookie: string; csrf?: string }) {
  expectErrorBody(await server.api('GET', '/users/me', { headers: withSession(s) }), 401, 'UNAUTHENTICATED');
}

describe('dashboard session', () => {
  it('is an httpOnly SameSite=Strict cookie that opens what the login token opens', async () => {
    const m = await newMerchant(server);
    const session = await signIn(m);
    expect(session.setCookie).toMatch(/^stablepay_session=[A-Za-z0-9_-]{43};/);
    expect(session.setCookie).toMatch(/HttpOnly/i);
    expect(session.setCookie).toMatch(/SameSite=Strict/i);
    expect(session.setCookie).toMatch(/Path=\//);
    expect(session.setCookie).not.toMatch(/Secure/i); // http here
    expect(session.body.merchant.email).toBe(m.email);
    expect(session.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(session.body)).not.toContain(session.cookie.split('=')[1]);

    const me = await server.api('GET', '/users/me', { headers: withSession(session) });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(m.email);
    const again = await server.api('GET', '/dashboard/session', { headers: withSession(session) });
    expect(again.body.csrfToken).toBe(session.csrf);
    // Key management is the login token's, so the session's too.
    const key = await server.api('POST', '/users/me/api-keys', {
      headers: withSession(session),
      body: { name: 'from the dashboard', scopes: ['orders:read'] },
    });
    expect(key.status).toBe(201);
  });

  it('refuses changes without the CSRF token or from another origin', async () => {
    const m = await newMerchant(server);
    const session = await signIn(m);
    const patch = (headers: Record<string, string>) =>
      server.api('PATCH', '/users/me', { headers, body: { full_name: 'Changed' } });
    expectErrorBody(await patch(withSession({ cookie: session.cookie })), 403, 'FORBIDDEN');
    expectErrorBody(
      await patch(withSession({ cookie: session.cookie, csrf: 'x'.repeat(43) })),
      403,
      'FORBIDDEN',
    );
    expectErrorBody(await patch(withSession(session, 'https://evil.example')), 403, 'FORBIDDEN');
    expectErrorBody(await patch(withSession(session, null)), 403, 'FORBIDDEN');
    // A cross-site form post: no CSRF header, another origin, form-encoded.
    const form = await fetch(`${server.url}/orders`, {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'amount=1&network=SOLANA&token=USDT',
    });
    expect(form.status).toBe(403);
    expect((await server.api('GET', '/users/me', { token: m.token })).body.full_name).toBe('Test Shop');

    const ok = await patch(withSession(session));
    expect(ok.status).toBe(200);
    expect(ok.body.full_name).toBe('Changed');
  });

  it('ends at sign-out, at a password change and when idle', async () => {
    const m = await newMerchant(server);
    const first = await signIn(m);
    const out = await server.api('DELETE', '/dashboard/session', { headers: withSession(first) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/stablepay_session=;/);
    await expectSignedOut(first);

    const second = await signIn(m);
    const third = await signIn(m);
    const changed = await server.api('POST', '/users/me/password', {
      headers: withSession(second),
      body: { current_password: TEST_PASSWORD, new_password: 'a new long password' },
    });
    expect(changed.status).toBe(204);
    await expectSignedOut(second);
    await expectSignedOut(third);

    const n = await newMerchant(server);
    const idle = await signIn(n);
    now = new Date(now.getTime() + 11 * 3_600_000);
    expect((await server.api('GET', '/users/me', { headers: withSession(idle) })).status).toBe(200);
    now = new Date(now.getTime() + 12 * 3_600_000 + 1000);
    await expectSignedOut(idle);
  });

  it('ends DASHBOARD_SESSION_MAX_HOURS after sign-in, even while in use', async () => {
    const m = await newMerchant(server);
    const busy = await signIn(m);
    // Used every 11 hours: never idle for 12, yet past 48 hours since sign-in it is over.
    for (let hours = 11; hours <= 44; hours += 11) {
      now = new Date(now.getTime() + 11 * 3_600_000);
      expect(
        (await server.api('GET', '/users/me', { headers: withSession(busy) })).status,
        `${hours} h`,
      ).toBe(200);
    }
    now = new Date(now.getTime() + 4 * 3_600_000 + 1000);
    await expectSignedOut(busy);
    // Gone for good, and a new sign-in works.
    const [rows] = await server.deps.db.sequelize.query(
      'SELECT 1 FROM dashboard_sessions WHERE merchant_id = :id',
      { replacements: { id: m.id } },
    );
    expect(rows).toHaveLength(0);
    const fresh = await signIn(m);
    expect((await server.api('GET', '/users/me', { headers: withSession(fresh) })).status).toBe(200);
    expect(fresh.setCookie).toMatch(/Max-Age=172800;/); // the cookie lives no longer than the session
  });

  it('is named __Host-stablepay_session under an https PUBLIC_BASE_URL: Secure, Path=/, no Domain', async () => {
    const https = await startTestServer(
      { PUBLIC_BASE_URL: 'https://pay.example.test', LOGIN_RATE_LIMIT_MAX: '1000', JOBS: 'none' },
      { clock },
    );
    try {
      const m = await newMerchant(https);
      const res = await https.api('POST', '/dashboard/session', {
        body: { email: m.email, password: TEST_PASSWORD },
      });
      expect(res.status, res.text).toBe(200);
      const setCookie = res.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(/^__Host-stablepay_session=[A-Za-z0-9_-]{43};/);
      expect(setCookie).toMatch(/; Secure/i);
      expect(setCookie).toMatch(/; Path=\/(;|$)/);
      expect(setCookie).not.toMatch(/Domain=/i);
      const secret = setCookie.split(';')[0]!.split('=')[1]!;
      const me = (cookie: string) => https.api('GET', '/users/me', { headers: { cookie } });
      expect((await me(`__Host-stablepay_session=${secret}`)).status).toBe(200);
      // The bare name is not this instance's cookie: one planted without the prefix opens nothing.
      expectErrorBody(await me(`stablepay_session=${secret}`), 401, 'UNAUTHENTICATED');
      const out = await https.api('DELETE', '/dashboard/session', {
        headers: {
          cookie: `__Host-stablepay_session=${secret}`,
          origin: 'https://pay.example.test',
          'x-csrf-token': res.body.csrfToken,
        },
      });
      expect(out.status, out.text).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^__Host-stablepay_session=;.*Secure/i);
    } finally {
      await https.stop();
    }
  });

  it('answers a wrong password with 401, and an unknown cookie with 401', async () => {
    const m = await newMerchant(server);
    const wrong = await server.api('POST', '/dashboard/session', {
      body: { email: m.email, password: 'nope nope nope' },
    });
    expectErrorBody(wrong, 401, 'UNAUTHENTICATED');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const res = await server.api('GET', '/users/me', {
      headers: { cookie: `stablepay_session=${'A'.repeat(43)}` },
    });
    expectErrorBody(res, 401, 'UNAUTHENTICATED');
  });
});

/** A verified payment of `units` to the order, recorded at `at`, and the order's new state (as settlement writes them). */
async function pay(orderReference: string, units: bigint, at: Date, status = 'PAID') {
  const { sequelize } = server.deps.db;
  await sequelize.query(
    `WITH o AS (UPDATE orders SET status = $status, amount_received_units = amount_received_units + $units,
                       paid_at = CASE WHEN $status = 'PAID' THEN CAST($at AS timestamptz) END, updated_at = $at
                 WHERE reference = $reference RETURNING id, network)
     INSERT INTO payment_claims (order_id, network, tx_id, source, status, amount_units, sender, matched_by, created_at, updated_at)
     SELECT id, network, $txId, 'scanner', 'VERIFIED', $units, $sender, 'tag', $at, $at FROM o`,
    {
      bind: {
        reference: orderReference,
        units: units.toString(),
        at,
        status,
        txId: `tx-${orderReference.slice(0, 12)}`,
        sender: `sender-${orderReference.slice(0, 6)}`,
      },
    },
  );
}

describe('dashboard figures and exports', () => {
  it('sums received amounts per token and in fiat at each order’s rate, orders by status, per day in a time zone', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA', 'POLYGON'] });
    const create = async (body: object, at: Date) => {
      now = at;
      const res = await server.api('POST', '/orders', { token: m.token, body });
      expect(res.status, res.text).toBe(201);
      return res.body as { reference: string; amount: string };
    };
    // 2026-11-20 02:30 UTC is still 2026-11-19 in São Paulo (UTC-3).
    const a = await create(
      { network: 'SOLANA', token: 'USDT', quoteCurrency: 'BRL', quoteAmount: '52.50' },
      new Date('2026-11-20T02:30:00Z'),
    );
    const b = await create(
      { network: 'POLYGON', token: 'USDT', amount: '7.5' },
      new Date('2026-11-21T15:00:00Z'),
    );
    await create({ network: 'SOLANA', token: 'USDT', amount: '3' }, new Date('2026-11-21T16:00:00Z'));
    await pay(a.reference, 10_000_000n, new Date('2026-11-20T02:40:00Z'));
    await pay(b.reference, 7_500_000n, new Date('2026-11-21T15:05:00Z'));
    while ((await refreshDashboardStats(server.deps)) > 0);

    const summary = await server.api(
      'GET',
      '/dashboard/summary?from=2026-11-19&to=2026-11-21&timeZone=America/Sao_Paulo',
      {
        token: m.token,
      },
    );
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body.received).toEqual([
      { network: 'POLYGON', token: 'USDT', amount: '7.5' },
      { network: 'SOLANA', token: 'USDT', amount: '10' },
    ]);
    // 52.50 BRL at 5.25 is 10 USDT: the 10 received are 52.50 BRL at the order's own rate.
    expect(summary.body.receivedFiat).toEqual([{ currency: 'BRL', amount: '52.50' }]);
    expect(summary.body.ordersCreated).toBe(3);
    expect(summary.body.ordersPaid).toBe(2);
    expect(summary.body.byStatus).toEqual({ PENDING: 1, CONFIRMING: 0, PAID: 2, UNDERPAID: 0, EXPIRED: 0 });
    expect(
      summary.body.days.map((d: { date: string; ordersCreated: number }) => [d.date, d.ordersCreated]),
    ).toEqual([
      ['2026-11-19', 1],
      ['2026-11-20', 0],
      ['2026-11-21', 2],
    ]);
    // In UTC the first order is on the 20th.
    const utc = await server.api('GET', '/dashboard/summary?from=2026-11-19&to=2026-11-21', {
      token: m.token,
    });
    expect(utc.body.days.map((d: { ordersCreated: number }) => d.ordersCreated)).toEqual([0, 1, 2]);

    for (const bad of [
      'from=2026-11-21&to=2026-11-19',
      'from=2025-01-01&to=2026-11-19',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-11-01&to=2026-11-02&timeZone=Mars/Base',
    ]) {
      const res = await server.api('GET', `/dashboard/summary?${bad}`, { token: m.token });
      expectErrorBody(res, 400, 'VALIDATION_ERROR');
    }
  });

  it('exports orders and payments as CSV that an independent parser reads back, hostile text neutralised', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    now = new Date('2026-11-22T10:00:00Z');
    const hostile = '=HYPERLINK("http://evil.example","click"), "quoted"\nnext line';
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: {
        network: 'SOLANA',
        token: 'USDT',
        quoteCurrency: 'EUR',
        quoteAmount: '9.20',
        description: hostile,
      },
    });
    expect(order.status, order.text).toBe(201);
    await pay(order.body.reference, 10_000_000n, new Date('2026-11-22T10:05:00Z'));

    const orders = await fetch(`${server.url}/dashboard/exports/orders.csv?from=2026-11-22&to=2026-11-22`, {
      headers: { authorization: `Bearer ${m.token}` },
    });
    expect(orders.status).toBe(200);
    expect(orders.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(orders.headers.get('content-disposition')).toBe(
      'attachment; filename="orders-2026-11-22-2026-11-22.csv"',
    );
    const rows = parse(await orders.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      reference: order.body.reference,
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:05:00.000Z',
      status: 'PAID',
      network: 'SOLANA',
      token: 'USDT',
      amount: order.body.amount,
      quote_currency: 'EUR',
      quote_amount: '9.20',
      fx_rate: order.body.fxRate,
      amount_received: '10.000000',
      amount_refunded: '0.000000',
      description: `'${hostile}`,
      tx_ids: `tx-${order.body.reference.slice(0, 12)}`,
    });

    const payments = await fetch(
      `${server.url}/dashboard/exports/payments.csv?from=2026-11-22&to=2026-11-22`,
      {
        headers: { authorization: `Bearer ${m.token}` },
      },
    );
    const ledger = parse(await payments.text(), { columns: true }) as Record<string, string>[];
    expect(ledger).toEqual([
      expect.objectContaining({
        recorded_at: '2026-11-22T10:05:00.000Z',
        order_reference: order.body.reference,
        amount: '10.000000',
        quote_currency: 'EUR',
        fiat_amount: '9.20',
      }),
    ]);
    // Another day: the header only.
    const empty = await fetch(`${server.url}/dashboard/exports/orders.csv?from=2026-11-23&to=2026-11-23`, {
      headers: { authorization: `Bearer ${m.token}` },
    });
    expect(parse(await empty.text(), { columns: true })).toEqual([]);
  });

  it('pages through an export longer than one statement page', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const { sequelize } = server.deps.db;
    // 2,500 orders straight into the table (the export reads what is there, however it got there).
    await sequelize.query(
      `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                           status, expires_at, created_at, updated_at)
       SELECT 'bulk' || g || md5(random()::text), $merchantId, $walletId, 'SOLANA', 'USDT', 'mint', 'recipient', 1000000,
              'PENDING', now() + interval '1 day', TIMESTAMPTZ '2026-10-01T00:00:00Z' + g * interval '1 second', now()
         FROM generate_series(1, 2500) g`,
      { bind: { merchantId: m.id, walletId: m.wallets.SOLANA } },
    );
    const res = await fetch(`${server.url}/dashboard/exports/orders.csv?from=2026-10-01&to=2026-10-01`, {
      headers: { authorization: `Bearer ${m.token}` },
    });
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.reference)).size).toBe(2500);
    expect(rows.map((r) => r.created_at)).toEqual([...rows.map((r) => r.created_at)].sort());
  });
});

/**
 * Rows sharing milliseconds, apart by microseconds: 20 per millisecond, two per microsecond (0-9 µs
 * into it), ids in a random order to the times. With EXPORT_PAGE rows per page, every page ends
 * inside a millisecond, after rows of the same millisecond but a later microsecond than its start:
 * a keyset that lost the microseconds would write those again on the next page.
 */
const SAME_MS = 20;
const MICROSECOND_ROWS = EXPORT_PAGE * 4 + 7;
const microsecondTime = (column: string, day: string) =>
  `TIMESTAMPTZ '${day}T00:00:00Z' + (${column} / ${SAME_MS}) * interval '1 millisecond'
     + ((${column} % ${SAME_MS}) / 2) * interval '1 microsecond'`;

async function insertMicrosecondOrders(m: Merchant, day: string) {
  const { sequelize } = server.deps.db;
  await sequelize.query(
    `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                         status, expires_at, created_at, updated_at)
     SELECT 'us' || g || md5(random()::text), $merchantId, $walletId, 'SOLANA', 'USDT', 'mint', 'recipient', 1000000,
            'PENDING', now() + interval '1 day', ${microsecondTime('g', day)}, now()
       FROM generate_series(0, ${MICROSECOND_ROWS - 1}) g
      ORDER BY random()`,
    { bind: { merchantId: m.id, walletId: m.wallets.SOLANA } },
  );
}

/** The column's values of the merchant's rows, in the order an export must write them (time, then id). */
async function inExportOrder(sql: string, merchantId: string): Promise<string[]> {
  const [rows] = await server.deps.db.sequelize.query(sql, { bind: { merchantId } });
  return (rows as { value: string }[]).map((r) => r.value);
}

async function exportCsv(m: Merchant, what: 'orders' | 'payments', day: string) {
  const res = await fetch(`${server.url}/dashboard/exports/${what}.csv?from=${day}&to=${day}`, {
    headers: { authorization: `Bearer ${m.token}` },
  });
  expect(res.status).toBe(200);
  return parse(await res.text(), { columns: true }) as Record<string, string>[];
}

describe('exports across keyset pages of rows apart by microseconds', () => {
  it('writes every order exactly once, in time order, when a page ends inside a millisecond', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    await insertMicrosecondOrders(m, '2026-09-10');
    const expected = await inExportOrder(
      `SELECT reference AS value FROM orders WHERE merchant_id = $merchantId ORDER BY created_at, id`,
      m.id,
    );
    expect(expected).toHaveLength(MICROSECOND_ROWS);
    // The setup is what the test is about: page boundaries inside milliseconds, with rows of that
    // millisecond at later microseconds before them in the page.
    const [[boundary]] = (await server.deps.db.sequelize.query(
      `SELECT count(*)::int AS n FROM (
         SELECT created_at, row_number() OVER (ORDER BY created_at, id) AS i FROM orders WHERE merchant_id = $merchantId) r
        WHERE r.i % ${EXPORT_PAGE} = 0 AND date_trunc('milliseconds', r.created_at) <> r.created_at`,
      { bind: { merchantId: m.id } },
    )) as unknown as [[{ n: number }]];
    expect(boundary.n).toBeGreaterThanOrEqual(3);

    const rows = await exportCsv(m, 'orders', '2026-09-10');
    const references = rows.map((r) => r.reference);
    expect(references).toHaveLength(MICROSECOND_ROWS);
    expect(new Set(references).size).toBe(MICROSECOND_ROWS);
    expect(references).toEqual(expected);
    expect(rows[0]!.created_at).toBe('2026-09-10T00:00:00.000Z');
  });

  it('writes every payment exactly once, in time order, when a page ends inside a millisecond', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    // Orders on one day, their payments on the next, each at its own microsecond.
    await insertMicrosecondOrders(m, '2026-09-11');
    const { sequelize } = server.deps.db;
    await sequelize.query(
      `INSERT INTO payment_claims (order_id, network, tx_id, source, status, amount_units, sender, matched_by,
                                   created_at, updated_at)
       SELECT o.id, o.network, 'us-tx-' || o.id || '-' || md5(random()::text), 'scanner', 'VERIFIED', 1000000,
              'sender', 'tag', ${microsecondTime('o.g', '2026-09-12')}, now()
         FROM (SELECT id, network, (row_number() OVER (ORDER BY random()) - 1)::int AS g
                 FROM orders WHERE merchant_id = $merchantId) o
        ORDER BY random()`,
      { bind: { merchantId: m.id } },
    );
    const expected = await inExportOrder(
      `SELECT pc.tx_id AS value FROM payment_claims pc JOIN orders o ON o.id = pc.order_id
        WHERE o.merchant_id = $merchantId ORDER BY pc.created_at, pc.id`,
      m.id,
    );
    expect(expected).toHaveLength(MICROSECOND_ROWS);

    const rows = await exportCsv(m, 'payments', '2026-09-12');
    const txIds = rows.map((r) => r.tx_id);
    expect(txIds).toHaveLength(MICROSECOND_ROWS);
    expect(new Set(txIds).size).toBe(MICROSECOND_ROWS);
    expect(txIds).toEqual(expected);
    expect(rows.map((r) => r.recorded_at)).toEqual([...rows.map((r) => r.recorded_at)].sort());
  });

  it('pages payments and payout outflows of the same instants together, each once, only the confirmed ones out', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    await insertMicrosecondOrders(m, '2026-09-13');
    const { sequelize } = server.deps.db;
    await sequelize.query(
      `INSERT INTO payment_claims (order_id, network, tx_id, source, status, amount_units, sender, matched_by,
                                   created_at, updated_at)
       SELECT o.id, o.network, 'in-tx-' || o.id, 'scanner', 'VERIFIED', 1000000, 'sender', 'tag',
              ${microsecondTime('o.g', '2026-09-14')}, now()
         FROM (SELECT id, network, (row_number() OVER (ORDER BY id) - 1)::int AS g
                 FROM orders WHERE merchant_id = $merchantId) o`,
      { bind: { merchantId: m.id } },
    );
    // A batch whose items were confirmed at the very instants of the payments; every fifth one FAILED.
    await sequelize.query(
      `INSERT INTO payouts (id, merchant_id, status, created_by, approvals_required)
       VALUES ('po_' || md5($merchantId), CAST($merchantId AS uuid), 'PARTIAL', CAST($merchantId AS uuid), 1)`,
      { bind: { merchantId: m.id } },
    );
    await sequelize.query(
      `INSERT INTO payout_items (id, payout_id, position, network, token, token_mint, decimals, from_address,
                                 to_address, amount_units, tag, reference, status, tx_id, confirmed_at)
       SELECT 'pi_' || md5($merchantId || g), 'po_' || md5($merchantId), g, 'BSC', 'USDT', 'contract', 18, 'payer',
              'payee-' || g, 1000000000000000001, md5(g::text), '=HYPERLINK(' || g || ')',
              CASE WHEN g % 5 = 0 THEN 'FAILED' ELSE 'CONFIRMED' END, 'out-tx-' || g,
              ${microsecondTime('g', '2026-09-14')}
         FROM generate_series(0, ${MICROSECOND_ROWS - 1}) g`,
      { bind: { merchantId: m.id } },
    );

    const rows = await exportCsv(m, 'payments', '2026-09-14');
    const ins = rows.filter((r) => r.direction === 'IN');
    const outs = rows.filter((r) => r.direction === 'OUT');
    expect(ins).toHaveLength(MICROSECOND_ROWS);
    expect(new Set(ins.map((r) => r.tx_id)).size).toBe(MICROSECOND_ROWS);
    const confirmed = Array.from({ length: MICROSECOND_ROWS }, (_, g) => g).filter((g) => g % 5 !== 0);
    // Each once (two share an instant, then the key decides: compared as sets, the order checked below).
    expect(outs.map((r) => r.tx_id).sort()).toEqual(confirmed.map((g) => `out-tx-${g}`).sort());
    expect(outs.find((r) => r.tx_id === 'out-tx-1')).toMatchObject({
      amount: '1.000000000000000001',
      sender: 'payer',
      recipient: 'payee-1',
      order_reference: '',
      payout_reference: "'=HYPERLINK(1)",
    });
    expect(rows.map((r) => r.recorded_at)).toEqual([...rows.map((r) => r.recorded_at)].sort());
  });
});

describe('dashboard summary after the stats job changes the figures', () => {
  let other: TestServer | undefined;
  afterAll(async () => {
    await other?.stop();
  });

  it('shows the new figures on the next read where the job ran, and on another instance once announced', async () => {
    // A second instance on the same database, which never runs the job itself.
    other = await startTestServer({ JOBS: 'none' }, { clock });
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const day = '2026-11-26';
    const create = async (amount: string, at: string) => {
      now = new Date(at);
      const res = await server.api('POST', '/orders', {
        token: m.token,
        body: { network: 'SOLANA', token: 'USDT', quoteCurrency: 'EUR', quoteAmount: amount },
      });
      expect(res.status, res.text).toBe(201);
      return res.body as { reference: string; amount: string };
    };
    const first = await create('9.20', `${day}T09:00:00Z`);
    await pay(first.reference, 10_000_000n, new Date(`${day}T09:05:00Z`));
    await server.jobs.runNow('refresh-dashboard-stats');

    const summary = (instance: TestServer) =>
      instance.api('GET', `/dashboard/summary?from=${day}&to=${day}`, { token: m.token });
    const figures = (res: Awaited<ReturnType<typeof summary>>) => ({
      status: res.status,
      ordersCreated: res.body.ordersCreated,
      ordersPaid: res.body.ordersPaid,
      received: res.body.received,
      receivedFiat: res.body.receivedFiat,
      byStatus: res.body.byStatus,
    });
    const before = {
      status: 200,
      ordersCreated: 1,
      ordersPaid: 1,
      received: [{ network: 'SOLANA', token: 'USDT', amount: '10' }],
      receivedFiat: [{ currency: 'EUR', amount: '9.20' }],
      byStatus: { PENDING: 0, CONFIRMING: 0, PAID: 1, UNDERPAID: 0, EXPIRED: 0 },
    };
    // Both instances read (and, their change feeds live, remember) the figures before the change.
    for (const instance of [server, other]) {
      await until('the change feed to be live', () => instance.deps.db.changes.live, 5_000, 20);
      expect(figures(await summary(instance))).toEqual(before);
      expect(figures(await summary(instance))).toEqual(before);
    }

    // More orders that day, one paid: not in the figures until the job has run.
    const second = await create('4.60', `${day}T11:00:00Z`);
    await pay(second.reference, 5_000_000n, new Date(`${day}T11:02:00Z`));
    await create('1.00', `${day}T12:00:00Z`);
    expect(figures(await summary(server))).toEqual(before);
    expect(await server.jobs.runNow('refresh-dashboard-stats')).toBeGreaterThan(0);

    const after = {
      status: 200,
      ordersCreated: 3,
      ordersPaid: 2,
      received: [{ network: 'SOLANA', token: 'USDT', amount: '15' }],
      receivedFiat: [{ currency: 'EUR', amount: '13.80' }],
      byStatus: { PENDING: 1, CONFIRMING: 0, PAID: 2, UNDERPAID: 0, EXPIRED: 0 },
    };
    // The instance that ran the job shows them on its next read (it forgets at once, and its own
    // announcement follows; this read does not tell the two apart).
    expect(figures(await summary(server))).toEqual(after);
    // The other forgets it when the announcement arrives (well before the 60 s the answer is kept).
    const seen = await until(
      'the other instance to show the new figures',
      async () => {
        const res = figures(await summary(other!));
        return JSON.stringify(res) === JSON.stringify(after) ? res : null;
      },
      5_000,
      50,
    );
    expect(seen).toEqual(after);
  });
});

describe('order list filters and search', () => {
  it('filters by token and creation time, and finds by reference, transaction id, sender or description', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const make = async (body: object, at: string) => {
      now = new Date(at);
      return (await server.api('POST', '/orders', { token: m.token, body: { network: 'SOLANA', ...body } }))
        .body;
    };
    const a = await make({ token: 'USDT', amount: '1', description: 'Blue 50% mug' }, '2026-11-10T10:00:00Z');
    const b = await make({ token: 'USDT', amount: '2', description: 'Red mug' }, '2026-11-11T10:00:00Z');
    await pay(b.reference, 2_000_000n, new Date('2026-11-11T10:01:00Z'));
    const list = async (query: string) =>
      (
        (await server.api('GET', `/users/me/orders?${query}`, { token: m.token })).body.items as {
          reference: string;
        }[]
      ).map((o) => o.reference);
    expect(await list('created_gte=2026-11-11T00:00:00Z')).toEqual([b.reference]);
    expect(await list('created_lt=2026-11-11T00:00:00Z')).toEqual([a.reference]);
    expect(await list('token=USDC')).toEqual([]);
    expect(await list(`q=${a.reference}`)).toEqual([a.reference]);
    expect(await list(`q=tx-${b.reference.slice(0, 12)}`)).toEqual([b.reference]);
    expect(await list(`q=sender-${b.reference.slice(0, 6)}`)).toEqual([b.reference]);
    expect(await list('q=blue')).toEqual([a.reference]);
    expect(await list('q=50%25')).toEqual([a.reference]);
    expect(await list('q=mug')).toEqual([b.reference, a.reference]);
    expect(await list('q=%25')).toEqual([a.reference]);
    const page = await server.api('GET', '/users/me/orders?q=mug&per_page=1', { token: m.token });
    expect(page.body.total).toBe(2);
  });
});
