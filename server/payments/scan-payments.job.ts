import type { ChainWatch } from '../chains/chain-adapter';
import type { Deps } from '../deps';
import { networkLanes, type Job } from '../jobs/job';
import { scanPayments } from './scan-payments';

/** A runner's scan state per network: its watch, and when its slower reads last ran. */
type Lane = { watch: ChainWatch | undefined; slowReadAt: number };
const lanes = new WeakMap<Deps, Map<string, Lane>>();

/**
 * Finds payments nobody reported. The job runs often (every second by default) and cheaply: a
 * watched network (Solana's account notifications, EVM's new blocks) reads only what changed,
 * plus a slow backstop every SCAN_POLL_SECONDS; a network without a watch is read in full at that
 * slower pace, as before push notice existed.
 */
export const scanPaymentsJob: Job = {
  name: 'scan-payments',
  schedule: (config) => config.JOB_SCAN_PAYMENTS_CRON,
  lanes: networkLanes,
  // Activity on a network (a watched account changed) scans it at once, and checks its reported
  // payments: the schedule is the backstop.
  start(deps, wake) {
    const open = new Map<string, Lane>();
    for (const chain of deps.chains.all()) {
      const watch = chain.openWatch?.(() => {
        wake('scan-payments', chain.network);
        wake('verify-payments', chain.network);
      });
      // The first slow read comes a period after start: a watch reads every account once it is
      // connected anyway, so polling them all while it connects would read them twice.
      open.set(chain.network, { watch, slowReadAt: Date.now() });
    }
    lanes.set(deps, open);
    return () => {
      for (const lane of open.values()) lane.watch?.close();
      lanes.delete(deps);
    };
  },
  run(deps, { workerId, lane, full }) {
    const state = lane === undefined || full ? undefined : lanes.get(deps)?.get(lane);
    if (!state) return scanPayments(deps, { owner: workerId, network: lane });
    const now = Date.now();
    const slowReadDue = now - state.slowReadAt >= deps.config.SCAN_POLL_SECONDS * 1000;
    // Without a watch: read in full every SCAN_POLL_SECONDS.
    if (!state.watch && !slowReadDue) return Promise.resolve(0);
    if (slowReadDue) state.slowReadAt = now;
    return scanPayments(deps, {
      owner: workerId,
      network: lane,
      watch: state.watch,
      slowRead: slowReadDue,
    });
  },
};
