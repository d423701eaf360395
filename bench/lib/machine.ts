import os from 'node:os';

/** "2 CPU(s) <model>": the figures of one machine are compared with that machine's only. */
export function cpuSummary(): string {
  const cpus = os.cpus();
  return `${cpus.length} CPU(s) ${cpus[0]?.model.trim() ?? ''}`;
}

/** The 1, 5 and 15 minute load averages, "0.52 0.40 0.31": other work on the machine skews figures. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}
