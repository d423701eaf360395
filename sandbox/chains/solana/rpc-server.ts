import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { SolanaLedger } from './ledger';
import type { TxRecord } from './ledger-records';
import { RpcError } from './rpc-error';
import type { RpcMethod } from './rpc-methods';
import { readBody } from '../read-body';

/**
 * JSON-RPC 2.0 over HTTP (single and batch requests) on `port`, and the PubSub websocket on
 * `port + 1` (where web3.js looks for it by default). stop() closes both listeners and every open
 * connection, so clients get ECONNREFUSED; listen() reopens them on the same ports.
 */

/** A failure to inject for a method: an HTTP status (e.g. 429, 503), a JSON-RPC error, or a delay. */
export type RpcFault =
  | { httpStatus: number; body?: string }
  | { rpcError: { code: number; message: string } }
  | { delayMs: number };

type JsonRpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
type SignatureSubscription = { socket: WebSocket; signature: string; finalizedOnly: boolean };
/** An account's subscriber, told whenever a transaction writing the account reaches its commitment. */
type AccountSubscription = { socket: WebSocket; account: string; finalizedOnly: boolean; config: object };

const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** Subscriptions that never notify here but that clients may open harmlessly. */
const SILENT_SUBSCRIPTIONS = new Set([
  'logsSubscribe',
  'programSubscribe',
  'rootSubscribe',
  'slotsUpdatesSubscribe',
]);

export class RpcServer {
  /** Requests per method (each batch entry and websocket call counts). */
  readonly calls: Record<string, number> = {};
  /** Told each request's method and params (for a fault on one transaction, say). */
  fault: ((method: string, params: unknown) => RpcFault | undefined) | null = null;
  /** While set, account notifications are dropped silently (as an overloaded validator may). */
  muteAccountNotifications = false;

  private readonly http: http.Server;
  private readonly wsHttp: http.Server;
  private readonly wss: WebSocketServer;
  private boundPort = 0;
  private listening = false;
  private nextSubscription = 1;
  private readonly signatureSubs = new Map<number, SignatureSubscription>();
  private readonly slotSubs = new Map<number, WebSocket>();
  private readonly accountSubs = new Map<number, AccountSubscription>();

  constructor(
    private readonly ledger: SolanaLedger,
    private readonly methods: Record<string, RpcMethod>,
    private readonly host: string,
  ) {
    this.http = http.createServer((req, res) => void this.onHttp(req, res));
    this.wsHttp = http.createServer((_req, res) => res.writeHead(426, { connection: 'close' }).end());
    this.wss = new WebSocketServer({ server: this.wsHttp });
    this.wss.on('connection', (socket) => this.onSocket(socket));
    // A taken port surfaces on the HTTP server's listen (and is retried there), not as an uncaught error here.
    this.wss.on('error', () => {});
    ledger.events.on('processed', (record) => {
      this.notifySignature(record);
      this.notifyAccounts(record, false);
    });
    ledger.events.on('finalized', (record) => {
      this.notifySignature(record);
      this.notifyAccounts(record, true);
    });
    ledger.events.on('slot', (slot) => this.notifySlot(slot));
  }

  get port(): number {
    return this.boundPort;
  }

  /** Listens on `port` and `port + 1`; port 0 picks a free pair (once chosen, restarts reuse it). */
  async listen(port: number): Promise<void> {
    if (this.listening) return;
    if (port !== 0) {
      await listenOn(this.http, port, this.host);
      try {
        await listenOn(this.wsHttp, port + 1, this.host);
      } catch (error) {
        await closeServer(this.http);
        throw error;
      }
    } else {
      for (let attempt = 0; ; attempt++) {
        await listenOn(this.http, 0, this.host);
        const chosen = (this.http.address() as AddressInfo).port;
        try {
          if (chosen >= 65535) throw new Error('no room for the websocket port');
          await listenOn(this.wsHttp, chosen + 1, this.host);
          port = chosen;
          break;
        } catch (error) {
          await closeServer(this.http);
          if (attempt >= 20) throw error;
        }
      }
    }
    this.boundPort = port;
    this.listening = true;
  }

