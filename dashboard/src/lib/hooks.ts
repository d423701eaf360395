import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { WebhookEventBody } from '../../../contract';
import { api, ApiFailure, failureOf, ok } from '../api';

export type Loaded<T> =
  | { state: 'loading'; data?: undefined; error?: undefined }
  | { state: 'ok'; data: T; error?: undefined }
  | { state: 'error'; data?: T; error: unknown };

/**
 * Loads data on mount and whenever `deps` change; `reload()` loads again, keeping what is shown
 * until the new answer comes (`quiet` reloads do not go back to "loading").
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const generation = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const run = useCallback((quiet: boolean) => {
    const mine = ++generation.current;
    if (!quiet) setResult({ state: 'loading' });
    return loadRef.current().then(
      (data) => {
        if (mine === generation.current) setResult({ state: 'ok', data });
      },
      (error: unknown) => {
        if (mine === generation.current)
          setResult((previous) => ({ state: 'error', error, data: quiet ? previous.data : undefined }));
      },
    );
  }, []);
  useEffect(() => {
    void run(false);
    const counter = generation;
    // An answer that comes after unmounting (or after deps changed) is dropped.
    return () => {
      counter.current++;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  const reload = useCallback((quiet = true) => run(quiet), [run]);
  return [result, reload, setResult] as const;
}

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
