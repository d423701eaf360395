import type { Client } from './client';
import type { Findings, Section } from './findings';
import { readHaproxyStatsOrNone, type ServerStat } from './haproxy';
import type { Stack } from './stack';

/** Requests through the balancer: the client's retries and failures, HAProxy's per instance. */
export async function requestsSection(findings: Findings, stack: Stack, client: Client): Promise<Section> {
  const { check } = findings;
  const s = client.stats;
  const reasons = [...s.retryReasons].map(([reason, n]) => `${reason} ×${n}`).join(', ') || 'none';
  const servers = await readHaproxyStatsOrNone(stack.statsUrl);
  const sum = (f: (x: ServerStat) => number) => servers.reduce((a, x) => a + f(x), 0);
  const perServer = servers
    .map(
      (x) =>
        `${x.name}: ${x.sessions} requests, ${x.retries} retried, ${x.redispatches} redispatched away, ` +
        `${x.http5xx} 5xx, down ${x.downs}×, now ${x.status}`,
    )
    .join('; ');
  return {
    section: 'Requests through the balancer',
    rows: [
      { label: 'calls (attempts, client retries included)', value: `${s.calls} (${s.attempts})` },
      { label: 'calls retried by the client', value: `${s.retriedCalls} (${reasons})` },
      check(
        'failed beyond client retries',
        String(s.failedBeyondRetries.length),
        s.failedBeyondRetries.length === 0,
      ),
      check('unexpected answers', String(s.unexpected.length), s.unexpected.length === 0),
      {
        label: 'HAProxy retries / redispatches',
        value: `${sum((x) => x.retries)} / ${sum((x) => x.redispatches)} (${perServer})`,
      },
    ],
  };
}
