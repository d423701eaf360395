/**
 * The baselines the request-path bench compares the service with, on the same PostgreSQL: the
 * least a Node stack can do for each kind of request, on the fast paths the service takes too
 * (statements prepared once per connection, an HS256 key made once). Run as a child process:
 *   tsx bench/request-path/bare-servers.ts <port> <databaseUrl> <jwtSecret>
 * - POST /orders: parse the JSON body, one INSERT of an order-sized row, answer it as JSON;
 * - GET /me: verify an HS256 bearer token, one SELECT of one row by primary key, answer it.
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

const verifyToken = createHs256Verifier(secret);

const app = express();
app.use(express.json({ limit: '100kb' }));
app.post('/orders', async (req, res) => {
  const body = req.body as { merchantId: string; amount: string; network: string; token: string };
  const { rows } = await pool.query({
    ...INSERT_ORDER,
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
  const header = req.headers.authorization;
  const claims = header?.startsWith('Bearer ') ? verifyToken(header.slice(7)) : null;
  if (!claims) return void res.status(401).json({ error: 'unauthenticated' });
  const { rows } = await pool.query({ ...SELECT_MERCHANT, values: [claims.sub] });
  res.json(rows[0]);
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
