/**
 * The baselines the request-path bench compares the service with, on the same PostgreSQL: the
 * least a Node stack can do for each kind of request, on the fast paths the service takes too
 * (statements prepared once per connection, an HS256 key made once). Run as a child process:
 *   tsx bench/request-path/bare-servers.ts <port> <databaseUrl> <jwtSecret>
 * - POST /orders: parse the JSON body, one INSERT of an order-sized row, answer it as JSON (with
 *   `?unprepared`, the INSERT unnamed: the baseline of earlier runs, kept to compare with them);
 * - GET /me: the bearer token's merchant, answered from memory (the service keeps merchants in
 *   memory too, so the bare stack's fastest form of this request reads no database either);
 * - GET /orders/:reference: one SELECT of the merchant's order by reference, answered as stored;
 * - GET /orders: one SELECT of the merchant's 20 newest orders (the service's index), answered.
 * Each read verifies its HS256 bearer token the way the service does: in full the first time,
 * then remembered by its exact string with its expiry checked on every use.
 */
import { randomBytes } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { createHs256Verifier } from './hs256';

const [port, databaseUrl, secret] = process.argv.slice(2);
if (!port || !databaseUrl || !secret) throw new Error('usage: bare-servers <port> <databaseUrl> <jwtSecret>');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(`
  CREATE TABLE IF NOT EXISTS bare_orders (
    id bigserial PRIMARY KEY, reference text NOT NULL UNIQUE, merchant_id uuid NOT NULL,
    network text NOT NULL, token text NOT NULL, amount_units bigint NOT NULL, recipient text NOT NULL,
    status text NOT NULL, metadata jsonb, expires_at timestamptz NOT NULL, created_at timestamptz NOT NULL)`);

// Named: PostgreSQL parses and plans each once per connection, as the service's request-path statements.
const INSERT_ORDER = {
  name: 'bare_insert_order',
  text: `INSERT INTO bare_orders (reference, merchant_id, network, token, amount_units, recipient, status, metadata, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, now() + interval '15 minutes', now()) RETURNING *`,
};
const SELECT_MERCHANT = {
  name: 'bare_select_merchant',
  text: 'SELECT id, email, full_name, created_at FROM merchants WHERE id = $1',
};
const SELECT_ORDER = {
  name: 'bare_select_order',
  text: 'SELECT * FROM orders WHERE reference = $1 AND merchant_id = $2',
};
const SELECT_PAGE = {
  name: 'bare_select_page',
  text: 'SELECT * FROM orders WHERE merchant_id = $1 ORDER BY id DESC LIMIT 20',
};

const verifyToken = createHs256Verifier(secret);
const verified = new Map<string, { sub: string; exp: number }>();
/** The bearer token's subject: verified once, then remembered (expiry still checked), as the service does. */
function subjectOf(header: string | undefined): string | null {
  if (!header?.startsWith('Bearer ')) return null;
  const token = header.slice(7);
  let claims = verified.get(token) ?? null;
  if (!claims) {
    claims = verifyToken(token);
    if (claims) verified.set(token, claims);
  }
  return claims && Math.floor(Date.now() / 1000) < claims.exp ? claims.sub : null;
}
const merchants = new Map<string, unknown>();

const app = express();
app.use(express.json({ limit: '100kb' }));
/** `?unprepared`: the same INSERT parsed and planned each time, the baseline of runs before 2026-11-24. */
app.post('/orders', async (req, res) => {
  const body = req.body as { merchantId: string; amount: string; network: string; token: string };
  const { rows } = await pool.query({
    ...(req.query.unprepared === undefined ? INSERT_ORDER : { text: INSERT_ORDER.text }),
    values: [
      randomBytes(32).toString('base64url'),
      body.merchantId,
      body.network,
      body.token,
      Math.round(Number(body.amount) * 1e6),
      'recipient',
      JSON.stringify({ source: 'bench' }),
    ],
  });
  res.status(201).json(rows[0]);
});
app.get('/me', async (req, res) => {
  const sub = subjectOf(req.headers.authorization);
  if (!sub) return void res.status(401).json({ error: 'unauthenticated' });
  if (!merchants.has(sub))
    merchants.set(sub, (await pool.query({ ...SELECT_MERCHANT, values: [sub] })).rows[0]);
  res.json(merchants.get(sub));
});
app.get('/orders/:reference', async (req, res) => {
  const sub = subjectOf(req.headers.authorization);
  if (!sub) return void res.status(401).json({ error: 'unauthenticated' });
  const { rows } = await pool.query({ ...SELECT_ORDER, values: [req.params.reference, sub] });
  res.json(rows[0]);
});
app.get('/orders', async (req, res) => {
  const sub = subjectOf(req.headers.authorization);
  if (!sub) return void res.status(401).json({ error: 'unauthenticated' });
  const { rows } = await pool.query({ ...SELECT_PAGE, values: [sub] });
  res.json({ items: rows });
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
