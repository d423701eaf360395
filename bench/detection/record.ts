import { percentile } from '../lib/percentile';
import { callsByMethod, rowFrom, type Report } from '../measure';
import { EVM_NETWORK } from '../settings';
import { perMinute, type IdleCase } from './idle';
import type { Detection } from './latency';

/** The part's figures, and the machine's load average as it ended (other work skews them). */
export type DetectionFigures = { idle: IdleCase[]; detections: Detection[]; load: string };

/** The detection part's figures: latency rows and idle notes in the report, and all of it for the summary. */
export function recordDetection(report: Report, figures: DetectionFigures): void {
  for (const d of figures.detections) {
    if (d.samplesMs.length > 0) {
      report.rows.push(rowFrom(`detection: ${d.network} ${d.way}, final -> order.paid webhook`, d.samplesMs));
      report.notes.push(
        `detection: ${d.network} ${d.way}: final -> settled ${spread(d.settleMs)}, settled -> webhook ${spread(d.deliverMs)}; ` +
          `settled by ${Object.entries(d.settledBy)
            .map(([by, n]) => `${by === 'scanner' ? 'the scanner' : `the verifier (${by}'s claim)`} ${n}`)
            .join(', ')}`,
      );
    }
    if (d.missed > 0)
      report.notes.push(
        `detection: ${d.network} ${d.way}: ${d.missed} order.paid webhook(s) not received within a minute of the payment being final`,
      );
  }
  for (const idle of figures.idle) {
    report.notes.push(
      `detection: idle with ${idle.wallets} watched wallets a network, the bench process's event loop was busy ${percent(idle.loopBusy)} of the time`,
    );
    for (const [network, calls] of [
      ['SOLANA', idle.solana],
      [EVM_NETWORK, idle.evm],
    ] as const)
      report.notes.push(
        `detection: ${network} idle with ${idle.wallets} watched wallets: ${perMinute(calls, idle.seconds).toFixed(0)} RPC calls a minute ` +
          `(${callsByMethod(calls)} in ${idle.seconds} s; ${idle.blocks} EVM blocks mined meanwhile)`,
      );
  }
  report.detection = figures;
}

/** "p50 x / p95 y ms". */
const spread = (ms: number[]) =>
  `p50 ${percentile(ms, 50).toFixed(0)} / p95 ${percentile(ms, 95).toFixed(0)} ms`;

export const percent = (share: number) => `${(share * 100).toFixed(0)} %`;
