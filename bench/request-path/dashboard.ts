import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { percentile } from '../lib/percentile';
import { load, type Measured } from './load';
import type { PathMerchant } from './merchant';
import type { PathStack } from './stack';

const DAYS_OF_ORDERS = 180;
/**
 * Orders per INSERT: each one bumps the merchant's order count row once, and within one statement
 * every bump walks the versions the earlier ones left (quadratic in the statement's size).
 */
const CHUNK = 5_000;

/**
 * The dashboard at scale: `count` orders for one merchant over 180 days (a tenth of them paid),
 * then the 30-day summary against a 20-order list page of the same merchant (back to back, median
 * of `rounds` ratios, at 1 and 32 connections), and the orders CSV of all of them while the
 * service's memory is sampled. The summary is measured twice: as the dashboard asks it (one range,
 * whose answer the service remembers until the merchant's figures change), and with every answer
 * computed (30-day ranges ending on 150 different days, more than the service remembers).
 */
export async function dashboardAtScale(
  stack: PathStack,
  merchant: PathMerchant,
  opts: { count: number; seconds: number; rounds: number },
  progress: (m: string) => void,
): Promise<string[]> {
  progress(`dashboard: ${opts.count} orders for one merchant over ${DAYS_OF_ORDERS} days, then the figures`);
  await insertOrders(stack.databaseUrl, merchant.firstReference, opts.count);
  progress('dashboard: waiting for the hourly figures (refresh-dashboard-stats)');
  const refreshMs = await waitForFigures(stack.databaseUrl);

  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  const summaryUrl = `${stack.base}/dashboard/summary?from=${day(29)}&to=${day(0)}&timeZone=America/Sao_Paulo`;
  const check = await fetch(summaryUrl, { headers: merchant.auth });
  const summary = (await check.json()) as { ordersCreated: number };
  if (!check.ok) throw new Error(`summary: ${check.status}`);
  const notes = [
    `dashboard: ${opts.count} orders over ${DAYS_OF_ORDERS} days; hourly figures ready ${(refreshMs / 1000).toFixed(1)} s after the insert; the 30-day summary counts ${summary.ordersCreated} orders`,
  ];
  const uncachedPaths = Array.from(
    { length: 150 },
    (_, k) => `/dashboard/summary?from=${day(29 + k)}&to=${day(k)}&timeZone=America/Sao_Paulo`,
  );
  for (const connections of [1, 32]) {
    const ratios: number[] = [];
    const uncachedRatios: number[] = [];
    const rps: { summary: number; uncached: number; list: number }[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const run = (url: string): Promise<Measured> =>
        load({ url, headers: merchant.auth, connections, seconds: opts.seconds });
      const list = await run(`${stack.base}/users/me/orders?per_page=20`);
      const sum = await run(summaryUrl);
      const uncached = await loadRotating(
        stack.base,
        uncachedPaths,
        merchant.auth,
        connections,
        opts.seconds,
      );
      if (list.errors || sum.errors || uncached.errors)
        throw new Error(
          `dashboard load errors: list ${list.errors}, summary ${sum.errors}, computed summary ${uncached.errors}`,
        );
      ratios.push(sum.rps / list.rps);
      uncachedRatios.push(uncached.rps / list.rps);
      rps.push({ summary: sum.rps, uncached: uncached.rps, list: list.rps });
    }
    const median = (key: 'summary' | 'uncached' | 'list') =>
      percentile(
        rps.map((r) => r[key]),
        50,
      ).toFixed(0);
    const range = (r: number[]) => `${Math.min(...r).toFixed(2)}–${Math.max(...r).toFixed(2)}`;
    notes.push(
      `dashboard: GET /dashboard/summary (30 days) ÷ GET /users/me/orders (20) at ${connections} connection(s): ${percentile(ratios, 50).toFixed(2)} (rounds ${range(ratios)}; ${median('summary')} vs ${median('list')} req/s; goal ≥ 0.5)`,
      `dashboard: the same, every summary computed (150 ranges in turn) at ${connections} connection(s): ${percentile(uncachedRatios, 50).toFixed(2)} (rounds ${range(uncachedRatios)}; ${median('uncached')} vs ${median('list')} req/s)`,
    );
  }
  notes.push(await exportWithMemory(stack, merchant, day(DAYS_OF_ORDERS + 1), day(0), progress));
  return notes;
}

/** autocannon taking `paths` in turn, one per request (load() sends one URL). */
async function loadRotating(
  base: string,
  paths: string[],
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<Measured> {
  let next = 0;
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: 'GET',
        headers,
        setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }),
      } as autocannon.Request,
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** `count` orders like the template, spread over the last DAYS_OF_ORDERS days; every tenth paid in full. */
async function insertOrders(databaseUrl: string, template: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let done = 0; done < count; done += CHUNK) {
      const n = Math.min(CHUNK, count - done);
      await client.query(
        `WITH t AS (SELECT * FROM orders WHERE reference = $2),
              o AS (
         INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                             amount_received_units, quote_currency, quote_units, fx_rate, status, description,
                             expires_at, created_at, updated_at, amount_unique)
         SELECT translate(md5('dash' || ($3 + g)), '0', 'z'), t.merchant_id, t.wallet_id, t.network, t.token, t.token_mint,
                t.recipient, 1000000 + g, CASE WHEN g % 10 = 0 THEN 1000000 + g ELSE 0 END,
                'BRL', 5250000, '5.25', CASE WHEN g % 10 = 0 THEN 'PAID' ELSE 'EXPIRED' END, 'bench order ' || g,
                now(), now() - ($3 + g) * CAST($4 AS float8) * interval '1 second', now(), false
           FROM generate_series(1, $1) AS g, t
         RETURNING id, network, amount_received_units, created_at)
         INSERT INTO payment_claims (order_id, network, tx_id, source, status, amount_units, sender, matched_by, created_at, updated_at)
         SELECT id, network, 'benchtx' || id, 'scanner', 'VERIFIED', amount_received_units, 'bench-sender', 'tag',
                created_at + interval '1 minute', now()
           FROM o WHERE amount_received_units > 0`,
        [n, template, done, (DAYS_OF_ORDERS * 86_400) / count],
      );
    }
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** Until the service's job has taken every change (stats_changes empty); how long it took. */
async function waitForFigures(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM stats_changes');
      if (Number(rows[0]!.n) === 0) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
}

/** Resident memory of a process and its descendants (the server runs in tsx's child), in bytes. */
function treeRss(pid: number): number {
  let rss = 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) rss += treeRss(Number(child));
    }
  } catch {
    // gone meanwhile
  }
  return rss;
}

/** The orders CSV of the whole range, read to the end, with the service's memory sampled every 50 ms. */
async function exportWithMemory(
  stack: PathStack,
  merchant: PathMerchant,
  from: string,
  to: string,
  progress: (m: string) => void,
): Promise<string> {
  progress('dashboard: the orders CSV of every order, memory sampled');
  const before = treeRss(stack.servicePid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(stack.servicePid))), 50);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const res = await fetch(`${stack.base}/dashboard/exports/orders.csv?from=${from}&to=${to}`, {
      headers: merchant.auth,
    });
    if (!res.ok || !res.body) throw new Error(`export: ${res.status}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return `dashboard: orders CSV of ${lines - 1} orders, ${mb(bytes)} MB in ${seconds.toFixed(1)} s; the service's RSS ${mb(before)} MB before, ${mb(peak)} MB at most while streaming (+${mb(peak - before)} MB; goal < 50)`;
}