  /** Closes both listeners and all connections (in-flight requests are cut). */
  async stop(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    this.dropWebSockets();
    await Promise.all([closeServer(this.http), closeServer(this.wsHttp)]);
    // Let in-process clients see their pooled keep-alive sockets close, so that their next request
    // opens a new connection and is refused (ECONNREFUSED) instead of failing on a dead socket.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** Cuts every websocket connection (their subscriptions end); the listener stays open. */
  dropWebSockets(): void {
    for (const socket of this.wss.clients) socket.terminate();
    this.signatureSubs.clear();
    this.slotSubs.clear();
    this.accountSubs.clear();
  }

  /** Open websocket connections. */
  get webSockets(): number {
    return this.wss.clients.size;
  }

  resetCalls(): void {
    for (const key of Object.keys(this.calls)) delete this.calls[key];
  }

  private count(method: string): void {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  // ---- HTTP -----------------------------------------------------------------------------------

  private async onHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    let body: string;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch {
      res.writeHead(413).end();
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      return sendJson(res, errorResponse(null, new RpcError(-32700, 'Parse error')));
    }
    const batch = Array.isArray(payload);
    const entries = (batch ? payload : [payload]) as JsonRpcRequest[];
    if (batch && entries.length === 0)
      return sendJson(res, errorResponse(null, new RpcError(-32600, 'Invalid request')));

    const methods = entries.map((entry) => (typeof entry?.method === 'string' ? entry.method : '(invalid)'));
    methods.forEach((method) => this.count(method));
    const injected = new Map<number, RpcError>();
    for (const [i, method] of methods.entries()) {
      const fault = this.fault?.(method, entries[i]?.params);
      if (!fault) continue;
      if ('delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      else if ('httpStatus' in fault) {
        res.writeHead(fault.httpStatus, { 'content-type': 'text/plain' }).end(fault.body ?? '');
        return;
      } else injected.set(i, new RpcError(fault.rpcError.code, fault.rpcError.message));
    }
    if (!this.listening) return; // stopped while delayed: the connection is gone
    const responses = entries.map((entry, i) => {
      const fault = injected.get(i);
      return fault ? errorResponse(entry?.id ?? null, fault) : this.dispatch(entry);
    });
    sendJson(res, batch ? responses : responses[0]);
  }

  private dispatch(entry: JsonRpcRequest): unknown {
    const id = entry?.id ?? null;
    if (!entry || typeof entry !== 'object' || entry.jsonrpc !== '2.0' || typeof entry.method !== 'string')
      return errorResponse(id, new RpcError(-32600, 'Invalid request'));
    const handler = Object.hasOwn(this.methods, entry.method) ? this.methods[entry.method] : undefined;
    if (!handler) return errorResponse(id, new RpcError(-32601, 'Method not found'));
    const params = entry.params === undefined || entry.params === null ? [] : entry.params;
    if (!Array.isArray(params))
      return errorResponse(id, RpcError.invalidParams('Invalid params: expected an array'));
    try {
      return { jsonrpc: '2.0', result: handler(params), id };
    } catch (error) {
      if (error instanceof RpcError) return errorResponse(id, error);
      return errorResponse(id, new RpcError(-32603, `Internal error: ${(error as Error).message}`));
    }
  }

  // ---- websocket ------------------------------------------------------------------------------

  private onSocket(socket: WebSocket): void {
    socket.on('message', (raw) => this.onWsMessage(socket, raw));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      for (const [id, sub] of this.signatureSubs) if (sub.socket === socket) this.signatureSubs.delete(id);
      for (const [id, sub] of this.slotSubs) if (sub === socket) this.slotSubs.delete(id);
      for (const [id, sub] of this.accountSubs) if (sub.socket === socket) this.accountSubs.delete(id);
    });
  }

  private onWsMessage(socket: WebSocket, raw: RawData): void {
    let request: JsonRpcRequest;
    try {
      request = JSON.parse(raw.toString()) as JsonRpcRequest;
    } catch {
      return send(socket, errorResponse(null, new RpcError(-32700, 'Parse error')));
    }
    // Notifications (no id), such as web3.js' keep-alive "ping", get no answer.
    if (request?.id === undefined || request.id === null) return;
    const { id } = request;
    const method = typeof request.method === 'string' ? request.method : '(invalid)';
    this.count(method);
    const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
    const reply = (result: unknown) => send(socket, { jsonrpc: '2.0', result, id });

    if (method === 'signatureSubscribe') {
      if (typeof params[0] !== 'string')
        return send(socket, errorResponse(id, RpcError.invalidParams('Invalid param: signature')));
      const cfg = (params[1] ?? {}) as { commitment?: unknown };
      const subscription = this.nextSubscription++;
      reply(subscription);
      const sub = {
        socket,
        signature: params[0],
        finalizedOnly: (cfg.commitment ?? 'finalized') === 'finalized',
      };
      this.signatureSubs.set(subscription, sub);
      const record = this.ledger.transaction(sub.signature);
      if (record) this.notifySignature(record);
    } else if (method === 'accountSubscribe') {
      if (typeof params[0] !== 'string')
        return send(socket, errorResponse(id, RpcError.invalidParams('Invalid param: account')));
      const cfg = (params[1] ?? {}) as { commitment?: unknown; encoding?: unknown };
      const subscription = this.nextSubscription++;
      this.accountSubs.set(subscription, {
        socket,
        account: params[0],
        finalizedOnly: (cfg.commitment ?? 'finalized') === 'finalized',
        config: { encoding: cfg.encoding ?? 'base58' },
      });
      reply(subscription);
    } else if (method === 'slotSubscribe') {
      const subscription = this.nextSubscription++;
      this.slotSubs.set(subscription, socket);
      reply(subscription);
    } else if (SILENT_SUBSCRIPTIONS.has(method)) {
      reply(this.nextSubscription++);
    } else if (method.endsWith('Unsubscribe')) {
      const subscription = Number(params[0]);
      const known =
        this.signatureSubs.delete(subscription) ||
        this.slotSubs.delete(subscription) ||
        this.accountSubs.delete(subscription);
      if (!known && method === 'accountUnsubscribe')
        return send(socket, errorResponse(id, RpcError.invalidParams('Invalid subscription id.')));
      reply(true);
    } else {
      send(socket, errorResponse(id, new RpcError(-32601, 'Method not found')));
    }
  }

  /** Signature subscriptions fire once, when the transaction reaches their commitment. */
  private notifySignature(record: TxRecord): void {
    for (const [subscription, sub] of this.signatureSubs) {
      if (sub.signature !== record.signature || (sub.finalizedOnly && !record.finalized)) continue;
      this.signatureSubs.delete(subscription);
      send(sub.socket, {
        jsonrpc: '2.0',
        method: 'signatureNotification',
        params: { result: { context: { slot: record.slot }, value: { err: record.err } }, subscription },
      });
    }
  }

  /**
   * Account subscriptions fire for each transaction that writes the account, once it reaches their
   * commitment (a failed one too: its fee payer's account changed), with the account as it is now.
   */
  private notifyAccounts(record: TxRecord, finalizedEvent: boolean): void {
    if (this.accountSubs.size === 0 || this.muteAccountNotifications) return;
    const written = new Set(record.loadedAddresses.writable);
    record.message.staticAccountKeys.forEach((key, i) => {
      if (record.message.isAccountWritable(i)) written.add(key.toBase58());
    });
    for (const [subscription, sub] of this.accountSubs) {
      if (!written.has(sub.account)) continue;
      // Processed: told now unless finalized-only (then at 'finalized', or now if already final).
      if (finalizedEvent ? !sub.finalizedOnly : sub.finalizedOnly && !record.finalized) continue;
      const getAccountInfo = this.methods.getAccountInfo;
      if (!getAccountInfo) continue;
      send(sub.socket, {
        jsonrpc: '2.0',
        method: 'accountNotification',
        params: { result: getAccountInfo([sub.account, sub.config]), subscription },
      });
    }
  }

  private notifySlot(slot: number): void {
    for (const [subscription, socket] of this.slotSubs)
      send(socket, {
        jsonrpc: '2.0',
        method: 'slotNotification',
        params: { result: { parent: slot - 1, root: slot, slot }, subscription },
      });
  }
}

function errorResponse(id: unknown, error: RpcError) {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  return { jsonrpc: '2.0', error: body, id };
}

function sendJson(res: http.ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res
    .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}

function send(socket: WebSocket, body: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(body));
}

function listenOn(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
