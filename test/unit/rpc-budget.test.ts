import { describe, expect, it } from 'vitest';
import { createRateBudget, createRpcEndpointPool } from '../../server/chains/rpc-endpoints';

/** A clock the test moves: sleeps resolve in the order of their wake-up times as it advances. */
function fakeClock() {
  let t = 1_000_000;
  const sleepers: { until: number; resolve: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        sleepers.push({ until: t + ms, resolve });
      }),
    /** Moves time forward by `ms` and wakes every sleeper due by then. */
    async advance(ms: number) {
      t += ms;
      sleepers.sort((a, b) => a.until - b.until);
      while (sleepers[0] && sleepers[0].until <= t) sleepers.shift()!.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('the RPC budget (a token bucket)', () => {
  it('lets calls through at the rate, one slot after another, delaying and never dropping the rest', async () => {
    const clock = fakeClock();
    const budget = createRateBudget({ ratePerSecond: 4, now: clock.now, sleep: clock.sleep });
    const started: number[] = [];
    const calls = Array.from({ length: 10 }, (_, i) => budget.take().then(() => started.push(i)));
    await clock.advance(0);
    expect(started).toEqual([0]); // the first goes at once
    for (let ms = 0; ms < 2500; ms += 50) await clock.advance(50);
    await Promise.all(calls);
    // First come, first served: nobody overtakes (no caller starves).
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('never starts more than rate × T + 1 calls in any window of T seconds', async () => {
    const clock = fakeClock();
    const budget = createRateBudget({ ratePerSecond: 5, now: clock.now, sleep: clock.sleep });
    const startedAt: number[] = [];
    const calls = Array.from({ length: 30 }, () => budget.take().then(() => startedAt.push(clock.now())));
    await clock.advance(0);
    for (let ms = 0; ms <= 7000; ms += 10) await clock.advance(10);
    await Promise.all(calls);
    expect(startedAt).toHaveLength(30);
    for (let i = 0; i < startedAt.length; i++)
      for (let j = i; j < startedAt.length; j++) {
        const seconds = (startedAt[j]! - startedAt[i]!) / 1000;
        expect(j - i + 1).toBeLessThanOrEqual(5 * seconds + 1);
      }
  });

  it('after an idle time, a call goes at once (no debt), and a batch of n takes n slots', async () => {
    const clock = fakeClock();
    const budget = createRateBudget({ ratePerSecond: 10, now: clock.now, sleep: clock.sleep });
    await budget.take(3); // 300 ms of the budget
    let next = false;
    const waiting = budget.take().then(() => (next = true));
    await clock.advance(250);
    expect(next).toBe(false);
    await clock.advance(60);
    await waiting;
    expect(next).toBe(true);
    await clock.advance(10_000);
    const before = clock.now();
    await budget.take();
    expect(clock.now()).toBe(before);
  });

  it('a waiting caller that gives up is rejected with its reason', async () => {
    const budget = createRateBudget({ ratePerSecond: 1 });
    await budget.take();
    const controller = new AbortController();
    const waiting = budget.take(1, controller.signal);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
  });

  it('refuses a rate that is not above 0', () => {
    expect(() => createRateBudget({ ratePerSecond: 0 })).toThrow();
  });
});

describe('an endpoint pool with a budget', () => {
  it('spaces its requests (each batch entry counting) and answers every one', async () => {
    const clock = fakeClock();
    const seen: number[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async () => {
      seen.push(clock.now());
      return new Response('{"jsonrpc":"2.0","id":1,"result":"0x1"}', { status: 200 });
    }) as typeof fetch;
    try {
      const pool = createRpcEndpointPool({
        network: 'POLYGON',
        urls: ['http://rpc.example'],
        timeoutMs: 1000,
        retryFailedAfterMs: 1000,
        maxRps: 2,
        now: clock.now,
        sleep: clock.sleep,
      });
      const one = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' });
      const batch = JSON.stringify([JSON.parse(one), JSON.parse(one)]);
      const replies = [
        pool.fetch('http://x', { method: 'POST', body: batch }),
        pool.fetch('http://x', { method: 'POST', body: one }),
      ];
      await clock.advance(0);
      expect(seen).toHaveLength(1);
      await clock.advance(900);
      expect(seen).toHaveLength(1); // the batch of two took a second of the budget
      await clock.advance(100);
      expect(seen).toHaveLength(2);
      expect((await Promise.all(replies)).map((r) => r.status)).toEqual([200, 200]);
      expect(seen[1]! - seen[0]!).toBe(1000);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
