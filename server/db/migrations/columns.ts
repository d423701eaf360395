// The column definitions several migrations' tables share, spelled once. Each is the exact text the
// migrations were applied with: umzug never runs a migration twice, so a text changed here would
// give fresh databases a schema deployed ones never got. A table that needs another shape spells
// it out (or gets a new name here); these never change.

/** Joins column definitions the way every CREATE TABLE in the migrations lists them: one a line. */
const columns = (...definitions: string[]) => definitions.join(',\n      ');

/** A bigint key the database numbers, for rows named only by their table. */
export const identityKey = 'id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY';

/** When the row was inserted. */
export const createdAt = 'created_at timestamptz NOT NULL DEFAULT now()';

/** When the row was inserted and last changed (server code stamps updated_at on each change). */
export const timestamps = columns(createdAt, 'updated_at timestamptz NOT NULL DEFAULT now()');

/** The account a row belongs to; the account is never deleted while it has any. */
export const merchantRef = 'merchant_id uuid NOT NULL REFERENCES merchants(id)';

/** The account a row belongs to, deleted with it. */
export const merchantRefCascading = `${merchantRef} ON DELETE CASCADE`;

/** The order a row is about. */
export const orderRef = 'order_id bigint NOT NULL REFERENCES orders(id)';

/** The job lease a worker holds on the row (server/db/lease.ts): who, and until when. */
export const lease = columns('locked_by text', 'locked_until timestamptz');
