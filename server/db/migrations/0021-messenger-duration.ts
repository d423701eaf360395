import { runSql } from './run-sql';

/**
 * How long each messenger send took, as webhook_deliveries.duration_ms says of webhooks (issue 28,
 * defect 9b: the messenger test answer had none). Sends recorded before this have none (NULL).
 */
export const up = runSql('ALTER TABLE messenger_deliveries ADD COLUMN duration_ms integer');

export const down = runSql('ALTER TABLE messenger_deliveries DROP COLUMN duration_ms');
