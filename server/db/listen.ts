import pg from 'pg';

type Log = { warn(obj: object, msg: string): void };

export type Listener = { stop(): Promise<void> };

/**
 * LISTEN on a connection of its own, reconnecting after a loss. `onState(true)` once LISTEN is in
 * place, `onState(false)` when the connection is lost: notifications sent meanwhile are missed,
 * so whoever relies on them must not trust what they remembered in between.
 */
export function listen(opts: {
  url: string;
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

  const lost = (next: pg.Client) => {
    void next.end().catch(() => {});
    if (client === next) {
      client = null;
      opts.onState?.(false);
    }
    schedule();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: opts.url });
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
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, `${opts.what} cannot connect; retrying`);
      void next.end().catch(() => {});
      schedule();
    }
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
      const last = client;
      client = null;
      if (last) opts.onState?.(false);
      await last?.end().catch(() => {});
    },
  };
}
