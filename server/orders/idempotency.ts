import { createHash } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { stableStringify } from '../lib/stable-json';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** A stored key (row `alias`) still within its window: it answers for its request. */
const keyLive = (alias: string) =>
  `${alias}.created_at > now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`;

/**
 * The one way keys are claimed: an INSERT of the claims `claims` selects (columns merchant_id,
 * key, request_hash, response_status, response_body; the response NULL while the request runs)
 * that takes a key nobody holds, or one whose window has passed; it returns the keys it took.
 * Order creation runs it inside its own statement (with the response already in it), claimKey
 * alone.
 */
export const claimKeysSql = (claims: string) =>
  `INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash, response_status, response_body)
   SELECT merchant_id, key, request_hash, response_status, response_body FROM (${claims}) AS claim
   ON CONFLICT (merchant_id, key) DO UPDATE
     SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
         response_body = EXCLUDED.response_body, created_at = now()
     WHERE NOT (${keyLive('k')})
   RETURNING merchant_id, key`;

const CLAIM_ONE = claimKeysSql(
  `SELECT CAST(:merchantId AS uuid) AS merchant_id, CAST(:key AS text) AS key,
          CAST(:requestHash AS text) AS request_hash, CAST(NULL AS int) AS response_status,
          CAST(NULL AS jsonb) AS response_body`,
);

export type IdempotencyScope = { merchantId: string; key: string; requestHash: string };
type Stored = { request_hash: string; response_status: number | null; response_body: unknown };

export function requestHash(body: unknown): string {
  return createHash('sha256').update(stableStringify(body)).digest('hex');
}

function replay<T>(stored: Stored, scope: IdempotencyScope): { status: number; body: T } | null {
  if (stored.request_hash !== scope.requestHash)
    throw ApiError.conflict(
      'Idempotency-Key was already used with a different request (its body, or who sent it)',
    );
  if (stored.response_status === null) return null;
  return { status: stored.response_status, body: stored.response_body as T };
}

/** A completed response for this key within the window, without taking any lock. */
export async function findReplay<T>(deps: Pick<Deps, 'db'>, scope: IdempotencyScope) {
  const rows = await deps.db.sequelize.query<Stored>(
    `SELECT request_hash, response_status, response_body FROM idempotency_keys AS k
      WHERE merchant_id = :merchantId AND key = :key AND ${keyLive('k')}`,
    { type: QueryTypes.SELECT, replacements: scope },
  );
  return rows[0] ? replay<T>(rows[0], scope) : null;
}

/**
 * Claims the key inside the caller's transaction. A concurrent request with the same key waits on
 * the row until the first commits, then gets its response; a key older than the window is reused.
 * Returns the earlier response to replay, or null when this request owns the key.
 */
export async function claimKey<T>(deps: Pick<Deps, 'db'>, scope: IdempotencyScope, transaction: Transaction) {
  const claimed = await deps.db.sequelize.query(CLAIM_ONE, {
    type: QueryTypes.SELECT,
    replacements: scope,
    transaction,
  });
  if (claimed.length > 0) return null;
  const [stored] = await deps.db.sequelize.query<Stored>(
    'SELECT request_hash, response_status, response_body FROM idempotency_keys WHERE merchant_id = :merchantId AND key = :key',
    { type: QueryTypes.SELECT, replacements: scope, transaction },
  );
  const earlier = stored ? replay<T>(stored, scope) : null;
  if (!earlier) throw ApiError.conflict('A request with this Idempotency-Key is still in progress');
  return earlier;
}

export async function storeResponse(
  deps: Pick<Deps, 'db'>,
  scope: IdempotencyScope,
  response: { status: number; body: unknown },
  transaction: Transaction,
) {
  await deps.db.sequelize.query(
    `UPDATE idempotency_keys SET response_status = :status, response_body = CAST(:body AS jsonb)
      WHERE merchant_id = :merchantId AND key = :key`,
    { replacements: { ...scope, status: response.status, body: JSON.stringify(response.body) }, transaction },
  );
}
