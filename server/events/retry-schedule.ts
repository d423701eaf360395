import type { Config } from '../config';

/**
 * The one retry schedule of every outbox (webhooks, messenger messages, customers' e-mails): after
 * failed attempt n the next comes WEBHOOK_RETRY_BASE_MS · 2^(n−1) later, and attempt
 * WEBHOOK_MAX_ATTEMPTS is the last (42 s and 12: about 24 h). SQL fragments, because each recorder
 * decides in the statement that locks the row it moves on; `$retryBaseMs` and `$maxAttempts` are
 * bound from `retrySchedule(config)`.
 */
export type RetryConfig = Pick<Config, 'WEBHOOK_RETRY_BASE_MS' | 'WEBHOOK_MAX_ATTEMPTS'>;

/** The bindings the fragments below read. */
export const retrySchedule = (config: RetryConfig) => ({
  retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
  maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
});

/** The delay in ms (float8) before the attempt after failed attempt number `attempt` (an SQL expression). */
export const retryDelayMsSql = (attempt: string) => `CAST($retryBaseMs AS float8) * 2 ^ (${attempt} - 1)`;

/** Whether attempt number `attempt` (an SQL expression) was the last one allowed. */
export const lastAttemptSql = (attempt: string) => `${attempt} >= CAST($maxAttempts AS int)`;
