/**
 * The request path against the stack's limit (npm run bench -- --only request-path): the service
 * and bare Express + pg baselines run as processes of their own on one PostgreSQL, driven by
 * autocannon from this process in the same run, at 1 and 32 connections. What is reported is each
 * route's throughput as a ratio to its baseline (absolute figures on a shared machine are noise).
 */
import type { RequestPathOptions } from '../options';
import { dashboardAtScale } from './dashboard';
import { pagesAtDepth } from './depth';
import { checkIdempotency } from './idempotency';
import { seedMerchant } from './merchant';
import type { PathReport } from './report';
import { measureRoutes, pathLoads, warmUp } from './routes';
import { startPathStack, type AddCleanup } from './stack';

export async function benchRequestPath(
  cleanup: AddCleanup,
  progress: (m: string) => void,
  opts: RequestPathOptions,
): Promise<PathReport> {
  const stack = await startPathStack(cleanup, progress);
  const merchant = await seedMerchant(stack);
  const loads = pathLoads(stack, merchant, opts.seconds);
  await warmUp(loads, stack.databaseUrl);
  const rows = await measureRoutes(loads, opts.rounds, progress);
  const notes = [
    await checkIdempotency(stack, merchant),
    await pagesAtDepth(stack, merchant, opts.depthRows, progress),
  ];
  return { rows, notes };
}

/** The dashboard part (npm run bench -- --only dashboard): its figures and export at scale, on a stack of its own. */
export async function benchDashboard(
  cleanup: AddCleanup,
  progress: (m: string) => void,
  opts: RequestPathOptions,
): Promise<string[]> {
  const stack = await startPathStack(cleanup, progress);
  const merchant = await seedMerchant(stack);
  return dashboardAtScale(
    stack,
    merchant,
    { count: opts.dashboardOrders, seconds: opts.seconds, rounds: opts.rounds },
    progress,
  );
}
