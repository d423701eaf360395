import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxiedRequest = {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
};

/**
 * What the proxy does with the n-th request (0-based): answer by itself, drop the connection, pass
 * it on, or pass it on and then answer something else (a response lost on the way back).
 */
export type ProxyAction =
  | { kind: 'forward' }
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'drop' }
  | { kind: 'forward-then-answer'; status: number; body?: string };

export type ProxyPlan = (n: number, req: ProxiedRequest) => ProxyAction;
export const forwardEverything: ProxyPlan = () => ({ kind: 'forward' });

/**
 * A tiny HTTP proxy in front of the real server whose answers a test scripts, counting every
 * request it sees: the SDK's retries are tested against real sockets, not a mocked fetch.
 */
export async function startScriptedProxy(target: string, plan: ProxyPlan = forwardEverything) {
  const requests: ProxiedRequest[] = [];
  let script = plan;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const entry: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const action = script(requests.length, entry);
      requests.push(entry);
      if (action.kind === 'drop') return void req.socket.destroy();
      if (action.kind === 'answer') {
        res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers });
        return void res.end(action.body ?? '');
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const upstream = await fetch(`${target}${entry.url}`, {
        method: entry.method,
        headers,
        body: entry.method === 'GET' || entry.method === 'HEAD' ? undefined : entry.body,
      });
      const text = await upstream.text();
      if (action.kind === 'forward-then-answer') {
        res.writeHead(action.status, { 'content-type': 'application/json' });
        return void res.end(action.body ?? '');
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))
          out[k] = v;
      });
      res.writeHead(upstream.status, out);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setPlan(next: typeof plan) {
      script = next;
      requests.length = 0;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type ScriptedProxy = Awaited<ReturnType<typeof startScriptedProxy>>;

/** A scripted proxy for the length of `use`: stopped after it, whether it passed or threw. */
export async function withScriptedProxy<T>(
  target: string,
  plan: ProxyPlan,
  use: (proxy: ScriptedProxy) => Promise<T>,
): Promise<T> {
  const proxy = await startScriptedProxy(target, plan);
  try {
    return await use(proxy);
  } finally {
    await proxy.stop();
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export { until } from '../support/until';
