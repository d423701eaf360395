import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { createRateProvider, createStaticRateProvider, type FxConfig } from '../../server/fx';

const COINBASE_BODY = JSON.stringify({
  data: {
    currency: 'USD',
    rates: { BRL: '5.41234567890123', EUR: '0.9201', USDT: '1.0003', JPY: '143.1', ZERO: '0.0', BAD: '1e5' },
  },
});

type Feed = { url: string; hits: () => number; close: () => Promise<void> };
const feeds: Feed[] = [];

/** A local stand-in for api.coinbase.com; `respond` decides what each request gets. */
async function startFeed(
  respond: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Feed> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits += 1;
    respond(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const feed: Feed = {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  feeds.push(feed);
  return feed;
}

function coinbaseFeed(delayMs = 0) {
  return startFeed((req, res) => {
    const send = () => {
      if (req.url !== '/v2/exchange-rates?currency=USD') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"id":"not_found"}]}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(COINBASE_BODY);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
}

function coinbaseConfig(url: string, overrides: Partial<FxConfig> = {}): FxConfig {
  return {
    FX_PROVIDER: 'coinbase',
    FX_STATIC_RATES: {},
    FX_COINBASE_URL: url,
    FX_CACHE_SECONDS: 60,
    FX_TIMEOUT_MS: 5000,
    ...overrides,
  };
}

async function upstreamError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the rate lookup to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const apiError = error as ApiError;
  expect(apiError.code).toBe('UPSTREAM_UNAVAILABLE');
  expect(apiError.status).toBe(502);
  expect(apiError.message).toMatch(/^FX feed coinbase unavailable: /);
  expect(apiError.message).not.toMatch(/\n\s+at /);
  return apiError;
}

afterEach(async () => {
  await Promise.all(feeds.splice(0).map((feed) => feed.close()));
});

describe('coinbase rate provider', () => {
  it('returns the exact rate strings from the feed', async () => {
    const feed = await coinbaseFeed();
    const provider = createRateProvider(coinbaseConfig(feed.url));
    expect(provider.source).toBe('coinbase');

    const brl = await provider.getRate('BRL');
    expect(brl).toMatchObject({ currency: 'BRL', rate: '5.41234567890123', source: 'coinbase' });
    expect(brl.fetchedAt).toBeInstanceOf(Date);
    expect(await provider.getRate('EUR')).toMatchObject({
      currency: 'EUR',
      rate: '0.9201',
      source: 'coinbase',
    });
  });

  it('tolerates a trailing slash in the base URL', async () => {
    const feed = await coinbaseFeed();
    const provider = createRateProvider(coinbaseConfig(`${feed.url}/`));
    expect((await provider.getRate('JPY')).rate).toBe('143.1');
  });

  it('serves from cache within the TTL and refetches after it', async () => {
    const feed = await coinbaseFeed();
    let now = new Date('2025-01-01T00:00:00Z');
    const provider = createRateProvider(coinbaseConfig(feed.url, { FX_CACHE_SECONDS: 60 }), () => now);

    const first = await provider.getRate('BRL');
    now = new Date('2025-01-01T00:00:59Z');
    const second = await provider.getRate('BRL');
    expect(feed.hits()).toBe(1);
    expect(second).toEqual(first);
    expect(second.fetchedAt.toISOString()).toBe('2025-01-01T00:00:00.000Z');

    now = new Date('2025-01-01T00:01:00Z');
    const third = await provider.getRate('BRL');
    expect(feed.hits()).toBe(2);
    expect(third.fetchedAt.toISOString()).toBe('2025-01-01T00:01:00.000Z');
  });

  it('caches per currency', async () => {
    const feed = await coinbaseFeed();
    const provider = createRateProvider(coinbaseConfig(feed.url));
    await provider.getRate('BRL');
    await provider.getRate('EUR');
    await provider.getRate('BRL');
    expect(feed.hits()).toBe(2);
  });

  it('does not cache with FX_CACHE_SECONDS=0', async () => {
    const feed = await coinbaseFeed();
    const provider = createRateProvider(coinbaseConfig(feed.url, { FX_CACHE_SECONDS: 0 }));
    await provider.getRate('BRL');
    await provider.getRate('BRL');
    expect(feed.hits()).toBe(2);
  });

  it('shares one upstream request among concurrent callers', async () => {
    const feed = await coinbaseFeed(50);
    const provider = createRateProvider(coinbaseConfig(feed.url));
    const rates = await Promise.all(Array.from({ length: 5 }, () => provider.getRate('BRL')));
    expect(feed.hits()).toBe(1);
    expect(new Set(rates.map((r) => r.rate))).toEqual(new Set(['5.41234567890123']));
  });

  it('does not cache failures', async () => {
    let fail = true;
    const feed = await startFeed((_req, res) => {
      if (fail) res.writeHead(503).end('busy');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(COINBASE_BODY);
    });
    const provider = createRateProvider(coinbaseConfig(feed.url));
    await upstreamError(provider.getRate('BRL'));
    fail = false;
    expect((await provider.getRate('BRL')).rate).toBe('5.41234567890123');
    expect(feed.hits()).toBe(2);
  });

  it('fails with UPSTREAM_UNAVAILABLE on a 500', async () => {
    const feed = await startFeed((_req, res) =>
      res.writeHead(500, { 'content-type': 'text/plain' }).end('oops'),
    );
    const error = await upstreamError(createRateProvider(coinbaseConfig(feed.url)).getRate('BRL'));
    expect(error.message).toContain('HTTP 500');
  });

  it('fails with UPSTREAM_UNAVAILABLE on malformed JSON', async () => {
    const feed = await startFeed((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"currency":"USD","rates":{'),
    );
    await upstreamError(createRateProvider(coinbaseConfig(feed.url)).getRate('BRL'));
  });

  it('fails with UPSTREAM_UNAVAILABLE on an unexpected shape', async () => {
    const feed = await startFeed((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"errors":[{"id":"internal"}]}'),
    );
    await upstreamError(createRateProvider(coinbaseConfig(feed.url)).getRate('BRL'));
  });

  it('times out a feed that never answers', async () => {
    const feed = await startFeed(() => {
      /* never respond */
    });
    const provider = createRateProvider(coinbaseConfig(feed.url, { FX_TIMEOUT_MS: 200 }));
    const started = Date.now();
    const error = await upstreamError(provider.getRate('BRL'));
    expect(error.message).toBe('FX feed coinbase unavailable: timeout after 200 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails with UPSTREAM_UNAVAILABLE when the connection is refused', async () => {
    const feed = await coinbaseFeed();
    const url = feed.url;
    await feeds.pop()!.close();
    const error = await upstreamError(createRateProvider(coinbaseConfig(url)).getRate('BRL'));
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('fails with UPSTREAM_UNAVAILABLE when the currency is missing', async () => {
    const feed = await coinbaseFeed();
    const error = await upstreamError(createRateProvider(coinbaseConfig(feed.url)).getRate('XYZ'));
    expect(error.message).toContain('XYZ');
  });

  it('rejects zero and non-decimal rates', async () => {
    const feed = await coinbaseFeed();
    const provider = createRateProvider(coinbaseConfig(feed.url));
    await upstreamError(provider.getRate('ZERO'));
    await upstreamError(provider.getRate('BAD'));
  });

  it('truncates rates beyond 18 decimal places', async () => {
    const feed = await startFeed((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"data":{"currency":"USD","rates":{"BRL":"5.12345678901234567891234"}}}'),
    );
    const rate = await createRateProvider(coinbaseConfig(feed.url)).getRate('BRL');
    expect(rate.rate).toBe('5.123456789012345678');
  });
});

describe('static rate provider', () => {
  it('returns the configured rate', async () => {
    const at = new Date('2025-01-01T00:00:00Z');
    const provider = createStaticRateProvider({ BRL: '5.25', EUR: '0.92' }, () => at);
    expect(provider.source).toBe('static');
    expect(await provider.getRate('EUR')).toEqual({
      currency: 'EUR',
      rate: '0.92',
      source: 'static',
      fetchedAt: at,
    });
  });

  it('is what createRateProvider picks for FX_PROVIDER=static', async () => {
    const provider = createRateProvider({
      ...coinbaseConfig('http://127.0.0.1:1'),
      FX_PROVIDER: 'static',
      FX_STATIC_RATES: { BRL: '5.25' },
    });
    expect(provider.source).toBe('static');
    expect((await provider.getRate('BRL')).rate).toBe('5.25');
  });

  it('rejects an unknown currency with VALIDATION_ERROR', async () => {
    const provider = createStaticRateProvider({ BRL: '5.25' });
    const error = await provider.getRate('XYZ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.quoteCurrency', message: 'unsupported currency XYZ' }],
    });
    await expect(provider.getRate('constructor')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
