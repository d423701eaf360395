import http from 'node:http';
import { listen } from '../listen';
import { readBody } from '../read-body';
import type { TronContext } from './tron-context';
import { answerHttpApi } from './tron-http-api';
import { TronJsonRpc } from './tron-jsonrpc';

/**
 * The TRON node the service sees: one node:http server answering TRON's JSON-RPC at `/jsonrpc` and
 * its HTTP API at `/wallet/*` and `/walletsolidity/*` (GET with query parameters or POST with a JSON
 * body, as tronweb sends them). It answers one request at a time, so that a broadcast's TRON id is
 * registered before anyone reads the block it landed in. For tests it counts calls (per JSON-RPC
 * method, per HTTP path) and injects the faults TronGrid shows: HTTP 429, 403, and 200 with
 * {"Error": "…lack of computing resources"}.
 */

export type TronFaultKind = '429' | '403' | 'busy';
/** Which requests a fault hits: the JSON-RPC, the HTTP API, or both. */
export type TronFaultScope = 'jsonrpc' | 'http' | 'all';
export type TronFault = { kind: TronFaultKind; scope?: TronFaultScope; requests?: number; ms?: number };

/** Requests with this header are the local chain's own helpers': neither counted nor faulted. */
export const HELPER_HEADER = 'x-stablepay-local-helper';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** TronGrid's words when a key's or an IP's quota is spent (answered with HTTP 200). */
export const LACK_OF_RESOURCES = 'lack of computing resources, please try again later';

export class TronGateway {
  /** Requests per JSON-RPC method (each batch entry) and per HTTP path (`wallet/getnowblock`). */
  readonly calls: Record<string, number> = {};
  /** The TRON-PRO-API-KEY header values seen. */
  readonly apiKeys = new Set<string>();
  private readonly server: http.Server;
  private readonly jsonRpc: TronJsonRpc;
  private queue: Promise<unknown> = Promise.resolve();
  private fault: (TronFault & { until: number; left: number }) | null = null;

  constructor(
    private readonly ctx: TronContext,
    private readonly host = '127.0.0.1',
  ) {
    this.jsonRpc = new TronJsonRpc(ctx);
    this.server = http.createServer((req, res) => void this.serve(req, res));
  }

  port = 0;

  async listen(port = 0): Promise<void> {
    this.port = await listen(this.server, port, this.host);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** Answers the fault to the next `requests` requests in scope (default all of them), or for `ms`. */
  injectFault(fault: TronFault): void {
    this.fault = {
      ...fault,
      until: fault.ms === undefined ? Infinity : Date.now() + fault.ms,
      left: fault.requests ?? Infinity,
    };
  }

  clearFault(): void {
    this.fault = null;
  }

  resetCalls(): void {
    for (const key of Object.keys(this.calls)) delete this.calls[key];
  }

  private count(key: string): void {
    this.calls[key] = (this.calls[key] ?? 0) + 1;
  }

  /** The fault to answer this request with, if one is on and covers it (each use counted down). */
  private faultFor(scope: 'jsonrpc' | 'http'): TronFaultKind | null {
    const f = this.fault;
    if (!f) return null;
    if (f.left <= 0 || Date.now() >= f.until) {
      this.fault = null;
      return null;
    }
    if ((f.scope ?? 'all') !== 'all' && f.scope !== scope) return null;
    f.left -= 1;
    return f.kind;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      if (res.destroyed) return;
      const text = JSON.stringify(body);
      res
        .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
        .end(text);
    };
    try {
      const url = new URL(req.url ?? '/', 'http://gateway');
      const raw = await readBody(req, MAX_BODY_BYTES);
      const key = req.headers['tron-pro-api-key'];
      if (typeof key === 'string') this.apiKeys.add(key);
      let payload: unknown = {};
      try {
        payload = raw ? JSON.parse(raw) : {};
      } catch {
        payload = null;
      }
      const scope = url.pathname === '/jsonrpc' ? 'jsonrpc' : 'http';
      const helper = req.headers[HELPER_HEADER] !== undefined;
      if (!helper && scope === 'jsonrpc')
        for (const e of Array.isArray(payload) ? payload : [payload])
          this.count(
            typeof (e as { method?: unknown })?.method === 'string'
              ? (e as { method: string }).method
              : '(invalid)',
          );
      else if (!helper) this.count(url.pathname.slice(1));
      const fault = helper ? null : this.faultFor(scope);
      if (fault === '429') return send(429, { Error: 'Too Many Requests' });
      if (fault === '403') return send(403, { Error: 'Forbidden: the key or IP exceeded its limit' });
      if (fault === 'busy') return send(200, { Error: LACK_OF_RESOURCES });
      const answer = await this.serial(() => this.answer(url, payload));
      if (answer === null) return send(404, { Error: `no such endpoint: ${url.pathname}` });
      send(200, answer);
    } catch (error) {
      send(200, { Error: `class java.lang.Exception : ${(error as Error).message}` });
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  private async answer(url: URL, payload: unknown): Promise<unknown> {
    if (url.pathname === '/jsonrpc') {
      if (payload === null)
        return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'JSON parse error' } };
      if (!Array.isArray(payload)) return this.jsonRpc.answer(payload as object);
      const answers = [];
      for (const entry of payload) answers.push(await this.jsonRpc.answer(entry as object));
      return answers;
    }
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      return { Error: 'class com.alibaba.fastjson.JSONException : invalid JSON body' };
    const body = { ...Object.fromEntries(url.searchParams), ...(payload as Record<string, unknown>) };
    return answerHttpApi(this.ctx, url.pathname, body);
  }
}
