import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { createFrankfurterRateProvider, createRateProvider, rateFeeds, type FxConfig } from '../../server/fx';

/**
 * The second live feed (Frankfurter) against a local server speaking its format, and the fallback
 * from the default feed (Coinbase) to it. Nothing leaves the machine.
 */

type Route = (url: string) => { status: number; body: string } | 'hang';
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers
      .splice(0)
      .map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

async function feed(route: Route): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const answer = route(req.url ?? '');
    if (answer === 'hang') return; // never answers: the client's timeout must end it
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** Frankfurter's answer to /v1/latest?base=USD&symbols=X. */
const frankfurter: Route = (url) => {
  const symbol = /symbols=([A-Z]+)/.exec(url)?.[1];
  const rates: Record<string, number> = { BRL: 5.4123, EUR: 0.8612, TINY: 1e-7 };
  if (!url.startsWith('/v1/latest?base=USD') || !symbol || !(symbol in rates))
    return { status: 404, body: '{"message":"not found"}' };
  return {
    status: 200,
    body: JSON.stringify({ amount: 1, base: 'USD', date: '2026-11-20', rates: { [symbol]: rates[symbol] } }),
  };
};

const config = (over: Partial<FxConfig>): FxConfig => ({
  FX_PROVIDER: 'coinbase',
  FX_FALLBACK_PROVIDER: 'frankfurter',
  FX_STATIC_RATES: {},
  FX_COINBASE_URL: 'http://127.0.0.1:9',
  FX_FRANKFURTER_URL: 'http://127.0.0.1:9',
  FX_CACHE_SECONDS: 0,
  FX_TIMEOUT_MS: 1000,
  ...over,
});

async function upstreamError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('UPSTREAM_UNAVAILABLE');
  return error as ApiError;
}

describe('Frankfurter feed', () => {
  it('reads the USD rate of one currency, as an exact decimal string', async () => {
    const f = await feed(frankfurter);
    const provider = createFrankfurterRateProvider({ baseUrl: f.url, timeoutMs: 1000 });
    const rate = await provider.getRate('BRL');
    expect(rate).toMatchObject({ currency: 'BRL', rate: '5.4123', source: 'frankfurter' });
    expect(f.requests).toEqual(['/v1/latest?base=USD&symbols=BRL']);
  });

  it('fails as UPSTREAM_UNAVAILABLE on unknown currencies, bad shapes, exponents, errors and timeouts', async () => {
    const ok = await feed(frankfurter);
    const p = createFrankfurterRateProvider({ baseUrl: ok.url, timeoutMs: 300 });
    expect((await upstreamError(p.getRate('XYZ'))).message).toMatch(
      /frankfurter unavailable: currency not offered/,
    );
    expect((await upstreamError(p.getRate('TINY'))).message).toMatch(/no valid rate/);
    for (const answer of [
      { status: 500, body: '{}' },
      { status: 200, body: 'not json' },
      { status: 200, body: '{"base":"EUR","rates":{"BRL":6}}' },
      { status: 200, body: '{"base":"USD","rates":{"BRL":"5.4"}}' },
      { status: 200, body: '{"base":"USD","rates":{"BRL":0}}' },
    ]) {
      const bad = await feed(() => answer);
      await upstreamError(createFrankfurterRateProvider({ baseUrl: bad.url, timeoutMs: 300 }).getRate('BRL'));
    }
    const slow = await feed(() => 'hang');
    expect(
      (
        await upstreamError(
          createFrankfurterRateProvider({ baseUrl: slow.url, timeoutMs: 200 }).getRate('BRL'),
        )
      ).message,
    ).toMatch(/timeout after 200 ms/);
  });
});

describe('the default feeds: Coinbase, then Frankfurter', () => {
  it('prices with Coinbase while it answers, and says so in the rate', async () => {
    const coinbase = await feed(() => ({
      status: 200,
      body: JSON.stringify({ data: { currency: 'USD', rates: { BRL: '5.3' } } }),
    }));
    const fallback = await feed(frankfurter);
    const provider = createRateProvider(
      config({ FX_COINBASE_URL: coinbase.url, FX_FRANKFURTER_URL: fallback.url }),
    );
    expect(await provider.getRate('BRL')).toMatchObject({ rate: '5.3', source: 'coinbase' });
    expect(fallback.requests).toEqual([]);
  });

  it('falls back to Frankfurter when Coinbase fails, and fails only when both do', async () => {
    const down = await feed(() => ({ status: 503, body: '{}' }));
    const fallback = await feed(frankfurter);
    const provider = createRateProvider(
      config({ FX_COINBASE_URL: down.url, FX_FRANKFURTER_URL: fallback.url }),
    );
    expect(await provider.getRate('EUR')).toMatchObject({ rate: '0.8612', source: 'frankfurter' });
    const both = createRateProvider(config({ FX_COINBASE_URL: down.url, FX_FRANKFURTER_URL: down.url }));
    const error = await upstreamError(both.getRate('EUR'));
    expect(error.message).toMatch(
      /coinbase unavailable: HTTP 503; FX feed frankfurter unavailable: HTTP 503/,
    );
  });

  it('names the feeds in order; static alone; none turns the fallback off', () => {
    expect(rateFeeds(config({}))).toEqual(['coinbase', 'frankfurter']);
    expect(rateFeeds(config({ FX_PROVIDER: 'frankfurter', FX_FALLBACK_PROVIDER: 'coinbase' }))).toEqual([
      'frankfurter',
      'coinbase',
    ]);
    expect(rateFeeds(config({ FX_FALLBACK_PROVIDER: 'none' }))).toEqual(['coinbase']);
    expect(rateFeeds(config({ FX_PROVIDER: 'static' }))).toEqual(['static']);
  });
});
