import { performance } from 'node:perf_hooks';
import type { DetectionFigures } from './detection/record';

export type Row = { name: string; count: number; totalMs: number; samplesMs?: number[] };
/** Rows and notes for the table; the detection part's figures also for the summary at the end. */
export type Report = { rows: Row[]; notes: string[]; detection?: DetectionFigures };

export const now = () => performance.now();

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = now();
  const value = await fn();
  return { value, ms: now() - started };
}

/** Times one step of a longer operation into `samples`, and passes its value on. */
export async function timedStep<T>(samples: number[], fn: () => Promise<T>): Promise<T> {
  const { value, ms } = await timed(fn);
  samples.push(ms);
  return value;
}

/** `count` operations one after the other; each one's latency is kept for p50/p95. */
export async function sequential(
  name: string,
  count: number,
  op: (i: number) => Promise<unknown>,
): Promise<Row> {
  const samplesMs: number[] = [];
  const started = now();
  for (let i = 0; i < count; i++) {
    const t = now();
    await op(i);
    samplesMs.push(now() - t);
  }
  return { name, count, totalMs: now() - started, samplesMs };
}

/** `count` operations, `concurrency` at a time; total is wall time, samples are each one's latency. */
export async function concurrent(
  name: string,
  count: number,
  concurrency: number,
  op: (i: number) => Promise<unknown>,
): Promise<Row> {
  const samplesMs: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = now();
      await op(i);
      samplesMs.push(now() - t);
    }
  };
  const started = now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { name, count, totalMs: now() - started, samplesMs };
}

export type Case = { name: string; op: () => Promise<unknown> };

/** Rounds of every case in turn, so drift (warm-up, other load on the machine) touches each alike. */
export async function interleaved(cases: Case[], rounds: number): Promise<Row[]> {
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const [i, { op }] of cases.entries()) {
      const t = now();
      await op();
      samples[i]?.push(now() - t);
    }
  return cases.map(({ name }, i) => rowFrom(name, samples[i] ?? []));
}

/** A row of operations timed one by one, elsewhere. */
export function rowFrom(name: string, samplesMs: number[]): Row {
  return { name, count: samplesMs.length, totalMs: samplesMs.reduce((a, b) => a + b, 0), samplesMs };
}

/** RPC calls as "method count, …", by method name. */
export function callsByMethod(calls: Record<string, number>): string {
  return Object.entries(calls)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, count]) => `${method} ${count}`)
    .join(', ');
}

export const totalCalls = (calls: Record<string, number>) => Object.values(calls).reduce((a, b) => a + b, 0);

/** "b vs a (×r)" for two counts: r is b / a (whole, or to two decimals). */
export const versus = (a: number, b: number) => `${b} vs ${a} (×${(b / a).toFixed(b % a === 0 ? 0 : 2)})`;
