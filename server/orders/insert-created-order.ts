import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';
import { WAKE_CHANNEL } from '../jobs/wake-up';
import { IDEMPOTENCY_WINDOW_HOURS, type IdempotencyScope } from './idempotency';

/** The rows a new order is: the order, its first audit entry, its order.created event and delivery tasks. */
export type CreatedOrderRows = {
  order: Record<string, unknown>;
  audit: Record<string, unknown>;
  event: { id: string; merchantId: string; body: string };
  deliveries: { channel: 'webhook' | 'messenger'; target: string }[];
  at: Date;
  /** Claims the Idempotency-Key with the response already in it. */
  idempotency?: { scope: IdempotencyScope; response: { status: number; body: unknown } };
  /** Reserves the order's amount in the same statement (the common case: the price's amount is free). */
  reservation?: { heldUntil: Date };
};

export type InsertOutcome =
  { inserted: true; orderId: string } | { inserted: false; blockedBy: 'amount' | 'key' };

/** Columns of orders written at creation, in the order of the statement's values. */
const ORDER_COLUMNS: [string, string, string][] = [
  // [column, replacement, cast]
  ['reference', 'reference', 'text'],
  ['merchant_id', 'merchantId', 'uuid'],
  ['wallet_id', 'walletId', 'uuid'],
  ['network', 'network', 'text'],
  ['token', 'token', 'text'],
  ['token_mint', 'tokenMint', 'text'],
  ['recipient', 'recipient', 'text'],
  ['amount_units', 'amountUnits', 'bigint'],
  ['amount_unique', 'amountUnique', 'boolean'],
  ['quote_currency', 'quoteCurrency', 'text'],
  ['quote_units', 'quoteUnits', 'bigint'],
  ['fx_rate', 'fxRate', 'text'],
  ['fx_source', 'fxSource', 'text'],
  ['quoted_at', 'quotedAt', 'timestamptz'],
  ['status', 'status', 'text'],
  ['description', 'description', 'text'],
  ['metadata', 'metadata', 'jsonb'],
  ['webhook_url', 'webhookUrl', 'text'],
  ['return_url', 'returnUrl', 'text'],
  ['messenger_chat_id', 'messengerChatId', 'text'],
  ['expires_at', 'expiresAt', 'timestamptz'],
  ['created_at', 'createdAt', 'timestamptz'],
  ['updated_at', 'updatedAt', 'timestamptz'],
];

/**
 * Writes a new order in ONE statement (data-modifying CTEs: atomic on its own, no BEGIN/COMMIT):
 * its amount reservation and Idempotency-Key claim first, then, only if both went through, the
 * order, its audit entry, its event and delivery tasks, and the wake-up of the senders. One round
 * trip instead of seven: order creation is the hot path.
 */
export async function insertCreatedOrder(
  deps: Pick<Deps, 'db' | 'clock'>,
  rows: CreatedOrderRows,
): Promise<InsertOutcome> {
  const o = rows.order;
  const replacements: Record<string, unknown> = {
    ...Object.fromEntries(
      ORDER_COLUMNS.map(([, name, cast]) => {
        const value = o[name];
        if (value === undefined || value === null) return [name, null];
        if (cast === 'bigint') return [name, String(value)];
        if (cast === 'jsonb') return [name, JSON.stringify(value)];
        return [name, value];
      }),
    ),
    at: rows.at,
    audit: JSON.stringify(rows.audit),
    eventId: rows.event.id,
    eventMerchantId: rows.event.merchantId,
    eventBody: rows.event.body,
    now: deps.clock(),
    wakeChannel: WAKE_CHANNEL,
  };
  const reserve = rows.reservation
    ? `INSERT INTO amount_reservations AS x (network, recipient, token_mint, amount_units, reference, held_until)
       VALUES (:network, :recipient, :tokenMint, CAST(:amountUnits AS bigint), :reference, CAST(:heldUntil AS timestamptz))
       ON CONFLICT (network, recipient, token_mint, amount_units) DO UPDATE
         SET reference = EXCLUDED.reference, held_until = EXCLUDED.held_until WHERE x.held_until <= :now
       RETURNING 1`
    : 'SELECT 1';
  if (rows.reservation) replacements.heldUntil = rows.reservation.heldUntil;
  const claim = rows.idempotency
    ? `INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash, response_status, response_body)
       SELECT :idemMerchant, :idemKey, :idemHash, :idemStatus, CAST(:idemBody AS jsonb) WHERE EXISTS (SELECT 1 FROM r)
       ON CONFLICT (merchant_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
             response_body = EXCLUDED.response_body, created_at = now()
         WHERE k.created_at <= now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'
       RETURNING 1`
    : 'SELECT 1 WHERE EXISTS (SELECT 1 FROM r)';
  if (rows.idempotency) {
    const { scope, response } = rows.idempotency;
    Object.assign(replacements, {
      idemMerchant: scope.merchantId,
      idemKey: scope.key,
      idemHash: scope.requestHash,
      idemStatus: response.status,
      idemBody: JSON.stringify(response.body),
    });
  }
  const targets = rows.deliveries.map((d, i) => {
    replacements[`channel${i}`] = d.channel;
    replacements[`target${i}`] = d.target;
    return `(:channel${i}, :target${i})`;
  });
  const deliveries = targets.length
    ? `INSERT INTO event_deliveries (event_id, channel, target, next_attempt_at, created_at, updated_at)
       SELECT e.id, t.channel, t.target, :at, :at, :at FROM e, (VALUES ${targets.join(', ')}) AS t(channel, target)
       RETURNING 1`
    : 'SELECT 1 WHERE false';

  const [result] = await deps.db.sequelize.query<{
    reserved: number;
    claimed: number;
    order_id: string | null;
  }>(
    `WITH r AS (${reserve}),
          k AS (${claim}),
          o AS (INSERT INTO orders (${ORDER_COLUMNS.map(([c]) => c).join(', ')})
                SELECT ${ORDER_COLUMNS.map(([, n, cast]) => `CAST(:${n} AS ${cast})`).join(', ')}
                 WHERE EXISTS (SELECT 1 FROM k)
                RETURNING id),
          a AS (INSERT INTO audit_entries (order_id, type, actor, data, created_at)
                SELECT id, 'order.created', 'merchant', CAST(:audit AS jsonb), :at FROM o),
          e AS (INSERT INTO events (id, order_id, merchant_id, type, body, created_at)
                SELECT :eventId, id, :eventMerchantId, 'order.created', :eventBody, :at FROM o
                RETURNING id),
          d AS (${deliveries})
     SELECT (SELECT count(*) FROM r)::int AS reserved, (SELECT count(*) FROM k)::int AS claimed,
            (SELECT id FROM o) AS order_id,
            -- The senders of every instance start on the tasks once this commits (server/jobs/wake-up.ts).
            CASE WHEN EXISTS (SELECT 1 FROM d) THEN pg_notify(:wakeChannel, 'deliver-events') END AS woken`,
    { type: QueryTypes.SELECT, replacements },
  );
  if (result?.order_id) return { inserted: true, orderId: String(result.order_id) };
  return { inserted: false, blockedBy: result && result.reserved === 0 ? 'amount' : 'key' };
}
