import { deliverDueEvents } from './deliver-events';
import type { Job } from '../jobs/job';

export const deliverEventsJob: Job = {
  name: 'deliver-events',
  schedule: (config) => config.JOB_DELIVER_EVENTS_CRON,
  run: (deps, { workerId, signal }) =>
    deliverDueEvents(deps, { workerId, batchSize: deps.config.JOB_BATCH_SIZE, signal }),
};
