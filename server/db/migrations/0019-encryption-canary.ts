import { runSql } from './run-sql';
import { createdAt } from './columns';

/**
 * One value sealed with DATA_ENCRYPTION_KEY on the first start (server/db/encryption-canary.ts):
 * every later start opens it, so an instance with another key (a second instance given its own,
 * a lost DATA_DIR/secrets.json) refuses to start instead of failing on each secret it reads.
 */
export const up = runSql(`
    CREATE TABLE encryption_canary (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      sealed text NOT NULL,
      ${createdAt}
    );
  `);

export const down = runSql('DROP TABLE encryption_canary');
