import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { createPublicClient, http } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcEndpointPool, type RpcEndpointPoolOptions } from '../../server/chains/rpc-endpoints';
import { createSolanaConnection } from '../../server/chains/solana/rpc';
import { refreshRpcEndpointMetrics } from '../../server/health/read-metrics';
import { createMetrics } from '../../server/lib/metrics';

type Seen = { method: string; path: string; headers: IncomingMessage['headers']; body: string };
type Handler = (req: Seen, res: ServerResponse) => void;
type TestServer = { url: string; seen: Seen[]; setHandler(h: Handler): void };

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A local HTTP server recording every request; `handler` answers (and can be swapped). */
async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  let current = handler;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      current(entry, res);
    });
  });
  servers.push(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, setHandler: (h) => (current = h) };
}

/** A URL nothing listens on (connection refused). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function json(status: number, body: unknown): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}
const ok = (name: string) => json(200, { jsonrpc: '2.0', id: 1, result: name });
const hang: Handler = () => {};

/** A JSON-RPC server answering `results[method]` (echoing the id), for the web3.js and viem tests. */
function jsonRpc(results: Record<string, unknown>): Handler {
  return (req, res) => {
    const call = JSON.parse(req.body) as { id: unknown; method: string };
    res.writeHead(200, { 'content-type': 'application/json' });
    if (call.method in results)
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: results[call.method] }));
    else
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'Method not found' } }),
      );
  };
}

function pool(urls: string[], extra: Partial<RpcEndpointPoolOptions> = {}) {
  return createRpcEndpointPool({
    network: 'SOLANA',
    urls,
    timeoutMs: 2000,
    retryFailedAfterMs: 30_000,
    ...extra,
  });
}

const RPC_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' });
const post = (body: string | Uint8Array = RPC_BODY, init: RequestInit = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
  ...init,
});

describe('RPC endpoint pool: failover', () => {
  it('goes on to the second endpoint when the first refuses connections', async () => {
    const dead = await deadUrl();
    const live = await startServer(ok('second'));
    const p = pool([dead, live.url]);
    const res = await p.fetch('http://ignored.invalid/', post());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: 'second' });
    expect(live.seen).toHaveLength(1);
    const [first, second] = p.health();
    expect(first).toMatchObject({ network: 'SOLANA', endpoint: `#1 ${dead}`, up: false, failures: 1 });
    expect(first!.lastError).toBe('ECONNREFUSED');
    expect(first!.failuresByReason).toEqual({
      timeout: 0,
      connection: 1,
      http_429: 0,
      http_5xx: 0,
      http_auth: 0,
    });
    expect(second).toMatchObject({ endpoint: `#2 ${live.url}`, up: true, failures: 0, lastError: null });
  });

  it.each([
    [503, 'http_5xx'],
    [500, 'http_5xx'],
    [429, 'http_429'],
  ] as const)('fails over on HTTP %i', async (status, reason) => {
    const first = await startServer(json(status, { error: 'busy' }));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url]);
    const res = await p.fetch(first.url, post());
    expect(await res.json()).toMatchObject({ result: 'second' });
    expect(first.seen).toHaveLength(1);
    expect(p.health()[0]).toMatchObject({ up: false, failures: 1, lastError: `HTTP ${status}` });
    expect(p.health()[0]!.failuresByReason[reason]).toBe(1);
  });

  it('fails over when an endpoint does not answer within timeoutMs', async () => {
    const first = await startServer(hang);
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url], { timeoutMs: 200 });
    const started = Date.now();
    const res = await p.fetch(first.url, post());
    expect(await res.json()).toMatchObject({ result: 'second' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(p.health()[0]).toMatchObject({ up: false, lastError: 'timed out after 200 ms' });
    expect(p.health()[0]!.failuresByReason.timeout).toBe(1);
  });

  it('fails over when a reply stalls after its headers (the body is read within the timeout)', async () => {
    const first = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
    });
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url], { timeoutMs: 200 });
    const res = await p.fetch(first.url, post());
    expect(await res.json()).toMatchObject({ result: 'second' });
    expect(p.health()[0]!.failuresByReason.timeout).toBe(1);
  });

  it('re-sends the same method, headers and body (string, bytes or a Request) to every endpoint', async () => {
    const first = await startServer(json(502, {}));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url]);
    const headers = { 'content-type': 'application/json', 'x-custom': 'kept' };
    await p.fetch('http://ignored.invalid/', post(RPC_BODY, { headers }));
    await p.fetch('http://ignored.invalid/', post(new TextEncoder().encode(RPC_BODY), { headers }));
    await p.fetch(new Request('http://ignored.invalid/', { method: 'POST', headers, body: RPC_BODY }));
    // The first endpoint is cooling down after the first call: only the first call reached it.
    expect(first.seen).toHaveLength(1);
    expect(second.seen).toHaveLength(3);
    for (const seen of [...first.seen, ...second.seen]) {
      expect(seen).toMatchObject({ method: 'POST', path: '/', body: RPC_BODY });
      expect(seen.headers['x-custom']).toBe('kept');
    }
  });

  it('re-sends a streamed body too', async () => {
    const first = await startServer(json(503, {}));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url]);
    const stream = new Response(RPC_BODY).body!;
    await p.fetch('http://ignored.invalid/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(first.seen[0]!.body).toBe(RPC_BODY);
    expect(second.seen[0]!.body).toBe(RPC_BODY);
  });
});

