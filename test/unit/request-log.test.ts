import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import helmet from 'helmet';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLogs } from '../../server/http/request-log';
import { createLogger } from '../../server/lib/logger';
import { securityHeaders } from '../../server/http/security-headers';

const servers: http.Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))));

async function serve(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The app's request logger on a logger built like production's (redaction on), lines captured. */
function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', redact: { paths: ['*.password', '*.token'], censor: '[redacted]' } },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const app = express();
  app.use(requestLogs(logger));
  app.get('/ok', (_req, res) => res.json({ ok: true }));
  app.get('/missing', (_req, res) => res.status(404).json({}));
  app.get('/broken', (_req, res) => res.status(503).json({}));
  app.get('/slow', () => {}); // never answers: the client gives up
  app.get('/healthz', (_req, res) => res.json({}));
  app.get('/secret', (req, res) => {
    logger.info({ body: { password: 'hunter2', token: 'abc' } }, 'handler line');
    res.json({ id: req.id });
  });
  return { app, lines, logger };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('request logs', () => {
  it('one line per request: id, method, path without the query, status, time; level by status', async () => {
    const { app, lines } = loggedApp();
    const url = await serve(app);
    const ok = await fetch(`${url}/ok?account=payer-secret`, { headers: { authorization: 'Bearer t' } });
    await fetch(`${url}/missing`);
    await fetch(`${url}/broken`);
    await settle();
    const id = ok.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: id,
        req: { id, method: 'GET', path: '/ok' },
        res: { status: 200 },
        responseTime: expect.any(Number),
        msg: expect.stringMatching(/^GET \/ok 200 \d+ms$/),
      }),
      expect.objectContaining({
        level: 40,
        res: { status: 404 },
        msg: expect.stringMatching(/^GET \/missing 404/),
      }),
      expect.objectContaining({
        level: 50,
        res: { status: 503 },
        msg: expect.stringMatching(/^GET \/broken 503/),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/payer-secret|Bearer|authorization/);
  });

  it('keeps a well-formed X-Request-Id, replaces any other, and logs no line for probes', async () => {
    const { app, lines } = loggedApp();
    const url = await serve(app);
    const kept = await fetch(`${url}/healthz`, { headers: { 'x-request-id': 'lb-42.a' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-42.a');
    const replaced = await fetch(`${url}/ok`, { headers: { 'x-request-id': 'has spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await settle();
    expect(lines.map((l) => (l.req as { path: string }).path)).toEqual(['/ok']);
  });

  it('a request the client abandons logs a warning', async () => {
    const { app, lines } = loggedApp();
    const url = await serve(app);
    const request = http.get(`${url}/slow`);
    request.on('error', () => {});
    await settle();
    request.destroy();
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: expect.stringMatching(/^GET \/slow aborted by the client after \d+ms$/),
      }),
    ]);
  });

  it("other lines keep the logger's redaction", async () => {
    const { app, lines } = loggedApp();
    const url = await serve(app);
    await fetch(`${url}/secret`);
    await settle();
    const handler = lines.find((l) => l.msg === 'handler line');
    expect(handler?.body).toEqual({ password: '[redacted]', token: '[redacted]' });
  });
});

describe('refund ids in logs', () => {
  // A refund id opens the payer's refund page, where the refund's address is given.
  const hex = '0123456789abcdef'.repeat(2);
  const id = `rf_${hex}`;

  it('are redacted from request paths, however the id is spelled in the URL', async () => {
    const { app, lines } = loggedApp();
    app.all('/{*rest}', (_req, res) => res.status(404).json({}));
    const url = await serve(app);
    const encoded = `rf%5F${[...hex].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`;
    const paths = [
      `/refund/${id}`,
      `/refund/${id}?lang=es`,
      `/pay/refunds/${id}`,
      `/pay/refunds/${id}/address`,
      `/pay/refunds/${id}/tx-request`,
      `/PAY/REFUNDS/${id}/address`,
      `/orders/5Ref/refunds/${id}/approve`,
      `/refund/${encoded}`,
      `/refund/%72%66_${hex}`,
    ];
    for (const path of paths) await fetch(`${url}${path}`, { method: 'POST' });
    await settle();
    expect(lines).toHaveLength(paths.length);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(hex);
    expect(logged).not.toContain(hex.slice(0, 16));
    expect(lines.map((l) => (l.req as { path: string }).path)).toEqual([
      '/refund/rf_[redacted]',
      '/refund/rf_[redacted]',
      '/pay/refunds/rf_[redacted]',
      '/pay/refunds/rf_[redacted]/address',
      '/pay/refunds/rf_[redacted]/tx-request',
      '/PAY/REFUNDS/rf_[redacted]/address',
      '/orders/5Ref/refunds/rf_[redacted]/approve',
      '/refund/rf_[redacted]',
      '/refund/rf_[redacted]',
    ]);
  });

  it("are taken out of every line of the service's logger, whatever field holds them", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.info({ refundId: id }, `refund ${id} looked at`);
    logger.warn({ err: new Error(`UPDATE refunds SET status = 'FAILED' WHERE id = '${id}'`) }, 'failed');
    logger.child({}, { redact: [] }).info({ req: { path: `/refund/${id}` } }, 'request');
    logger.error({ nested: { deeper: [id.toUpperCase(), `x${id}x`] } }, 'nested');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.toLowerCase()).not.toContain(hex);
      expect(() => JSON.parse(line)).not.toThrow();
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({
      refundId: 'rf_[redacted]',
      msg: 'refund rf_[redacted] looked at',
    });
  });
});

describe('security headers', () => {
  it("are exactly helmet's, on every response", async () => {
    const headersOf = async (middleware: express.RequestHandler) => {
      const app = express();
      app.disable('x-powered-by');
      app.use(middleware);
      app.get('/', (_req, res) => res.json({}));
      const res = await fetch(await serve(app));
      return [...res.headers].filter(
        ([name]) => !['date', 'etag', 'connection', 'keep-alive'].includes(name),
      );
    };
    const expected = await headersOf(helmet());
    expect(expected.map(([name]) => name)).toContain('content-security-policy');
    expect(await headersOf(securityHeaders())).toEqual(expected);
  });

  it('follow the options given', async () => {
    const app = express();
    app.use(securityHeaders({ frameguard: { action: 'deny' }, contentSecurityPolicy: false }));
    app.get('/', (_req, res) => res.json({}));
    const res = await fetch(await serve(app));
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
