import type { Job } from '../jobs/job';
import { sendDueEmails } from './send-due-emails';

export const sendEmailsJob: Job = {
  name: 'send-emails',
  schedule: (config) => config.JOB_SEND_EMAILS_CRON,
  run: (deps, { workerId, signal }) =>
    sendDueEmails(deps, { workerId, batchSize: deps.config.JOB_BATCH_SIZE, signal }),
};
