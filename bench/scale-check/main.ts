/**
 * `npm run scale:check`: three stablepay instances on one PostgreSQL behind HAProxy
 * (deploy/haproxy.cfg), a payment workload through the balancer, one instance killed with SIGKILL
 * half-way through (and started again later), then a report of what a merchant would have seen:
 * requests that failed beyond the client's retries, webhooks delivered exactly once, more than
 * once or never, and background work done once per slot (each order expired once, each payment
 * verified once). A check that prints its figures and exits non-zero on a violation; not part of
 * `npm test`.
 *
 * Everything listens on 127.0.0.1: a fresh database created for the run on DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end, the local Solana
 * chain (litesvm behind JSON-RPC, in this process), a webhook receiver (in this process), three
 * `tsx server/main.ts` processes with NODE_ENV=production and every job on (JOBS=all), and
 * `haproxy -f deploy/haproxy.cfg -db` in front of them. Each child runs in a process group of its
 * own and is stopped at the end, on failure and on Ctrl-C; if this process is killed outright, a
 * small guard process kills the groups and drops the database.
 *
 *   npm run scale:check
 *   DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres npm run scale:check
 *
 * Needs haproxy (Debian/Ubuntu: apt-get install haproxy) and a PostgreSQL whose user may CREATE
 * DATABASE. Takes about a minute.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createCleanup, errorMessage, finisher, stopOnSignals } from '../lib/cleanup';
import { progress, seconds } from '../lib/progress';
import { waitFor } from '../lib/wait';
import { createClient } from './client';
import { converged } from './convergence';
import { adminQuery } from './database';
import { haproxyVersion } from './haproxy';
import { childGroups, signalGroup } from './processes';
import { report } from './report';
import type { RunState } from './run-folder';
import {
  CLEANUP_STEP_TIMEOUT_MS,
  CONVERGE_TIMEOUT_MS,
  DEFAULT_DATABASE_URL,
  RUN_TIMEOUT_MS,
  SETTLE_MS,
} from './settings';
import { setUp, type Stack } from './stack';
import { runWorkload, type Timeline, type Work } from './workload';

const USAGE = `npm run scale:check [-- --help]
  Three instances behind HAProxy on one PostgreSQL, one killed midway; about a minute.
  DATABASE_URL   the PostgreSQL server to create the run's database on
                 (default ${DEFAULT_DATABASE_URL}); needs haproxy on PATH`;

/** The exit code when the check cannot run here (after saying why), or null when it can. */
async function missingPrerequisite(serverUrl: string): Promise<number | null> {
  if (!haproxyVersion()) {
    console.error(
      'scale:check needs HAProxy, and `haproxy` is not on PATH.\n' +
        'Install it from the distribution (Debian/Ubuntu: apt-get install haproxy), then run again.',
    );
    return 2;
  }
  try {
    await adminQuery(serverUrl, 'SELECT 1');
  } catch (error) {
    console.error(
      `scale:check needs a PostgreSQL server to create its database on: ${new URL(serverUrl).host} ` +
        `answered: ${errorMessage(error)}\nSet DATABASE_URL (default ${DEFAULT_DATABASE_URL}).`,
    );
    return 2;
  }
  return null;
}

/** Waits for every order to settle and every event to be delivered; false if not within the bound. */
async function settle(stack: Stack, work: Work, timeline: Timeline): Promise<boolean> {
  progress(
    `waiting (at most ${seconds(CONVERGE_TIMEOUT_MS)}) for ${work.paid.length} orders PAID, ` +
      `${work.expiring.length} EXPIRED and every event delivered`,
  );
  try {
    await waitFor('convergence', CONVERGE_TIMEOUT_MS, () => converged(stack, work.paid, work.expiring));
    timeline.convergedAt = performance.now();
    await sleep(SETTLE_MS); // late duplicates of deliveries still in flight
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<number> {
  try {
    if (parseArgs({ options: { help: { type: 'boolean' } } }).values.help) {
      console.log(USAGE);
      return 0;
    }
  } catch (error) {
    console.error(`${errorMessage(error)}\n${USAGE}`);
    return 2;
  }
  const serverUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const missing = await missingPrerequisite(serverUrl);
  if (missing !== null) return missing;

  const cleanup = createCleanup(CLEANUP_STEP_TIMEOUT_MS);
  const finish = finisher(cleanup);
  const run = stopOnSignals(finish, progress);
  // Last resort (an exception past everything, process.exit elsewhere): no child outlives the run.
  process.on('exit', () => childGroups.forEach((pgid) => signalGroup(pgid, 'SIGKILL')));
  const state: RunState = { keepLogs: false };
  const watchdog = setTimeout(() => {
    progress(`the run took longer than ${seconds(RUN_TIMEOUT_MS)}: stopping`);
    run.interrupted = true;
    void finish(1).then((c) => process.exit(c));
  }, RUN_TIMEOUT_MS);

  try {
    const stack = await setUp(cleanup, serverUrl, state);
    const client = createClient(stack.lbUrl);
    const timeline: Timeline = { start: performance.now() };
    const work = await runWorkload(stack, client, timeline);
    const convergedInTime = await settle(stack, work, timeline);
    const code = await report(stack, client, timeline, work, convergedInTime);
    state.keepLogs = code !== 0;
    if (state.keepLogs) console.log(`\nLogs of the instances and haproxy: kept in ${stack.dir}`);
    return await finish(code);
  } catch (error) {
    if (!run.interrupted) {
      console.error('scale:check failed:', error instanceof Error ? (error.stack ?? error.message) : error);
      state.keepLogs = state.dir !== undefined;
      if (state.dir) console.error(`Logs of the instances and haproxy: kept in ${state.dir}`);
    }
    return finish(1);
  } finally {
    clearTimeout(watchdog);
  }
}

main().then((code) => process.exit(code));
