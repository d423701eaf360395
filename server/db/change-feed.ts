import { randomUUID } from 'node:crypto';
import { listen, type ConnectionLimits, type Listener } from './listen';

/** Where committed changes to cached rows are announced (migration 0010's triggers). */
export const CHANGES_CHANNEL = 'stablepay_changes';
const SYNC_TOPIC = 'sync';

type Log = { warn(obj: object, msg: string): void };

export type ChangeFeed = {
  /** True while announcements arrive: only then may a cache keep anything. */
  readonly live: boolean;
  /**
   * True from the loss of its connection (closed, or silent past its heartbeat) until it is back:
   * the database stopped answering this instance (never true before it first connected).
   */
  readonly lost: boolean;
  /**
   * `onChange(id)` for every `topic:id` announced; `onReset()` when announcements may have been
   * missed (connection lost or regained): forget everything.
   */
  subscribe(topic: string, handlers: { onChange(id: string): void; onReset(): void }): void;
  /**
   * Resolves once every change committed before the call has reached this instance: PostgreSQL
   * delivers notifications in commit order, so a marker sent now arrives after them all.
   */
  sync(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * One LISTEN connection per instance for the announcements, opened at the first subscription
 * (a command-line tool that caches nothing never opens it).
 */
export function createChangeFeed(opts: {
  url: string;
  limits: ConnectionLimits;
  log: Log;
  notify: (payload: string) => Promise<unknown>;
  syncTimeoutMs?: number;
}): ChangeFeed {
  const subscribers = new Map<string, { onChange(id: string): void; onReset(): void }[]>();
  const markers = new Map<string, () => void>();
  let listener: Listener | null = null;
  let live = false;
  let wasLive = false;

  const resetAll = () => {
    for (const list of subscribers.values()) for (const s of list) s.onReset();
  };
  const onMessage = (payload: string) => {
    const colon = payload.indexOf(':');
    const topic = payload.slice(0, colon);
    const id = payload.slice(colon + 1);
    if (topic === SYNC_TOPIC) return markers.get(id)?.();
    for (const s of subscribers.get(topic) ?? []) s.onChange(id);
  };
  const start = () => {
    listener ??= listen({
      url: opts.url,
      limits: opts.limits,
      channel: CHANGES_CHANNEL,
      onMessage,
      onState: (now) => {
        live = now;
        wasLive ||= now;
        resetAll();
      },
      log: opts.log,
      what: 'change feed',
    });
  };

  return {
    get live() {
      return live;
    },
    get lost() {
      return wasLive && !live;
    },
    subscribe(topic, handlers) {
      subscribers.set(topic, [...(subscribers.get(topic) ?? []), handlers]);
      start();
    },
    async sync() {
      if (!live) return;
      const id = randomUUID();
      const arrived = new Promise<boolean>((resolve) => {
        markers.set(id, () => resolve(true));
        setTimeout(() => resolve(false), opts.syncTimeoutMs ?? 2000).unref();
      });
      try {
        await opts.notify(`${SYNC_TOPIC}:${id}`);
        // A marker that does not come back means announcements are not coming through.
        if (!(await arrived)) resetAll();
      } finally {
        markers.delete(id);
      }
    },
    async stop() {
      await listener?.stop();
      listener = null;
    },
  };
}
