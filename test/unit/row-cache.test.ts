import { describe, expect, it } from 'vitest';
import type { ChangeFeed } from '../../server/db/change-feed';
import { createRowCache } from '../../server/db/row-cache';

/** A change feed driven by the test: what the cache is told, and when. */
function feedUnderTest() {
  const handlers: { onChange(id: string): void; onReset(): void }[] = [];
  const feed: ChangeFeed & { announce(id: string): void; setLive(live: boolean): void } = {
    live: true,
    lost: false,
    subscribe: (_topic, h) => void handlers.push(h),
    sync: async () => {},
    stop: async () => {},
    announce: (id) => handlers.forEach((h) => h.onChange(id)),
    setLive(live) {
      (feed as { live: boolean }).live = live;
      handlers.forEach((h) => h.onReset());
    },
  };
  return feed;
}

/** A "table" whose reads are counted, and can be held open to overlap them with a change. */
function tableUnderTest() {
  const rows = new Map<string, { v: number }>([['a', { v: 1 }]]);
  let reads = 0;
  let hold: Promise<void> | null = null;
  return {
    rows,
    get reads() {
      return reads;
    },
    holdReads() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
    async load(key: string) {
      reads++;
      const value = rows.get(key) ?? null; // read now, returned later: a read in flight
      if (hold) await hold;
      return value;
    },
  };
}

describe('row cache', () => {
  const make = (ttlMs = 60_000) => {
    const feed = feedUnderTest();
    const table = tableUnderTest();
    const cache = createRowCache({ feed, topic: 't', load: (k) => table.load(k), ttlMs, max: 100 });
    return { feed, table, cache };
  };

  it('answers from memory while the feed is live, and reads again once a change is announced', async () => {
    const { feed, table, cache } = make();
    expect(await cache.get('a')).toEqual({ v: 1 });
    expect(await cache.get('a')).toEqual({ v: 1 });
    expect(table.reads).toBe(1);
    table.rows.set('a', { v: 2 });
    feed.announce('a');
    expect(await cache.get('a')).toEqual({ v: 2 });
    expect(table.reads).toBe(2);
  });

  it('keeps nothing while the feed is down, and forgets everything when it goes down or comes back', async () => {
    const { feed, table, cache } = make();
    await cache.get('a');
    feed.setLive(false);
    table.rows.set('a', { v: 3 });
    expect(await cache.get('a')).toEqual({ v: 3 });
    expect(await cache.get('a')).toEqual({ v: 3 });
    expect(table.reads).toBe(3);
    feed.setLive(true);
    await cache.get('a');
    await cache.get('a');
    expect(table.reads).toBe(4);
  });

  it('does not keep a read that overlapped a change: it may hold the row from before it', async () => {
    const { feed, table, cache } = make();
    const release = table.holdReads();
    const inFlight = cache.get('a'); // reads v1 ...
    table.rows.set('a', { v: 2 });
    feed.announce('a'); // ... the change commits and is announced before that read returns
    release();
    expect(await inFlight).toEqual({ v: 1 });
    expect(await cache.get('a')).toEqual({ v: 2 });
  });

  it('forget drops a row at once; fresh reads past memory; a missing row is never kept', async () => {
    const { table, cache } = make();
    await cache.get('a');
    table.rows.set('a', { v: 5 });
    cache.forget('a');
    expect(await cache.get('a')).toEqual({ v: 5 });
    table.rows.set('a', { v: 6 });
    expect(await cache.get('a', { fresh: true })).toEqual({ v: 6 });
    expect(await cache.get('a')).toEqual({ v: 6 });
    expect(await cache.get('nobody')).toBeNull();
    table.rows.set('nobody', { v: 7 });
    expect(await cache.get('nobody')).toEqual({ v: 7 });
  });

  it('trusts a row for ttlMs at most, announcements or not', async () => {
    const { table, cache } = make(30);
    await cache.get('a');
    table.rows.set('a', { v: 8 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await cache.get('a')).toEqual({ v: 8 });
  });
});
