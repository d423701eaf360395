import type { ReceivedWebhook } from '../../test/support/harness';
import { percentile } from '../lib/percentile';
import { seconds } from '../lib/progress';
import { merchantEvents, type EventRow } from './convergence';
import { ms, type Findings, type Section } from './findings';
import type { Stack } from './stack';

/** How the committed events were delivered: once, more than once, never; and how fast. */
type Deliveries = {
  once: number;
  moreThanOnce: number;
  extraCopies: number;
  /** The longest time between the first and the last copy of one event. */
  copyLagMs: number;
  never: number;
  differing: number;
  /** Event createdAt -> its first copy received. */
  latencies: number[];
};

function countDeliveries(events: EventRow[], received: Map<string, ReceivedWebhook[]>): Deliveries {
  const d: Deliveries = {
    once: 0,
    moreThanOnce: 0,
    extraCopies: 0,
    copyLagMs: 0,
    never: 0,
    differing: 0,
    latencies: [],
  };
  for (const event of events) {
    const got = received.get(event.id) ?? [];
    if (got.length === 0) d.never++;
    else if (got.length === 1) d.once++;
    else {
      d.moreThanOnce++;
      d.extraCopies += got.length - 1;
      const times = got.map((hook) => hook.at);
      d.copyLagMs = Math.max(d.copyLagMs, Math.max(...times) - Math.min(...times));
    }
    if (got.some((hook) => hook.body !== event.body)) d.differing++;
    const first = got.reduce((a, hook) => Math.min(a, hook.at), Number.POSITIVE_INFINITY);
    if (Number.isFinite(first)) d.latencies.push(first - new Date(event.created_at).getTime());
  }
  return d;
}

function byEventId(hooks: ReceivedWebhook[]): Map<string, ReceivedWebhook[]> {
  const deliveries = new Map<string, ReceivedWebhook[]>();
  for (const hook of hooks) {
    const list = deliveries.get(hook.json.id) ?? [];
    list.push(hook);
    deliveries.set(hook.json.id, list);
  }
  return deliveries;
}

/** Events and webhooks: every committed event delivered at least once, with its committed body. */
export async function eventsSection(findings: Findings, stack: Stack): Promise<Section> {
  const { check } = findings;
  const events = await merchantEvents(stack);
  const committed = new Set(events.map((e) => e.id));
  const received = byEventId(stack.receiver.received);
  const d = countDeliveries(events, received);
  const unknown = [...received.keys()].filter((id) => !committed.has(id)).length;
  const byType = new Map<string, number>();
  for (const e of events) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
  return {
    section: 'Events and webhooks',
    rows: [
      {
        label: 'committed (rows in events)',
        value: `${events.length} (${[...byType].map(([t, n]) => `${t} ${n}`).join(', ')})`,
      },
      { label: 'delivered exactly once', value: String(d.once) },
      {
        label: 'delivered more than once',
        value: d.moreThanOnce
          ? `${d.moreThanOnce} (${d.extraCopies} extra ${d.extraCopies === 1 ? 'copy' : 'copies'}, at most ` +
            `${seconds(d.copyLagMs)} after the first; at-least-once, acceptable)`
          : '0',
      },
      check('never delivered', String(d.never), d.never === 0),
      check('received but never committed', String(unknown), unknown === 0),
      check('received with a body other than the committed one', String(d.differing), d.differing === 0),
      {
        label: 'latency, event createdAt -> received',
        value: d.latencies.length
          ? `p50 ${ms(percentile(d.latencies, 50))}, p95 ${ms(percentile(d.latencies, 95))}, max ${ms(Math.max(...d.latencies))}`
          : '-',
      },
      {
        label: 'first delivered after more than 5 s',
        value:
          `${d.latencies.filter((l) => l > 5_000).length} (deliveries the killed instance held, taken over ` +
          `when their lease ran out: send timeout 10 s + WEBHOOK_LEASE_GRACE_MS 5 s)`,
      },
    ],
  };
}
