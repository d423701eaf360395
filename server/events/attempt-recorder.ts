import type { Config } from '../config';
import type { Database } from '../db/database';
import type { Metrics } from '../lib/metrics';
import { createWriteBatcher } from '../lib/write-batcher';
import { recordAttempts, type Attempt, type RecordedAttempt } from './record-attempts';

/** Attempts recorded by one statement at most. */
const MAX_BATCH = 64;

export type AttemptRecorder = (attempt: Attempt) => Promise<RecordedAttempt>;

/**
 * The one recorder of delivery attempts, for the sender's loop, test deliveries and redeliveries:
 * each attempt shares a statement (recordAttempts) with those that arrive while earlier ones are
 * being written (server/lib/write-batcher.ts), so at line rate an attempt costs a fraction of a
 * round trip, and alone while the service is quiet. A statement that fails is written again attempt
 * by attempt: one attempt the database refuses fails alone, its task sent again once its lease runs
 * out, and the others are recorded. Two attempts of one task never share a statement. One per app,
 * in its Deps.
 */
export function createAttemptRecorder(deps: {
  db: Database;
  clock: () => Date;
  config: Pick<Config, 'WEBHOOK_RETRY_BASE_MS' | 'WEBHOOK_MAX_ATTEMPTS'>;
  metrics: Pick<Metrics, 'deliveryRecordBatch'>;
}): AttemptRecorder {
  return createWriteBatcher<Attempt, RecordedAttempt>({
    writeMany: (many) => recordAttempts(deps, many),
    writeOne: async (one) => (await recordAttempts(deps, [one]))[0]!,
    conflictKeys: (attempt) => [attempt.taskId],
    // One statement at a time, the attempts that finish meanwhile in the next: in the webhooks
    // bench two at once did no better, four cost a fifth of the rate (smaller batches, more of them).
    maxInFlight: 1,
    maxBatch: MAX_BATCH,
    onBatch: (size) => deps.metrics.deliveryRecordBatch.observe(size),
  });
}
