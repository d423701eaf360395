import { percentile } from '../lib/percentile';
import { seconds } from '../lib/progress';
import { select } from './database';
import { ms, type Findings, type Line, type Section } from './findings';
import type { haproxyLogSummary } from './haproxy';
import type { instanceLogSummary } from './instance-logs';
import { CONVERGE_TIMEOUT_MS, KILLED, POLL_LIMIT_MS } from './settings';
import type { Stack } from './stack';
import { kindOf, type PaidOrder, type Timeline, type Work } from './workload';

export type RunLogs = {
  instances: ReturnType<typeof instanceLogSummary>;
  haproxy: ReturnType<typeof haproxyLogSummary>;
};

/** The run: when the instance was killed and back, how fast payments showed, whether all settled. */
export async function runSection(
  findings: Findings,
  stack: Stack,
  timeline: Timeline,
  work: Work,
  logs: RunLogs,
  convergedInTime: boolean,
): Promise<Section> {
  const since = (t: number | undefined) => (t === undefined ? '-' : `T+${seconds(t - timeline.start)}`);
  const { chainErrors } = work;
  const haproxyLog = logs.haproxy;
  return {
    section: 'The run',
    rows: [
      {
        label: `instance ${KILLED} SIGKILLed`,
        value: `${since(timeline.killedAt)} (${timeline.killedAfter ?? 'never'}, serving ${timeline.servingAtKill ?? 0} request(s) then)`,
      },
      {
        label: `instance ${KILLED} started again / back in rotation`,
        value: `${since(timeline.restartedAt)} / ${since(timeline.backInRotationAt)}`,
      },
      { label: 'workload done', value: since(timeline.workloadDoneAt) },
      ...(await paymentRows(stack, work.paid)),
      findings.check(
        'every order settled and every event delivered',
        convergedInTime
          ? `${since(timeline.convergedAt)} (${seconds((timeline.convergedAt ?? 0) - (timeline.workloadDoneAt ?? 0))} after the workload)`
          : `not within ${seconds(CONVERGE_TIMEOUT_MS)}`,
        convergedInTime,
      ),
      findings.check(
        'payments the local chain refused',
        String(chainErrors.length),
        chainErrors.length === 0,
      ),
      { label: 'warnings and errors logged by the instances', value: String(logs.instances.total) },
      {
        label: 'requests HAProxy logged as not plain sailing',
        value: haproxyLog.requests.length
          ? `${haproxyLog.requests.length} (answers ${haproxyLog.answers}; retried ${haproxyLog.retried}, ` +
            `of them on another instance ${haproxyLog.redispatched})`
          : '0',
      },
    ],
  };
}

/** Payment sent -> shown PAID on the checkout page, and -> the order PAID in the database. */
async function paymentRows(stack: Stack, paid: PaidOrder[]): Promise<Line[]> {
  const seen = paid.flatMap((p) => (p.seenPaidMs === undefined ? [] : [p.seenPaidMs]));
  const paidAt = await paidAtByReference(stack);
  const toPaid = paid.flatMap((p) => {
    const at = paidAt.get(p.reference);
    return at === undefined ? [] : [{ p, ms: at - p.sentAtWall }];
  });
  const slow = toPaid.filter((x) => x.ms > 5_000);
  const slowKinds = new Map<string, number>();
  for (const { p } of slow) slowKinds.set(kindOf(p), (slowKinds.get(kindOf(p)) ?? 0) + 1);
  const toPaidMs = toPaid.map((x) => x.ms);
  return [
    {
      label: 'payment sent -> checkout page shows PAID',
      value: seen.length
        ? `${seen.length}/${paid.length} within ${seconds(POLL_LIMIT_MS)}: p50 ${ms(percentile(seen, 50))}, ` +
          `p95 ${ms(percentile(seen, 95))}, max ${ms(Math.max(...seen))}`
        : `none within ${seconds(POLL_LIMIT_MS)}`,
    },
    {
      label: 'payment sent -> order PAID (its audit entry)',
      value: toPaidMs.length
        ? `p50 ${ms(percentile(toPaidMs, 50))}, p95 ${ms(percentile(toPaidMs, 95))}, max ${ms(Math.max(...toPaidMs))}`
        : '-',
    },
    {
      label: 'PAID more than 5 s after the payment',
      value: `${slow.length}${slow.length ? ` (${[...slowKinds].map(([k, n]) => `${k} ${n}`).join(', ')})` : ''}`,
    },
  ];
}

/** When each order became PAID, by the time of its audit entry (same machine, same clock). */
async function paidAtByReference(stack: Stack): Promise<Map<string, number>> {
  const rows = await select<{ reference: string; at: Date }>(
    stack,
    `SELECT o.reference, a.created_at AS at FROM audit_entries a JOIN orders o ON o.id = a.order_id
      WHERE o.merchant_id = :merchantId AND a.type = 'status.changed' AND a.data->>'to' = 'PAID'`,
    { merchantId: stack.merchantId },
  );
  return new Map(rows.map((r) => [r.reference, new Date(r.at).getTime()]));
}
