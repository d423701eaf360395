import { spawnSync } from 'node:child_process';
import { tail } from './processes';

export function haproxyVersion(): string | null {
  const probe = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  return /version (\S+)/.exec(probe.stdout)?.[1] ?? 'unknown';
}

/** HAProxy's view of one instance (its stats page, CSV). */
export type ServerStat = {
  name: string;
  status: string;
  /** Requests it is serving now. */
  current: number;
  sessions: number;
  retries: number;
  redispatches: number;
  http5xx: number;
  downs: number;
};

export async function readHaproxyStats(statsUrl: string): Promise<ServerStat[]> {
  const res = await fetch(`${statsUrl}/stats;csv`, { signal: AbortSignal.timeout(5_000) });
  const [header, ...rows] = (await res.text()).trim().split('\n');
  const columns = (header ?? '').replace(/^# /, '').split(',');
  const col = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
  return rows
    .map((row) => row.split(','))
    .filter((cells) => col(cells, 'pxname') === 'stablepay_instances' && col(cells, 'svname') !== 'BACKEND')
    .map((cells) => ({
      name: col(cells, 'svname'),
      status: col(cells, 'status'),
      current: Number(col(cells, 'scur')) || 0,
      sessions: Number(col(cells, 'stot')) || 0,
      retries: Number(col(cells, 'wretr')) || 0,
      redispatches: Number(col(cells, 'wredis')) || 0,
      http5xx: Number(col(cells, 'hrsp_5xx')) || 0,
      downs: Number(col(cells, 'chkdown')) || 0,
    }));
}

/** The stats, or none while HAProxy does not answer. */
export const readHaproxyStatsOrNone = (statsUrl: string) =>
  readHaproxyStats(statsUrl).catch(() => [] as ServerStat[]);

/**
 * HAProxy's log ("<level>message" lines; its stderr repeats some as "[WARNING] ..."): with
 * log-separate-errors and the "notice" level, requests that were not plain sailing (retried,
 * redispatched, 5xx, aborted), and server state changes.
 */
export function haproxyLogSummary(file: string) {
  const lines = tail(file, 100_000)
    .split('\n')
    .filter((l) => /^<\d+>/.test(l))
    .map((l) => l.replace(/^<\d+>/, ''));
  // ... "GET /x HTTP/1.1" is preceded by: status bytes cookie cookie flags act/fe/be/srv/retries
  const request = / (\d{3}) \d+ \S+ \S+ (\S{4}) \d+\/\d+\/\d+\/\d+\/(\+?)(\d+) /;
  const requests = lines.flatMap((l) => {
    const m = request.exec(l);
    return m
      ? [{ status: m[1] ?? '', flags: m[2] ?? '', redispatched: m[3] === '+', retries: Number(m[4]) }]
      : [];
  });
  const statuses = new Map<string, number>();
  for (const r of requests) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  return {
    requests,
    answers: [...statuses].map(([status, n]) => `${status} ×${n}`).join(', '),
    retried: requests.filter((r) => r.retries > 0).length,
    redispatched: requests.filter((r) => r.redispatched).length,
    other: lines.filter((l) => !request.test(l)),
  };
}
