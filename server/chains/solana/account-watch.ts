import WebSocket from 'ws';
import type { ChainWatch } from '../chain-adapter';

export type AccountWatchOptions = {
  /** PubSub endpoints, tried in turn after a failure. */
  urls: string[];
  commitment: 'confirmed' | 'finalized';
  onActivity: () => void;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** First wait before reconnecting; doubles per failure up to 30 s. */
  reconnectMs?: number;
  /** A connection that answered no ping for this long is dropped (and reopened). */
  pingMs?: number;
  /** Waits for a slot of the network's RPC budget (each (un)subscribe counts as a call). */
  pace?: () => Promise<void>;
};

const MAX_RECONNECT_MS = 30_000;

/**
 * Solana account notifications for the watched token accounts, over one websocket
 * (`accountSubscribe` per account). A notification names the account to read; the scanner reads
 * nothing else but its backstop. Until every followed account is subscribed, and once after each
 * (re)connection, `drain()` asks for every account to be read: what landed while no subscription
 * was live is found from the cursors, so a dropped connection loses nothing. An account the
 * endpoint refuses to subscribe is reported on every drain (it is polled).
 */
export function openSolanaAccountWatch(opts: AccountWatchOptions): ChainWatch {
  const reconnectMs = opts.reconnectMs ?? 1000;
  const pingMs = opts.pingMs ?? 30_000;
  const followed = new Set<string>();
  /** Subscription id by account, once confirmed. */
  const subscribed = new Map<string, number>();
  const accountOf = new Map<number, string>();
  /** Request id -> account, for subscriptions asked and not answered yet. */
  const asked = new Map<number, string>();
  const refused = new Set<string>();
  let active = new Set<string>();
  let socket: WebSocket | null = null;
  /** Every account followed at connection time subscribed: notifications cover them. */
  let live = false;
  let sweepDue = false;
  let closed = false;
  let nextId = 1;
  let failures = 0;
  let urlIndex = 0;
  let reconnectTimer: NodeJS.Timeout | null = null;
  let pingTimer: NodeJS.Timeout | null = null;

  const send = (body: object) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(body));
  };
  /** Requests waiting for a slot of the budget, sent in turn by one pump per connection. */
  let outbox: { account: string; body: (id: number) => object; asks: boolean }[] = [];
  let pumping = false;
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      const ws = socket;
      while (outbox.length > 0 && socket === ws && ws?.readyState === WebSocket.OPEN) {
        await (opts.pace?.() ?? Promise.resolve());
        const request = outbox.shift();
        if (!request || socket !== ws) break;
        // Dropped while it waited for its slot: not asked.
        if (request.asks && !followed.has(request.account)) continue;
        const id = nextId++;
        if (request.asks) asked.set(id, request.account);
        send(request.body(id));
      }
    } finally {
      pumping = false;
    }
    checkLive();
  };
  /** Asks when connected; otherwise the connection asks for every followed account on open. */
  const subscribe = (account: string) => {
    if (socket?.readyState !== WebSocket.OPEN) return;
    outbox.push({
      account,
      asks: true,
      body: (id) => ({
        jsonrpc: '2.0',
        id,
        method: 'accountSubscribe',
        params: [account, { commitment: opts.commitment, encoding: 'base64' }],
      }),
    });
    void pump();
  };
  /** Ends a subscription, in turn with the rest (it counts against the budget too). */
  const sendUnsubscribe = (account: string, subscription: number) => {
    outbox.push({
      account,
      asks: false,
      body: (id) => ({ jsonrpc: '2.0', id, method: 'accountUnsubscribe', params: [subscription] }),
    });
    void pump();
  };
  const unsubscribe = (account: string) => {
    const subscription = subscribed.get(account);
    if (subscription === undefined) return;
    subscribed.delete(account);
    accountOf.delete(subscription);
    sendUnsubscribe(account, subscription);
  };
  /** Live once nothing followed at connection time waits for its subscription. */
  const checkLive = () => {
    if (live || asked.size > 0 || outbox.some((r) => r.asks) || socket?.readyState !== WebSocket.OPEN) return;
    live = true;
    sweepDue = true;
    failures = 0;
    opts.onActivity();
  };

  function onMessage(raw: WebSocket.RawData) {
    let message: {
      id?: number;
      result?: unknown;
      error?: { message?: string };
      method?: string;
      params?: { subscription?: number };
    };
    try {
      message = JSON.parse(raw.toString()) as typeof message;
    } catch {
      return;
    }
    if (message.method === 'accountNotification') {
      const account = accountOf.get(Number(message.params?.subscription));
      if (account === undefined) return;
      active.add(account);
      opts.onActivity();
      return;
    }
    const account = typeof message.id === 'number' ? asked.get(message.id) : undefined;
    if (account === undefined) return;
    asked.delete(message.id!);
    if (typeof message.result === 'number' && !message.error) {
      if (!followed.has(account)) {
        // Dropped while the answer was on its way.
        sendUnsubscribe(account, message.result);
      } else {
        subscribed.set(account, message.result);
        accountOf.set(message.result, account);
        refused.delete(account);
        // What landed between its first read and now is read once more.
        if (live) {
          active.add(account);
          opts.onActivity();
        }
      }
    } else if (followed.has(account)) {
      refused.add(account);
      opts.log.warn(
        { network: 'SOLANA', account, err: message.error?.message },
        'account subscription refused: polled',
      );
    }
    checkLive();
  }

  function connect() {
    reconnectTimer = null;
    if (closed) return;
    const url = opts.urls[urlIndex % opts.urls.length]!;
    const ws = new WebSocket(url, { handshakeTimeout: 10_000 });
    socket = ws;
    let alive = true;
    ws.on('open', () => {
      opts.log.info(
        { network: 'SOLANA', url: redact(url), accounts: followed.size },
        'account notifications connected',
      );
      for (const account of followed) subscribe(account);
      checkLive();
      pingTimer = setInterval(() => {
        if (!alive) return void ws.terminate();
        alive = false;
        ws.ping();
      }, pingMs);
      pingTimer.unref();
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('message', onMessage);
    ws.on('error', () => {}); // followed by 'close'
    ws.on('close', () => {
      if (socket !== ws) return;
      const wasLive = live;
      socket = null;
      live = false;
      subscribed.clear();
      accountOf.clear();
      asked.clear();
      outbox = [];
      if (pingTimer) clearInterval(pingTimer);
      pingTimer = null;
      if (closed) return;
      failures++;
      urlIndex++;
      const wait = Math.min(MAX_RECONNECT_MS, reconnectMs * 2 ** Math.min(failures - 1, 5));
      // Once per outage, not per failed attempt.
      if (wasLive || failures === 1)
        opts.log.warn(
          { network: 'SOLANA', url: redact(url), retryInMs: wait },
          'account notifications disconnected: watched accounts are polled until they are back',
        );
      reconnectTimer = setTimeout(connect, wait);
      reconnectTimer.unref();
    });
  }

  return {
    get connected() {
      return live;
    },
    follow(keys) {
      const wanted = new Set(keys);
      for (const account of followed)
        if (!wanted.has(account)) {
          followed.delete(account);
          refused.delete(account);
          unsubscribe(account);
        }
      for (const account of wanted)
        if (!followed.has(account)) {
          followed.add(account);
          subscribe(account);
        }
      if (!socket && !reconnectTimer && !closed) connect();
    },
    drain() {
      const keys = new Set([...active, ...refused]);
      active = new Set();
      if (!live) return { keys, all: true };
      const all = sweepDue;
      sweepDue = false;
      return { keys, all };
    },
    remind(keys) {
      for (const key of keys) if (followed.has(key)) active.add(key);
    },
    close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (pingTimer) clearInterval(pingTimer);
      socket?.terminate();
      socket = null;
    },
  };
}

/** An endpoint for the log: providers put API keys in paths and queries. */
function redact(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}
