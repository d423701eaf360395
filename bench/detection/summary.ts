import { loadAverage } from '../lib/machine';
import { percentile } from '../lib/percentile';
import type { Report } from '../measure';
import { EVM_CONFIRMATIONS, EVM_NETWORK } from '../settings';
import { BLOCK_INTERVAL_MS } from './block-ticker';
import { perMinute } from './idle';
import type { Way } from './latency';

/** Issue 22's goals, checked by a reviewer, never by the bench. */
const GOAL_IDLE_RATIO = 1.5;
const GOAL_P95_MS = 2000;

const markdownRow = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (header: string[], rows: string[][]) => [
  markdownRow(header),
  markdownRow(header.map(() => '---')),
  ...rows.map(markdownRow),
];

/**
 * The figures of issue 22 side by side, as markdown: idle RPC calls a minute with few and many
 * watched wallets and their ratio, detection latency per way of paying, each for Solana and the
 * EVM network; then the webhook rates of the webhooks part when it ran in the same run (read from
 * its report rows: deliveries over the wall time of each).
 */
export function detectionSummary(report: Report): string[] {
  const figures = report.detection;
  if (!figures) return [];
  const [few, many] = figures.idle;
  const lines = [
    `\nwatching and detection, side by side (load average ${loadAverage()}; ${EVM_NETWORK}: a block every ` +
      `${BLOCK_INTERVAL_MS / 1000} s, ${EVM_CONFIRMATIONS} confirmations; the service's jobs on their default schedules)\n`,
  ];
  const rows: string[][] = [];
  const idleCells = (pick: 'solana' | 'evm') => {
    if (!few || !many) return;
    const a = perMinute(few[pick], few.seconds);
    const b = perMinute(many[pick], many.seconds);
    return { few: a.toFixed(0), many: b.toFixed(0), ratio: a > 0 ? (b / a).toFixed(2) : '-' };
  };
  const solana = idleCells('solana');
  const evm = idleCells('evm');
  if (few && many && solana && evm)
    rows.push(
      [`idle RPC calls a minute, ${few.wallets} wallets`, solana.few, evm.few],
      [`idle RPC calls a minute, ${many.wallets.toLocaleString('en')} wallets`, solana.many, evm.many],
      [`ratio (goal ≤ ${GOAL_IDLE_RATIO})`, solana.ratio, evm.ratio],
    );
  for (const way of ['reported', 'unreported'] satisfies Way[])
    rows.push([
      `detection p50 / p95 ms, ${way} (goal p95 < ${GOAL_P95_MS})`,
      latencyCell(report, 'SOLANA', way),
      latencyCell(report, EVM_NETWORK, way),
    ]);
  lines.push(...table(['', 'SOLANA', EVM_NETWORK], rows), '');
  const webhooks = report.rows.filter((row) => row.name.startsWith('webhooks'));
  lines.push(
    ...(webhooks.length > 0
      ? table(
          ['webhook deliveries', 'a second'],
          webhooks.map((row) => [
            row.name.replace(/^webhooks:\s*/, ''),
            Math.round((row.count / row.totalMs) * 1000).toString(),
          ]),
        )
      : ['webhook deliveries a second: not measured in this run (part webhooks)']),
  );
  return lines;
}

function latencyCell(report: Report, network: string, way: Way): string {
  const detection = report.detection?.detections.find((d) => d.network === network && d.way === way);
  if (!detection) return '-';
  const { samplesMs, missed } = detection;
  const figures =
    samplesMs.length > 0
      ? `${percentile(samplesMs, 50).toFixed(0)} / ${percentile(samplesMs, 95).toFixed(0)}`
      : 'none';
  return `${figures} (n=${samplesMs.length}${missed > 0 ? `, ${missed} missed` : ''})`;
}
