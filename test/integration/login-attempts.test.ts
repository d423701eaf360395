import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginAttempts } from '../../server/http/login-attempts';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The login counter's own rules on the real store, with the moments between its statements chosen
 * by the test (a statement can be held back until something else has happened): the interleavings
 * a burst of logins meets on a busy machine, made certain instead of likely.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' });
});
afterAll(() => server?.stop());

/** The service's database, where `before` runs first whenever a statement matching `match` is sent. */
function interleaved(sequelize: Sequelize, match: RegExp, before: () => Promise<void>): Sequelize {
  return new Proxy(sequelize, {
    get(target, key) {
      if (key !== 'query') return Reflect.get(target, key);
      return async (sql: string, options: object) => {
        if (match.test(sql)) await before();
        return target.query(sql, options as never);
      };
    },
  });
}

const WINDOW_MS = 60_000;

describe('a login refused by a full counter', () => {
  it('is let in when the attempt holding the last point settles between its take and its look at the counter', async () => {
    const key = `test:${randomUUID()}`;
    const sequelize = server.deps.db.sequelize;
    const plain = createLoginAttempts(sequelize, [{ prefix: 'login:test', limit: 1 }], WINDOW_MS);
    const first = await plain.admit([key]);
    expect('held' in first).toBe(true);

    // The second attempt's take is refused (the first holds the only point); the first succeeds
    // and gives its point back just before the second reads the counter's state.
    let settledFirst = false;
    const racing = createLoginAttempts(
      interleaved(sequelize, /AS in_flight/, async () => {
        if (settledFirst || !('held' in first)) return;
        settledFirst = true;
        await plain.settle(first.held, true);
      }),
      [{ prefix: 'login:test', limit: 1 }],
      WINDOW_MS,
    );
    const second = await racing.admit([key]);
    expect(settledFirst).toBe(true);
    expect(second).toHaveProperty('held');
  });

  it('is refused, with Retry-After the end of the window, when every point is a failure', async () => {
    const key = `test:${randomUUID()}`;
    const attempts = createLoginAttempts(
      server.deps.db.sequelize,
      [{ prefix: 'login:test', limit: 1 }],
      WINDOW_MS,
    );
    const first = await attempts.admit([key]);
    if (!('held' in first)) throw new Error('the first attempt was refused');
    await attempts.settle(first.held, false);
    const second = await attempts.admit([key]);
    expect(second).toHaveProperty('retryAfterMs');
    if ('retryAfterMs' in second) {
      expect(second.retryAfterMs).toBeGreaterThan(WINDOW_MS - 10_000);
      expect(second.retryAfterMs).toBeLessThanOrEqual(WINDOW_MS);
    }
  });
});