describe('RPC endpoint pool: a refused API key', () => {
  it.each([401, 403])(
    'fails over on HTTP %i (that provider refuses the key; the next may not)',
    async (status) => {
      const first = await startServer(json(status, { error: 'invalid api key' }));
      const second = await startServer(ok('second'));
      const p = pool([first.url, second.url]);
      const res = await p.fetch(first.url, post());
      expect(res.status).toBe(200);
      expect(second.seen).toHaveLength(1);
      expect(p.health()[0]).toMatchObject({ up: false, failures: 1, failuresByReason: { http_auth: 1 } });
    },
  );
});

describe('RPC endpoint pool: responses that are not failover reasons', () => {
  it('returns a 400 as it is, without trying the next endpoint, and counts the endpoint up', async () => {
    const first = await startServer(json(400, { error: 'bad request' }));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url]);
    const res = await p.fetch(first.url, post());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'bad request' });
    expect(second.seen).toHaveLength(0);
    expect(p.health()[0]).toMatchObject({ up: true, failures: 0 });
  });

  it('returns a JSON-RPC error inside a 200 as it is', async () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid params' } };
    const first = await startServer(json(200, error));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url]);
    const res = await p.fetch(first.url, post());
    expect(await res.json()).toEqual(error);
    expect(second.seen).toHaveLength(0);
  });

  it('keeps status text and headers', async () => {
    const first = await startServer((_req, res) => {
      res.writeHead(404, 'Nope', { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      res.end('not here');
    });
    const res = await pool([first.url]).fetch(first.url, post());
    expect(res.status).toBe(404);
    expect(res.statusText).toBe('Nope');
    expect(res.headers.get('x-upstream')).toBe('yes');
    expect(await res.text()).toBe('not here');
  });
});

/** Two endpoints on the test's clock: the first answers 503 (until given another handler), the second 'second'. */
async function firstFailingPool(now: () => number, retryFailedAfterMs: number) {
  const first = await startServer(json(503, {}));
  const second = await startServer(ok('second'));
  return { first, second, p: pool([first.url, second.url], { now, retryFailedAfterMs }) };
}

describe('RPC endpoint pool: cooldown and recovery', () => {
  it('skips a failed endpoint for retryFailedAfterMs, then tries it first again', async () => {
    let t = 1_000_000;
    const { first, second, p } = await firstFailingPool(() => t, 30_000);

    await p.fetch(first.url, post());
    expect([first.seen.length, second.seen.length]).toEqual([1, 1]);

    // Cooling down: the first endpoint is not asked at all.
    t += 29_999;
    first.setHandler(ok('first'));
    expect(await (await p.fetch(first.url, post())).json()).toMatchObject({ result: 'second' });
    expect([first.seen.length, second.seen.length]).toEqual([1, 2]);
    expect(p.health()[0]!.up).toBe(false);

    // Cooled down and recovered: primary again, and stays so.
    t += 1;
    expect(await (await p.fetch(first.url, post())).json()).toMatchObject({ result: 'first' });
    expect(await (await p.fetch(first.url, post())).json()).toMatchObject({ result: 'first' });
    expect([first.seen.length, second.seen.length]).toEqual([3, 2]);
    expect(p.health()[0]).toMatchObject({ up: true, failures: 1, lastError: 'HTTP 503' });
  });

  it('an endpoint that fails again after its cooldown starts a new one', async () => {
    let t = 0;
    const { first, p } = await firstFailingPool(() => t, 1000);
    await p.fetch(first.url, post());
    t = 1000;
    await p.fetch(first.url, post());
    t = 1500;
    await p.fetch(first.url, post());
    expect(first.seen).toHaveLength(2);
    expect(p.health()[0]!.failures).toBe(2);
  });

  it('tries every endpoint, in list order, when all are cooling down', async () => {
    let t = 0;
    const first = await startServer(json(503, {}));
    const second = await startServer(json(503, {}));
    const p = pool([first.url, second.url], { now: () => t });
    expect((await p.fetch(first.url, post())).status).toBe(503);
    t += 10;
    first.setHandler(ok('first'));
    expect(await (await p.fetch(first.url, post())).json()).toMatchObject({ result: 'first' });
    expect([first.seen.length, second.seen.length]).toEqual([2, 1]);
  });
});

