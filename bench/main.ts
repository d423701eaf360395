/**
 * Benchmarks of the hot paths: order creation, listing, QR codes, the Solana payment path, a scan
 * cycle, webhook delivery, the EVM (Polygon) payment path and scan cycle, TRON's idle scan cycle,
 * wake-ups, and the request path against bare baselines. A script that measures and prints, never
 * a test (timings belong here, not in assertions), and not run by `npm test`.
 *
 * Everything runs on 127.0.0.1: an embedded PostgreSQL in a fresh temporary folder, a local Solana
 * chain (litesvm behind JSON-RPC), a local EVM chain (a Hardhat node, chain id 137, in a child
 * process) when an EVM part runs, a local TRON chain when tron-scan runs, the server with its
 * background jobs turned off and run by hand (so every measured run does the same work), and a
 * local webhook receiver. The detection part starts a second server, with every job on its default
 * schedule, on a database of its own. All of it is stopped and the folder deleted at the end, on
 * failure and on Ctrl-C too.
 *
 *   npm run bench                      # every part
 *   npm run bench -- --only evm        # some parts: a comma list of
 *                                      #   orders, listing, qr, payments, scan, webhooks,
 *                                      #   evm-payments, evm-scan, tron-scan, wakeups, detection,
 *                                      #   request-path, dashboard, subscriptions, sandbox, x402, payouts,
 *                                      #   or the groups solana, evm
 *   npm run bench -- --help            # every option (request-path: --seconds, --rounds, --depth-rows;
 *                                      #   detection: --idle-seconds, --samples)
 *
 * The numbers are for comparing runs on the same machine, not absolute figures. The sandbox part
 * is the exception: `npm run sandbox` spawned as a user runs it, and payments on it, against issue
 * 31's absolute goals; it needs none of the stack above, which `--only sandbox` does not start.
 */
import { benchEvmPayments } from './evm-payments';
import { benchEvmScan } from './evm-scan';
import { benchDetection } from './detection/bench';
import { detectionSummary } from './detection/summary';
import { createOrders } from './fixtures';
import { createCleanup, finisher, stopOnSignals, type Cleanup } from './lib/cleanup';
import { progress } from './lib/progress';
import { benchListing } from './listing';
import { now, type Report } from './measure';
import { parseOptions, type Options, type Part, type RequestPathOptions } from './options';
import { benchCreateOrders } from './orders';
import { benchQr } from './qr';
import { hostFacts, machineFacts, printReport } from './report';
import { benchDashboard, benchRequestPath } from './request-path/bench';
import { printPathReport } from './request-path/report';
import { SIZES } from './settings';
import { benchScan } from './solana-scan';
import { benchPayments } from './solana-payments';
import { benchPayouts } from './payouts';
import { benchSandbox } from './sandbox';
import { setUp, type Ctx } from './stack';
import { benchSubscriptions } from './subscriptions';
import { benchTronScan } from './tron-scan';
import { benchWakeups } from './wakeups';
import { benchWebhooks } from './webhooks';
import { benchX402 } from './x402';

/** Per cleanup step: a stuck step must not keep the others (or the process) waiting forever. */
const CLEANUP_STEP_TIMEOUT_MS = 30_000;

async function runBenches(ctx: Ctx, { parts, detection }: Options): Promise<Report> {
  const report: Report = { rows: [], notes: [] };
  if (parts.has('orders') || parts.has('listing') || parts.has('qr')) {
    // Listing and QR codes work on orders of their own; unmeasured when POST /orders is not a part.
    const created = parts.has('orders')
      ? await benchCreateOrders(ctx, report)
      : await createOrders(ctx, SIZES.qr);
    const [template] = created;
    if (!template) throw new Error('no order was created');
    if (parts.has('listing')) await benchListing(ctx, report, template.reference);
    if (parts.has('qr')) await benchQr(ctx, report, created);
  }
  if (parts.has('payments')) await benchPayments(ctx, report);
  if (parts.has('scan')) await benchScan(ctx, report);
  if (parts.has('webhooks')) await benchWebhooks(ctx, report);
  if (parts.has('evm-payments')) await benchEvmPayments(ctx, report);
  if (parts.has('evm-scan')) await benchEvmScan(ctx, report);
  if (parts.has('tron-scan')) await benchTronScan(ctx, report);
  if (parts.has('x402')) await benchX402(ctx, report);
  if (parts.has('payouts')) await benchPayouts(ctx, report);
  if (parts.has('wakeups')) await benchWakeups(ctx, report);
  if (parts.has('subscriptions')) await benchSubscriptions(ctx, report);
  // Last: its summary reads the webhooks part's figures, and its server runs every job meanwhile.
  if (parts.has('detection')) await benchDetection(ctx, report, detection);
  return report;
}

async function runRequestPath(cleanup: Cleanup, opts: RequestPathOptions): Promise<void> {
  const path = await benchRequestPath(cleanup.add, progress, opts);
  console.log(
    '\nrequest path, each route against its bare baseline in the same run (ratio = req/s ÷ baseline req/s,\n' +
      'the median of rounds measuring both back to back; medians of req/s and latencies)\n',
  );
  printPathReport(path, (line) => console.log(line));
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if ('exitCode' in options) return options.exitCode;
  const { parts } = options;
  const cleanup = createCleanup(CLEANUP_STEP_TIMEOUT_MS);
  const finish = finisher(cleanup);
  const run = stopOnSignals(finish, progress);

  try {
    const started = now();
    if ([...parts].some((part) => part !== 'sandbox')) {
      const evm = (['evm-payments', 'evm-scan', 'detection', 'x402', 'payouts'] satisfies Part[]).some(
        (part) => parts.has(part),
      );
      const ctx = await setUp(cleanup, { evm, tron: parts.has('tron-scan') });
      const facts = await machineFacts(ctx);
      const report = await runBenches(ctx, options);
      printReport(facts, report);
      if (parts.has('request-path')) await runRequestPath(cleanup, options.requestPath);
      if (parts.has('dashboard'))
        for (const note of await benchDashboard(cleanup.add, progress, options.requestPath))
          console.log(`- ${note}`);
      for (const line of detectionSummary(report)) console.log(line);
    }
    if (parts.has('sandbox')) {
      const report: Report = { rows: [], notes: [] };
      await benchSandbox(cleanup.add, report);
      printReport(hostFacts(), report);
    }
    console.log(`\nwhole run (set-up included): ${((now() - started) / 1000).toFixed(1)} s`);
    return await finish(0);
  } catch (error) {
    // Interrupted: what fails next is the cleanup pulling the stack away, not a finding.
    if (!run.interrupted)
      console.error('bench failed:', error instanceof Error ? (error.stack ?? error.message) : error);
    return finish(1);
  }
}

// Exit explicitly once everything is cleaned up (keep-alive sockets must not hold the process).
main().then((code) => process.exit(code));
