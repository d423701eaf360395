import http from 'node:http';
import { listen } from '../listen';
import { readBody } from '../read-body';

/**
 * The endpoint the service sees: an HTTP proxy in front of a Hardhat node that counts JSON-RPC
 * calls by method (each entry of a batch counts) and can stop listening and listen again on the
 * same port, so "RPC down" is a refused connection while the chain behind it keeps its state.
 * HTTP only: Hardhat's websocket is not proxied.
 */

const MAX_BODY_BYTES = 50 * 1024 * 1024;

export class RpcProxy {
  /** Calls per method since start or the last resetCalls(). */
  readonly calls: Record<string, number> = {};

  private readonly server: http.Server;
  private boundPort = 0;
  private listening = false;
  /** Silent: requests are read and never answered (a provider that hangs), until speak(). */
  private silent = false;
  private readonly held = new Set<http.ServerResponse>();
  /** Most logs an eth_getLogs answer may hold, as providers cap them; null: any number. */
  private maxLogs: number | null = null;

  constructor(
    private readonly upstream: string,
    private readonly host = '127.0.0.1',
  ) {
    this.server = http.createServer((req, res) => void this.forward(req, res));
  }

  get port(): number {
    return this.boundPort;
  }

  /** Listens on `port` (0: a free one, kept for later restarts). */
  async listen(port = this.boundPort): Promise<void> {
    if (this.listening) return;
    this.boundPort = await listen(this.server, port, this.host);
    this.listening = true;
  }

  /** Closes the listener and every open connection (in-flight requests are cut). */
  async stop(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    // Let in-process clients see their pooled keep-alive sockets close, so that their next request
    // opens a new connection and is refused (ECONNREFUSED) instead of failing on a dead socket.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Keeps accepting requests but answers none: each caller waits out its own timeout. */
  hang(): void {
    this.silent = true;
  }

  /** Answers again; the requests held while silent are cut. */
  speak(): void {
    this.silent = false;
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  /**
   * Refuses eth_getLogs queries with more than `max` results, as providers do (a JSON-RPC error,
   * -32005 "query returned more than … results"); null lifts the cap.
   */
  limitLogs(max: number | null): void {
    this.maxLogs = max;
  }

  /** A JSON-RPC error instead of `text` when it answers an eth_getLogs query beyond the cap. */
  private capped(body: string, text: string): string {
    if (this.maxLogs === null) return text;
    try {
      const request = JSON.parse(body) as { id?: unknown; method?: unknown };
      const answer = JSON.parse(text) as { result?: unknown };
      if (request.method !== 'eth_getLogs' || !Array.isArray(answer.result)) return text;
      if (answer.result.length <= this.maxLogs) return text;
      return JSON.stringify({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: -32005, message: `query returned more than ${this.maxLogs} results` },
      });
    } catch {
      return text; // a batch or not JSON: passed on as it is
    }
  }

  resetCalls(): void {
    for (const key of Object.keys(this.calls)) delete this.calls[key];
  }

  private count(body: string): void {
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      payload = null;
    }
    for (const entry of Array.isArray(payload) ? payload : [payload]) {
      const method = (entry as { method?: unknown } | null)?.method;
      const key = typeof method === 'string' ? method : '(invalid)';
      this.calls[key] = (this.calls[key] ?? 0) + 1;
    }
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const body = await readBody(req, MAX_BODY_BYTES);
      if (req.method === 'POST') this.count(body);
      if (this.silent) {
        this.held.add(res);
        res.on('close', () => this.held.delete(res));
        return;
      }
      const upstream = await fetch(this.upstream, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        body: req.method === 'POST' ? body : undefined,
      });
      const text = this.capped(body, await upstream.text());
      if (res.destroyed) return; // stopped meanwhile: the connection is gone
      res
        .writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
          'content-length': Buffer.byteLength(text),
        })
        .end(text);
    } catch (error) {
      if (!res.destroyed && !res.headersSent)
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${(error as Error).message}`);
    }
  }
}
