import fs from 'node:fs';
import path from 'node:path';
import { INSTANCES } from './settings';

/** Warnings and errors the instances logged (JSON lines, level >= 40), by message. */
export function instanceLogSummary(dir: string): { total: number; byMessage: Map<string, number> } {
  const byMessage = new Map<string, number>();
  let total = 0;
  for (let i = 1; i <= INSTANCES; i++) {
    let text = '';
    try {
      text = fs.readFileSync(path.join(dir, `instance-${i}.log`), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const message = warningOrError(line);
      if (message === null) continue;
      total++;
      const key = `instance ${i} ${message}`;
      byMessage.set(key, (byMessage.get(key) ?? 0) + 1);
    }
  }
  return { total, byMessage };
}

/** A log line's warning or error, shortened; null for a lower level; any output that is not JSON as is. */
function warningOrError(line: string): string | null {
  try {
    const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } | string };
    if ((entry.level ?? 0) < 40) return null;
    const err = typeof entry.err === 'string' ? entry.err : entry.err?.message;
    return `${entry.level === 40 ? 'warn' : 'error'}: ${entry.msg ?? ''}${err ? ` (${err.slice(0, 120)})` : ''}`;
  } catch {
    return `output: ${line.slice(0, 140)}`;
  }
}
