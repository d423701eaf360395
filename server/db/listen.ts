import pg from 'pg';
import { settlesWithin } from '../lib/settles-within';

type Log = { warn(obj: object, msg: string): void };

export type Listener = { stop(): Promise<void> };

/** The bounds every connection of the service opens with (server/db/database.ts connectionLimits). */
export type ConnectionLimits = {
  connectionTimeoutMillis: number;
  statement_timeout: number;
  query_timeout: number;
  idle_in_transaction_session_timeout: number;
  keepAlive: boolean;
};

/** How often a listening connection proves it still reaches the server. */
const HEARTBEAT_MS = 1000;

/**
 * LISTEN on a connection of its own, reconnecting after a loss. `onState(true)` once LISTEN is in
 * place, `onState(false)` when the connection is lost: notifications sent meanwhile are missed,
 * so whoever relies on them must not trust what they remembered in between. A connection that
 * stops answering without closing (a partition drops packets, no reset) is noticed by a heartbeat
 * that must come back within the connect timeout: it counts as lost.
 */
export function listen(opts: {
  url: string;
  limits: ConnectionLimits;
  channel: string;
  onMessage: (payload: string) => void;
  onState?: (live: boolean) => void;
  log: Log;
  what: string;
  retryMs?: number;
}): Listener {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const lost = (next: pg.Client) => {
    void next.end().catch(() => {});
    if (client === next) {
      client = null;
      opts.onState?.(false);
    }
    schedule();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: opts.url, ...opts.limits });
    next.on('notification', (message) => opts.onMessage(message.payload ?? ''));
    next.on('error', (err) => {
      opts.log.warn({ err: err.message }, `${opts.what} lost its connection`);
      lost(next);
    });
    next.on('end', () => {
      if (client === next && !stopped) lost(next);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${opts.channel}`);
      if (stopped) return void next.end().catch(() => {});
      client = next;
      opts.onState?.(true);
      beat(next);
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, `${opts.what} cannot connect; retrying`);
      void next.end().catch(() => {});
      schedule();
    }
  };
  const beat = (current: pg.Client) => {
    clearInterval(heartbeat);
    heartbeat = setInterval(() => {
      if (client !== current) return clearInterval(heartbeat);
      // LISTEN again (a no-op for a channel already listened to): the session still shows what it does.
      void settlesWithin(current.query(`LISTEN ${opts.channel}`), opts.limits.connectionTimeoutMillis).then(
        (answered) => {
          if (answered || client !== current) return;
          opts.log.warn({}, `${opts.what} stopped answering`);
          lost(current);
        },
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
  };
  const schedule = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, opts.retryMs ?? 2000);
    retry.unref();
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      const last = client;
      client = null;
      if (last) opts.onState?.(false);
      await last?.end().catch(() => {});
    },
  };
}
