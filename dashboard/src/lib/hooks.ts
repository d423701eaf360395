import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { WebhookEventBody } from '../../../contract';
import { api, ApiFailure, failureOf, ok } from '../api';
import { applyEvents } from './event-refresh';

function subscribeOnline(notify: () => void) {
  window.addEventListener('online', notify);
  window.addEventListener('offline', notify);
  return () => {
    window.removeEventListener('online', notify);
    window.removeEventListener('offline', notify);
  };
}

/** Whether the browser says it is online (the online/offline events). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}

export type LiveState = { state: 'starting' | 'live' | 'paused'; error?: unknown };

/**
 * Live updates: polls GET /events?ending_before=<the newest event seen> every `intervalMs` and hands
 * the new events (oldest first) to `onEvents`. With `order`, only that order's events. When the
 * event it holds is gone (kept EVENT_RETENTION_DAYS), it starts again from the newest and says so
 * with `onEvents([], true)`: reload everything.
 */
export function useEvents(
  onEvents: (events: WebhookEventBody[], resync?: boolean) => void,
  opts: { order?: string; intervalMs?: number; enabled?: boolean } = {},
): LiveState {
  const { order, intervalMs = 3000, enabled = true } = opts;
  const [live, setLive] = useState<LiveState>({ state: 'starting' });
  const handler = useRef(onEvents);
  handler.current = onEvents;
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let newest: string | null | undefined; // undefined: not known yet; null: no event yet
    const PER_PAGE = 50;

    const latest = async () => {
      const page = ok(await api.events.list({ query: { per_page: 1, ...(order ? { order } : {}) } }), 200);
      return page.items[0]?.id ?? null;
    };

    const poll = async () => {
      if (newest === undefined) {
        newest = await latest();
        return;
      }
      // Pages of events after the newest seen, until a page is not full.
      for (let round = 0; round < 20 && !stopped; round++) {
        const answer = await api.events.list({
          query: {
            per_page: PER_PAGE,
            ...(order ? { order } : {}),
            ...(newest ? { ending_before: newest } : {}),
          },
        });
        if (answer.status === 400 && newest) {
          // The event we held was deleted: start again from the newest, and reload the page.
          newest = await latest();
          handler.current([], true);
          return;
        }
        const page = ok(answer, 200);
        if (page.items.length === 0) return;
        newest = page.items[0]!.id;
        handler.current([...page.items].reverse());
        if (page.items.length < PER_PAGE) return;
      }
    };

    const tick = async () => {
      try {
        await poll();
        if (!stopped) setLive({ state: 'live' });
      } catch (error) {
        if (!stopped) setLive({ state: 'paused', error });
      }
      if (!stopped) timer = setTimeout(() => void tick(), document.hidden ? intervalMs * 3 : intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [order, intervalMs, enabled]);
  return live;
}

type LiveOptions = Parameters<typeof useEvents>[1];

/**
 * The merchant's live events (one order's, with `order`) applied to the query cache: each refreshes
 * what its type changes (event-refresh.ts); when the events were lost, everything is read again.
 * `onEvents` hears them too, for what a page says of them.
 */
export function useLive(
  opts: LiveOptions = {},
  onEvents?: (events: WebhookEventBody[], resync?: boolean) => void,
): LiveState {
  const client = useQueryClient();
  return useEvents((events, resync) => {
    if (resync) void client.invalidateQueries();
    else applyEvents(client, events);
    onEvents?.(events, resync);
  }, opts);
}

/** The pixel width of an element, kept up to date (for charts drawn at their real size). */
export function useWidth<E extends HTMLElement>(fallback = 600) {
  const ref = useRef<E | null>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** The tab's title: "<page> · stablepay". */
export function useTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · stablepay`;
  }, [title]);
}

export { ApiFailure, failureOf };
