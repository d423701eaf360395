import { expireDueOrders } from './expire-due-orders';
import type { Job } from '../jobs/job';

export const expireOrdersJob: Job = {
  name: 'expire-orders',
  schedule: (config) => config.JOB_EXPIRE_ORDERS_CRON,
  run: (deps) => expireDueOrders(deps, { batchSize: deps.config.JOB_BATCH_SIZE }),
};
