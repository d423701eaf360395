import { percentile } from '../lib/percentile';
import type { Report } from '../measure';
import { EVM_CONFIRMATIONS, EVM_NETWORK } from '../settings';
import { BLOCK_INTERVAL_MS } from './block-ticker';
import { perMinute, type IdleCase } from './idle';
import type { Way } from './latency';
import { percent, type DetectionFigures } from './record';

/** Issue 22's goals, checked by a reviewer, never by the bench. */
const GOAL_IDLE_RATIO = 1.5;
const GOAL_P95_MS = 2000;

const markdownRow = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [
  markdownRow(header),
  markdownRow(header.map(() => '---')),
  ...rows.map(markdownRow),
];
const wallets = (idle: IdleCase) => idle.wallets.toLocaleString('en');

/**
 * The figures of issue 22 side by side, as markdown: idle RPC calls a minute with few and many
 * watched wallets and their ratio, detection latency per way of paying, each for Solana and the
 * EVM network; then the webhook rates of the webhooks part when it ran in the same run.
 */
export function detectionSummary(report: Report): string[] {
  const figures = report.detection;
  if (!figures) return [];
  const watched = figures.idle.at(-1);
  return [
    `\nwatching and detection, side by side (load average ${figures.load} as the part ended; the service's jobs on their ` +
      `default schedules; ${EVM_NETWORK}: a block about every ${BLOCK_INTERVAL_MS / 1000} s, ` +
      `${EVM_CONFIRMATIONS} confirmations; payments of the four kinds side by side` +
      `${watched ? `, ${wallets(watched)} other wallets a network watched` : ''})\n`,
    ...table(['', 'SOLANA', EVM_NETWORK], [...idleRows(figures), ...latencyRows(figures)]),
    '',
    ...webhookLines(report),
  ];
}

function idleRows({ idle: [few, many] }: DetectionFigures): string[][] {
  if (!few || !many) return [];
  const callsAMinute = (idle: IdleCase) => [
    `idle RPC calls a minute, ${wallets(idle)} wallets`,
    perMinute(idle.solana, idle.seconds).toFixed(0),
    perMinute(idle.evm, idle.seconds).toFixed(0),
  ];
  const ratio = (pick: 'solana' | 'evm') => {
    const a = perMinute(few[pick], few.seconds);
    return a > 0 ? (perMinute(many[pick], many.seconds) / a).toFixed(2) : '-';
  };
  return [
    callsAMinute(few),
    callsAMinute(many),
    [`ratio (goal ≤ ${GOAL_IDLE_RATIO})`, ratio('solana'), ratio('evm')],
    [
      `event loop busy while idle, ${wallets(few)} / ${wallets(many)} wallets (both networks at once)`,
      `${percent(few.loopBusy)} / ${percent(many.loopBusy)}`,
      '',
    ],
  ];
}

function latencyRows(figures: DetectionFigures): string[][] {
  const cell = (network: string, way: Way) => {
    const detection = figures.detections.find((d) => d.network === network && d.way === way);
    if (!detection) return '-';
    const { samplesMs, missed } = detection;
    const spread =
      samplesMs.length > 0
        ? `${percentile(samplesMs, 50).toFixed(0)} / ${percentile(samplesMs, 95).toFixed(0)}`
        : 'none';
    return `${spread} (n=${samplesMs.length}${missed > 0 ? `, ${missed} missed` : ''})`;
  };
  return (['reported', 'unreported'] satisfies Way[]).map((way) => [
    `final -> order.paid webhook p50 / p95 ms, ${way} (goal p95 < ${GOAL_P95_MS})`,
    cell('SOLANA', way),
    cell(EVM_NETWORK, way),
  ]);
}

/** The webhooks part's rates, from its report rows: deliveries over the wall time of each. */
function webhookLines(report: Report): string[] {
  const rows = report.rows.filter((row) => row.name.startsWith('webhooks'));
  if (rows.length === 0) return ['webhook deliveries a second: not measured in this run (part webhooks)'];
  return table(
    ['webhook deliveries', 'a second'],
    rows.map((row) => [
      row.name.replace(/^webhooks:\s*/, ''),
      Math.round((row.count / row.totalMs) * 1000).toString(),
    ]),
  );
}
