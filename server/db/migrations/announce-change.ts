// Shared by the migrations that put a table's rows on the change feed (server/db/change-feed.ts),
// in the exact text they were applied with: it is the stored body of each function.

/**
 * CREATE FUNCTION `name`() for a row trigger: announces `payload` (an SQL expression of OLD/NEW)
 * on `stablepay_changes`, delivered when the change commits.
 */
export function announceChange(name: string, payload: string) {
  return `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('stablepay_changes', ${payload});
      RETURN NULL;
    END $$;`;
}
