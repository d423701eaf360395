import type { Job } from '../jobs/job';
import { REFRESH_BATCH, refreshDashboardStats } from './refresh-stats';

/** How long one run keeps taking full batches before it leaves the rest to the next run. */
const RUN_BUDGET_MS = 5_000;

export const refreshDashboardStatsJob: Job = {
  name: 'refresh-dashboard-stats',
  schedule: (config) => config.JOB_REFRESH_DASHBOARD_STATS_CRON,
  async run(deps) {
    const started = Date.now();
    let taken = 0;
    for (;;) {
      const n = await refreshDashboardStats(deps);
      taken += n;
      if (n < REFRESH_BATCH || Date.now() - started > RUN_BUDGET_MS) return taken;
    }
  },
};
