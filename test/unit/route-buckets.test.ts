import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeBuckets } from '../../server/http/route-buckets';

/**
 * Routes kept in buckets answer as they did on the application: the first registered route that
 * matches wins, HEAD is answered by GET routes, paths compare case-insensitively, and whatever no
 * bucket answers goes on to the middleware after them.
 */
let base: string;
let close: () => void;
const said =
  (what: string): RequestHandler =>
  (req, res) =>
    void res.json({ what, params: req.params });

beforeAll(async () => {
  const app = express();
  const routes = routeBuckets();
  routes.registrar.get('/orders/export.csv', said('export'));
  routes.registrar.get('/orders/:reference', said('order'));
  routes.registrar.post('/orders', said('create'));
  routes.registrar.get('/users/me', (_req, _res, next) => next(new Error('broken')));
  routes.registrar.use(
    ((error: Error, _req, res, _next) =>
      void res.status(500).json({ error: error.message })) as ErrorRequestHandler,
  );
  app.use(routes.dispatch, ...routes.after);
  app.use((_req, res) => void res.status(404).json({ what: 'after' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const call = async (method: string, path: string) => {
  const res = await fetch(`${base}${path}`, { method });
  return {
    status: res.status,
    body: (method === 'HEAD' ? null : await res.json()) as Record<string, unknown>,
  };
};

describe('routes kept in buckets by method and first segment', () => {
  it('answer with the first registered route that matches, with its params', async () => {
    expect(await call('GET', '/orders/export.csv')).toEqual({
      status: 200,
      body: { what: 'export', params: {} },
    });
    expect(await call('GET', '/orders/abc')).toEqual({
      status: 200,
      body: { what: 'order', params: { reference: 'abc' } },
    });
    expect((await call('POST', '/orders')).body.what).toBe('create');
  });

  it('answer HEAD with the GET route, and compare paths as Express does (case, trailing slash)', async () => {
    expect((await call('HEAD', '/orders/abc')).status).toBe(200);
    expect((await call('GET', '/ORDERS/abc')).body.what).toBe('order');
    expect((await call('GET', '/orders/abc/')).body.what).toBe('order');
  });

  it('leave what no route matches to the next middleware, and errors to the handlers after them', async () => {
    expect(await call('DELETE', '/orders/abc')).toEqual({ status: 404, body: { what: 'after' } });
    expect(await call('GET', '/orders/abc/more')).toEqual({ status: 404, body: { what: 'after' } });
    expect(await call('GET', '/elsewhere')).toEqual({ status: 404, body: { what: 'after' } });
    expect(await call('GET', '/users/me')).toEqual({ status: 500, body: { error: 'broken' } });
  });

  it('list what was mounted, in order', () => {
    const routes = routeBuckets();
    routes.registrar.get('/a', said('a'));
    routes.registrar.patch('/b/:id', said('b'));
    // As on an Express router: the layers of its routes, for whatever walks the application.
    const stack = (routes.dispatch as unknown as { stack: { route?: { path: string } }[] }).stack;
    expect(stack.map((layer) => layer.route?.path)).toEqual(['/a', '/b/:id']);
    expect(routes.mounted()).toEqual([
      { method: 'GET', path: '/a' },
      { method: 'PATCH', path: '/b/:id' },
    ]);
  });
});
