import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from './change-feed';

export type RowCache<V extends object> = {
  /** The row, from memory when the change feed vouches for it, else (or when `fresh`) from the database. */
  get(key: string, opts?: { fresh?: boolean }): Promise<V | null>;
  /** Drops the row here at once (after this instance changed it; other instances hear it announced). */
  forget(key: string): void;
};

/**
 * Rows read on nearly every request and rarely changed, kept in memory only while the change
 * feed is live. A read that overlaps a change or a reset is returned but not kept: it may have
 * seen the row from before the change. `ttlMs` bounds how long a row is trusted regardless.
 */
export function createRowCache<V extends object>(opts: {
  feed: ChangeFeed;
  topic: string;
  load: (key: string) => Promise<V | null>;
  ttlMs: number;
  max: number;
}): RowCache<V> {
  const rows = new LRUCache<string, V>({ max: opts.max, ttl: opts.ttlMs });
  let changes = 0;
  const forget = (key: string) => {
    changes++;
    rows.delete(key);
  };
  opts.feed.subscribe(opts.topic, {
    onChange: forget,
    onReset: () => {
      changes++;
      rows.clear();
    },
  });
  return {
    async get(key, { fresh = false } = {}) {
      if (opts.feed.live && !fresh) {
        const hit = rows.get(key);
        if (hit) return hit;
      }
      const before = changes;
      const row = await opts.load(key);
      if (row && opts.feed.live && changes === before) rows.set(key, row);
      return row;
    },
    forget,
  };
}