describe('RPC endpoint pool: when everything fails', () => {
  it('throws the last connection error when no endpoint answers', async () => {
    const p = pool([await deadUrl(), await deadUrl()]);
    const error = await p.fetch('http://ignored.invalid/', post()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(p.health().map((h) => h.up)).toEqual([false, false]);
  });

  it('throws the timeout when the endpoints only time out', async () => {
    const first = await startServer(hang);
    const p = pool([first.url], { timeoutMs: 100 });
    await expect(p.fetch(first.url, post())).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('returns the last 429/5xx response when there was one', async () => {
    const first = await startServer(json(502, { error: 'first' }));
    const p = pool([first.url, await deadUrl()]);
    const res = await p.fetch(first.url, post());
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 'first' });

    const a = await startServer(json(503, { error: 'a' }));
    const b = await startServer(json(429, { error: 'b' }));
    const res2 = await pool([a.url, b.url]).fetch(a.url, post());
    expect(res2.status).toBe(429);
    expect(await res2.json()).toEqual({ error: 'b' });
  });
});

describe('RPC endpoint pool: the caller aborting', () => {
  it('stops at once, tries no other endpoint and blames none', async () => {
    const first = await startServer(hang);
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url], { timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(p.fetch(first.url, post(RPC_BODY, { signal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(second.seen).toHaveLength(0);
    expect(p.health()[0]).toMatchObject({ up: true, failures: 0 });
  });

  it('sends nothing when the signal is already aborted', async () => {
    const first = await startServer(ok('first'));
    const p = pool([first.url]);
    const reason = new Error('gave up');
    await expect(p.fetch(first.url, post(RPC_BODY, { signal: AbortSignal.abort(reason) }))).rejects.toBe(
      reason,
    );
    expect(first.seen).toHaveLength(0);
  });

  it('still applies its own timeout next to the caller signal', async () => {
    const first = await startServer(hang);
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url], { timeoutMs: 150 });
    const res = await p.fetch(first.url, post(RPC_BODY, { signal: new AbortController().signal }));
    expect(await res.json()).toMatchObject({ result: 'second' });
  });
});

describe('RPC endpoint pool: health and secrets', () => {
  it('shows only the origin: never the path, query or user info (API keys)', async () => {
    const live = await startServer((req, res) => {
      const auth = `Basic ${Buffer.from('user:pw').toString('base64')}`;
      json(req.headers.authorization === auth ? 200 : 401, { jsonrpc: '2.0', id: 1, result: req.path })(
        req,
        res,
      );
    });
    const port = new URL(live.url).port;
    const dead = new URL(await deadUrl());
    const secretDead = `http://user:pw@127.0.0.1:${dead.port}/v2/SECRETKEY?apikey=QUERYSECRET`;
    const secretLive = `http://user:pw@127.0.0.1:${port}/v2/SECRETKEY?apikey=QUERYSECRET`;
    const p = pool([secretDead, secretLive]);

    // User info travels as Basic auth (fetch refuses it in the URL); path and query are kept.
    const res = await p.fetch('http://ignored.invalid/', post());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ result: '/v2/SECRETKEY?apikey=QUERYSECRET' });

    const health = p.health();
    expect(health.map((h) => h.endpoint)).toEqual([
      `#1 http://127.0.0.1:${dead.port}`,
      `#2 http://127.0.0.1:${port}`,
    ]);
    const text = JSON.stringify(health);
    for (const secret of ['SECRETKEY', 'QUERYSECRET', 'user', 'pw@', '/v2'])
      expect(text).not.toContain(secret);
    expect(health[0]!.lastError).toBe('ECONNREFUSED');
  });

  it('does not override an authorization header the caller set', async () => {
    const live = await startServer((req, res) => json(200, { result: req.headers.authorization })(req, res));
    const p = pool([live.url.replace('http://', 'http://user:pw@')]);
    const res = await p.fetch(live.url, post(RPC_BODY, { headers: { authorization: 'Bearer mine' } }));
    expect(await res.json()).toEqual({ result: 'Bearer mine' });
  });

  it('reports every outcome to onResult', async () => {
    const outcomes: string[] = [];
    const first = await startServer(json(503, {}));
    const second = await startServer(ok('second'));
    const p = pool([first.url, second.url], {
      onResult: (endpoint, outcome) => {
        outcomes.push(`${endpoint.slice(0, 2)} ${outcome}`);
        throw new Error('a listener bug changes nothing');
      },
    });
    expect((await p.fetch(first.url, post())).status).toBe(200);
    expect(outcomes).toEqual(['#1 http_5xx', '#2 ok']);
  });

  it('rejects an empty list', () => {
    expect(() => pool([])).toThrow(/no RPC endpoint/);
  });
});

describe('RPC endpoint metrics', () => {
  it('exposes up and the failure counter per endpoint, without secrets', async () => {
    const metrics = createMetrics();
    const dead = new URL(await deadUrl());
    const live = await startServer(ok('second'));
    const p = pool([`http://127.0.0.1:${dead.port}/SECRETKEY`, live.url]);
    await p.fetch('http://ignored.invalid/', post());
    refreshRpcEndpointMetrics(metrics, p.health());
    // A second scrape sets the same values again (no double counting).
    refreshRpcEndpointMetrics(metrics, p.health());
    const text = await metrics.registry.metrics();
    const first = `network="SOLANA",endpoint="#1 http://127.0.0.1:${dead.port}"`;
    const second = `network="SOLANA",endpoint="#2 ${live.url}"`;
    expect(text).toContain(`stablepay_rpc_endpoint_up{${first}} 0`);
    expect(text).toContain(`stablepay_rpc_endpoint_up{${second}} 1`);
    expect(text).toContain('# TYPE stablepay_rpc_endpoint_failures_total counter');
    expect(text).toContain(`stablepay_rpc_endpoint_failures_total{${first},reason="connection"} 1`);
    expect(text).toContain(`stablepay_rpc_endpoint_failures_total{${first},reason="timeout"} 0`);
    expect(text).toContain(`stablepay_rpc_endpoint_failures_total{${second},reason="connection"} 0`);
    expect(text).not.toContain('SECRETKEY');
  });
});

describe('RPC endpoint pool behind real clients', () => {
  it('serves a web3.js Connection built by createSolanaConnection with the first endpoint dead', async () => {
    const blockhash = Keypair.generate().publicKey.toBase58();
    const live = await startServer(
      jsonRpc({
        getSlot: 4242,
        getLatestBlockhash: { context: { slot: 4242 }, value: { blockhash, lastValidBlockHeight: 100 } },
      }),
    );
    const p = pool([await deadUrl(), live.url]);
    const connection = createSolanaConnection(p, 'confirmed');
    expect(await connection.getSlot()).toBe(4242);
    expect(await connection.getLatestBlockhash()).toEqual({ blockhash, lastValidBlockHeight: 100 });
    expect(live.seen.map((s) => (JSON.parse(s.body) as { method: string }).method)).toEqual([
      'getSlot',
      'getLatestBlockhash',
    ]);
    expect(p.health().map((h) => h.up)).toEqual([false, true]);
  });

  it('lets web3.js see an error when every endpoint fails', async () => {
    const busy = await startServer(json(503, { error: 'busy' }));
    const connection = createSolanaConnection(pool([await deadUrl(), busy.url]), 'confirmed');
    await expect(connection.getSlot()).rejects.toThrow(/503/);
  });

  it('serves a viem client with the first endpoint dead, then with it answering 503', async () => {
    const live = await startServer(jsonRpc({ eth_blockNumber: '0x10', eth_chainId: '0x89' }));
    const p = pool([await deadUrl(), live.url], { network: 'POLYGON' });
    const client = createPublicClient({ transport: http(p.urls[0], { fetchFn: p.fetch, retryCount: 0 }) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(16n);
    expect(await client.getChainId()).toBe(137);

    const busy = await startServer(json(503, { error: 'busy' }));
    const p2 = pool([busy.url, live.url], { network: 'POLYGON' });
    const client2 = createPublicClient({ transport: http(p2.urls[0], { fetchFn: p2.fetch, retryCount: 0 }) });
    expect(await client2.getChainId()).toBe(137);
    expect(busy.seen).toHaveLength(1);
  });

  it('lets viem see a JSON-RPC error as an RPC error, not a failover', async () => {
    const live = await startServer(jsonRpc({}));
    const other = await startServer(jsonRpc({ eth_chainId: '0x1' }));
    const p = pool([live.url, other.url], { network: 'ETHEREUM' });
    const client = createPublicClient({ transport: http(p.urls[0], { fetchFn: p.fetch, retryCount: 0 }) });
    await expect(client.getChainId()).rejects.toThrow(/not found|does not exist/i);
    expect(other.seen).toHaveLength(0);
  });
});
