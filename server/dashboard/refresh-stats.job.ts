import type { Job } from '../jobs/job';
import { refreshDashboardStats } from './refresh-stats';

export const refreshDashboardStatsJob: Job = {
  name: 'refresh-dashboard-stats',
  schedule: (config) => config.JOB_REFRESH_DASHBOARD_STATS_CRON,
  run: (deps) => refreshDashboardStats(deps),
};
