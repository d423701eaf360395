import { cpuSummary, loadAverage } from '../lib/machine';
import type { Client } from './client';
import { eventsSection } from './events-section';
import { createFindings, type Section } from './findings';
import { haproxyLogSummary } from './haproxy';
import { instanceLogSummary } from './instance-logs';
import { jobsSection } from './jobs-section';
import { requestsSection } from './requests-section';
import { runSection, type RunLogs } from './run-section';
import { INSTANCES } from './settings';
import type { Stack } from './stack';
import type { Timeline, Work } from './workload';

/** What a merchant would have seen, printed; the exit code: 1 when something was violated. */
export async function report(
  stack: Stack,
  client: Client,
  timeline: Timeline,
  work: Work,
  convergedInTime: boolean,
): Promise<number> {
  const findings = createFindings();
  const logs: RunLogs = {
    instances: instanceLogSummary(stack.dir),
    haproxy: haproxyLogSummary(stack.haproxy.logFile),
  };
  const sections = [
    await requestsSection(findings, stack, client),
    await eventsSection(findings, stack),
    await jobsSection(findings, stack, work),
    await runSection(findings, stack, timeline, work, logs, convergedInTime),
  ];
  printSections(stack, sections);
  printDetails(details(client, work, logs));
  const { violations } = findings;
  console.log(
    violations.length === 0
      ? '\nOK: no request failed beyond the client retries, every event was delivered, every job ran once per slot.'
      : `\nFAILED: ${violations.length} violation(s): ${violations.join('; ')}`,
  );
  return violations.length === 0 ? 0 : 1;
}

function printSections(stack: Stack, sections: Section[]): void {
  const width = Math.max(...sections.flatMap((l) => l.rows.map((r) => r.label.length)));
  console.log(
    `\nstablepay scale check: ${INSTANCES} instances (JOBS=all) behind HAProxy ${stack.haproxyVersion}, ` +
      `PostgreSQL ${stack.postgresVersion}, local Solana chain`,
  );
  console.log(`node ${process.version} · ${cpuSummary()} · load ${loadAverage()} · T = workload start`);
  for (const { section, rows } of sections) {
    console.log(`\n${section}`);
    for (const row of rows)
      console.log(
        `  ${row.ok === false ? '✗' : row.ok ? '✓' : ' '} ${row.label.padEnd(width)}  ${row.value}`,
      );
  }
}

/** Each failure, unexpected answer, refused payment, logged warning or error and HAProxy notice. */
function details(client: Client, work: Work, logs: RunLogs): string[] {
  const s = client.stats;
  return [
    ...s.failedBeyondRetries.map((f) => `failed beyond retries: ${f.call}: ${f.reason}`),
    ...s.unexpected.map((f) => `unexpected answer: ${f.call}: ${f.reason}`),
    ...work.chainErrors.map((e) => `chain: ${e}`),
    ...[...logs.instances.byMessage].map(([m, n]) => `${m} ×${n}`),
    ...logs.haproxy.other.map((l) => `haproxy: ${l.slice(0, 220)}`),
  ];
}

function printDetails(lines: string[]): void {
  if (!lines.length) return;
  console.log('\nDetails');
  for (const d of lines.slice(0, 40)) console.log(`  - ${d}`);
  if (lines.length > 40) console.log(`  - … ${lines.length - 40} more`);
}
