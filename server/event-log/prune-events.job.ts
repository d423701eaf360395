import type { Job } from '../jobs/job';
import { PRUNE_BATCH, pruneEvents } from './prune-events';

export const pruneEventsJob: Job = {
  name: 'prune-events',
  schedule: (config) => config.JOB_PRUNE_EVENTS_CRON,
  run: (deps) => pruneEvents(deps, { batchSize: PRUNE_BATCH }),
};
