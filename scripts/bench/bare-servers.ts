/**
 * The baselines the request-path bench compares the service with, on the same PostgreSQL: the
 * least a Node stack can do for each kind of request. Run as a child process:
 *   tsx scripts/bench/bare-servers.ts <port> <databaseUrl> <jwtSecret>
 * - POST /orders: parse the JSON body, one INSERT of an order-sized row, answer it as JSON;
 * - GET /me: verify an HS256 bearer token, one SELECT of one row by primary key, answer it.
 */
import { randomBytes } from 'node:crypto';
import express from 'express';
import jwt from 'jsonwebtoken';
import pg from 'pg';

const [port, databaseUrl, secret] = process.argv.slice(2);
if (!port || !databaseUrl || !secret) throw new Error('usage: bare-servers <port> <databaseUrl> <jwtSecret>');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
await pool.query(`
  CREATE TABLE IF NOT EXISTS bare_orders (
    id bigserial PRIMARY KEY, reference text NOT NULL UNIQUE, merchant_id uuid NOT NULL,
    network text NOT NULL, token text NOT NULL, amount_units bigint NOT NULL, recipient text NOT NULL,
    status text NOT NULL, metadata jsonb, expires_at timestamptz NOT NULL, created_at timestamptz NOT NULL)`);

const app = express();
app.use(express.json({ limit: '100kb' }));
app.post('/orders', async (req, res) => {
  const body = req.body as { merchantId: string; amount: string; network: string; token: string };
  const { rows } = await pool.query(
    `INSERT INTO bare_orders (reference, merchant_id, network, token, amount_units, recipient, status, metadata, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, now() + interval '15 minutes', now()) RETURNING *`,
    [
      randomBytes(32).toString('base64url'),
      body.merchantId,
      body.network,
      body.token,
      Math.round(Number(body.amount) * 1e6),
      'recipient',
      JSON.stringify({ source: 'bench' }),
    ],
  );
  res.status(201).json(rows[0]);
});
app.get('/me', async (req, res) => {
  const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
  } catch {
    return void res.status(401).json({ error: 'unauthenticated' });
  }
  const { rows } = await pool.query('SELECT id, email, full_name, created_at FROM merchants WHERE id = $1', [
    claims.sub,
  ]);
  res.json(rows[0]);
});
app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
