import jwt from 'jsonwebtoken';
import pg from 'pg';
import { percentile } from '../lib/percentile';
import { load, type Measured } from './load';
import type { PathMerchant } from './merchant';
import type { PathRow } from './report';
import { JWT_SECRET, type PathStack } from './stack';

type Baseline =
  'insert' | 'unpreparedInsert' | 'me' | 'order' | 'page' | 'orderWithLoginToken' | 'oneOptionOrder';
const BASELINE_NAMES: Record<Baseline, string> = {
  insert: 'bare INSERT',
  unpreparedInsert: 'bare INSERT, unprepared',
  me: 'bare HS256, row in memory',
  order: 'bare HS256 + SELECT 1',
  page: 'bare HS256 + SELECT 20',
  orderWithLoginToken: 'the same route with the login token',
  oneOptionOrder: 'POST /orders, one way to pay',
};

type Run = (connections: number) => Promise<Measured>;
type Route = { route: string; baseline: Baseline; run: Run };
export type PathLoads = { baselines: Record<Baseline, Run>; routes: Route[] };

const median = (xs: number[]) => percentile(xs, 50);

/** The service's routes under load, each with the bare baseline of its kind of request. */
export function pathLoads(stack: PathStack, merchant: PathMerchant, seconds: number): PathLoads {
  const { base, bareBase } = stack;
  const { auth, merchantId, amount } = merchant;
  const bareToken = jwt.sign({ sub: merchantId }, JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' });
  const bareAuth = { authorization: `Bearer ${bareToken}` };
  const bareOrder = () => JSON.stringify({ merchantId, network: 'SOLANA', token: 'USDT', amount: amount() });
  const get = (url: string, headers: Record<string, string>) => (connections: number) =>
    load({ url, headers, connections, seconds });
  const post = (url: string, headers: Record<string, string>, body: () => string) => (connections: number) =>
    load({ url, method: 'POST', headers, body, connections, seconds });
  return {
    baselines: {
      insert: post(`${bareBase}/orders`, {}, bareOrder),
      unpreparedInsert: post(`${bareBase}/orders?unprepared`, {}, bareOrder),
      me: get(`${bareBase}/me`, bareAuth),
      order: get(`${bareBase}/orders/${merchant.firstReference}`, bareAuth),
      page: get(`${bareBase}/orders`, bareAuth),
      orderWithLoginToken: get(`${base}/orders/${merchant.firstReference}`, auth),
      oneOptionOrder: post(`${base}/orders`, auth, merchant.orderBody),
    },
    routes: [
      { route: 'POST /orders', baseline: 'insert', run: post(`${base}/orders`, auth, merchant.orderBody) },
      // Against the baseline of earlier runs (an unnamed INSERT), to compare with their figures.
      {
        route: 'POST /orders',
        baseline: 'unpreparedInsert',
        run: post(`${base}/orders`, auth, merchant.orderBody),
      },
      // Issue 29's goal: an order payable every way costs at most twice a one-option order.
      {
        route: `POST /orders, every way to pay (${merchant.optionCount})`,
        baseline: 'oneOptionOrder',
        run: post(`${base}/orders`, auth, merchant.everyOptionBody),
      },
      { route: 'GET /users/me', baseline: 'me', run: get(`${base}/users/me`, auth) },
      {
        route: 'GET /orders/{reference}',
        baseline: 'order',
        run: get(`${base}/orders/${merchant.firstReference}`, auth),
      },
      // An API key costs what the login token costs: both are a memory read once seen.
      {
        route: 'GET /orders/{reference}, API key',
        baseline: 'orderWithLoginToken',
        run: get(`${base}/orders/${merchant.firstReference}`, merchant.keyAuth),
      },
      {
        route: 'GET /users/me/orders (20)',
        baseline: 'page',
        run: get(`${base}/users/me/orders?per_page=20`, auth),
      },
    ],
  };
}

/** Both warmed up (JIT, connection pools, plans) before anything is measured. */
export async function warmUp(loads: PathLoads, databaseUrl: string): Promise<void> {
  await loads.baselines.insert(8);
  await loads.routes[0]?.run(8);
  // Statistics of the tables the warm-up filled, as autovacuum takes them within a minute of so
  // many new rows: without them the planner reads a fresh orders table as nearly empty.
  const analyze = new pg.Client({ connectionString: databaseUrl });
  await analyze.connect();
  await analyze.query('ANALYZE').finally(() => analyze.end());
}

/** Every route at 1 and at 32 connections, each against its baseline in `rounds` rounds. */
export async function measureRoutes(
  loads: PathLoads,
  rounds: number,
  progress: (m: string) => void,
): Promise<PathRow[]> {
  const rows: PathRow[] = [];
  for (const connections of [1, 32])
    for (const r of loads.routes) {
      progress(`request path: ${r.route} at ${connections} connection(s), ${rounds} round(s)`);
      const measured = await backToBack(r.run, loads.baselines[r.baseline], connections, rounds);
      rows.push(pathRow(r, connections, measured));
    }
  return rows;
}

/**
 * Each round measures the baseline and the route back to back (in turns, which goes first): the
 * ratio is taken per round and the median reported, so a change in the machine's speed during the
 * run (this shared machine's rates drift by a third in an afternoon), or the database's background
 * work after a heavy run, falls on both sides of a ratio.
 */
async function backToBack(route: Run, baseline: Run, connections: number, rounds: number) {
  const measured: { route: Measured; base: Measured }[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      const base = await baseline(connections);
      measured.push({ base, route: await route(connections) });
    } else {
      const routeMeasured = await route(connections);
      measured.push({ route: routeMeasured, base: await baseline(connections) });
    }
  }
  return measured;
}

function pathRow(r: Route, connections: number, rounds: { route: Measured; base: Measured }[]): PathRow {
  const ratios = rounds.map((x) => x.route.rps / x.base.rps);
  return {
    route: r.route,
    connections,
    rps: median(rounds.map((x) => x.route.rps)),
    p50: median(rounds.map((x) => x.route.p50)),
    p99: median(rounds.map((x) => x.route.p99)),
    errors: rounds.reduce((n, x) => n + x.route.errors, 0),
    baseline: BASELINE_NAMES[r.baseline],
    baselineRps: median(rounds.map((x) => x.base.rps)),
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
  };
}
