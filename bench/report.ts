import os from 'node:os';
import { QueryTypes } from 'sequelize';
import { cpuSummary, loadAverage } from './lib/machine';
import { percentile } from './lib/percentile';
import type { Report, Row } from './measure';
import { EVM_CHAIN_ID } from './settings';
import type { Ctx } from './stack';

/** The machine alone (a part without the bench's stack: the sandbox's). */
export function hostFacts(): string[] {
  return [
    `node ${process.version} · ${os.type()} ${os.release()} ${os.arch()} · ${cpuSummary()}`,
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM · load average ${loadAverage()}`,
  ];
}

export async function machineFacts(ctx: Ctx): Promise<string[]> {
  const [pg] = await ctx.server.deps.db.sequelize.query<{ server_version: string }>('SHOW server_version', {
    type: QueryTypes.SELECT,
  });
  const [host, memory] = hostFacts();
  return [
    host!,
    `${memory} · ` +
      `PostgreSQL ${pg?.server_version ?? '?'} (embedded) · local Solana chain (litesvm)` +
      (ctx.evm ? ` · local EVM chain (Hardhat node, chain id ${EVM_CHAIN_ID})` : ''),
  ];
}

function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

const HEADER = ['name', 'count', 'total ms', 'ms/op', 'ops/s', 'p50 ms', 'p95 ms'];

function rowCells(row: Row): string[] {
  const perSecond = row.count / (row.totalMs / 1000);
  const spread = row.samplesMs && row.count > 1 ? row.samplesMs : undefined;
  return [
    row.name,
    String(row.count),
    formatMs(row.totalMs),
    formatMs(row.totalMs / row.count),
    perSecond.toFixed(perSecond >= 100 ? 0 : 1),
    spread ? formatMs(percentile(spread, 50)) : '-',
    spread ? formatMs(percentile(spread, 95)) : '-',
  ];
}

export function printReport(facts: string[], report: Report): void {
  const lines = report.rows.map(rowCells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');

  console.log('\nstablepay benchmarks');
  for (const fact of facts) console.log(fact);
  console.log('Numbers are for comparing runs on the same machine, not absolute figures.');
  console.log('Concurrent rows: total is wall time, p50/p95 each request; job rows: the runs alone.\n');
  console.log(format(HEADER));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(format(line));
  console.log('');
  for (const note of report.notes) console.log(`- ${note}`);
}
