import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { progress } from '../lib/progress';
import { waitFor } from '../lib/wait';
import { readHaproxyStats, readHaproxyStatsOrNone } from './haproxy';
import { signalGroup } from './processes';
import { KILLED, START_TIMEOUT_MS, RESTART_AFTER_MS } from './settings';
import type { Stack } from './stack';
import type { Timeline } from './workload';

const VICTIM = `instance${KILLED}`;

/**
 * As soon as HAProxy has a request on the victim (or after 3 s), SIGKILL to its process group;
 * RESTART_AFTER_MS later it is started again, and followed until HAProxy has it back.
 * `done` says how far the workload got, for the record.
 */
export async function killAndRestart(stack: Stack, timeline: Timeline, done: () => string): Promise<void> {
  const killIndex = KILLED - 1;
  const victim = stack.instances[killIndex];
  if (victim?.proc.pid === undefined) return;
  const serving = await requestsOnVictim(stack.statsUrl);
  signalGroup(victim.proc.pid, 'SIGKILL');
  timeline.killedAt = performance.now();
  timeline.killedAfter = done();
  timeline.servingAtKill = serving;
  progress(`SIGKILL to instance ${KILLED} (${timeline.killedAfter}, serving ${serving} request(s))`);

  await victim.exit;
  stack.forget(victim);
  await sleep(RESTART_AFTER_MS);
  progress(`starting instance ${KILLED} again`);
  timeline.restartedAt = performance.now();
  stack.instances[killIndex] = stack.startInstance(killIndex);
  await waitFor(`instance ${KILLED} back in HAProxy's rotation`, START_TIMEOUT_MS, async () => {
    const servers = await readHaproxyStats(stack.statsUrl);
    return servers.find((x) => x.name === VICTIM)?.status === 'UP';
  });
  timeline.backInRotationAt = performance.now();
}

/** Requests HAProxy has on the victim, polled until there is one (3 s at most). */
async function requestsOnVictim(statsUrl: string): Promise<number> {
  const deadline = performance.now() + 3_000;
  let serving = 0;
  while (performance.now() < deadline) {
    const servers = await readHaproxyStatsOrNone(statsUrl);
    serving = servers.find((x) => x.name === VICTIM)?.current ?? 0;
    if (serving > 0) break;
    await sleep(10);
  }
  return serving;
}
