import type { Migration } from '../migrate';

/** A migration step that is one SQL script, run as given (most steps are). */
export const runSql =
  (script: string): Migration =>
  async ({ context: db }) => {
    await db.query(script);
  };
