import { runPrepared } from '../db/prepared-statement';
import type { Deps } from '../deps';
import { WAKE_CHANNEL } from '../jobs/wake-up';
import { keyExpired, type IdempotencyScope } from './idempotency';
import { takeAmountIfFree } from './unique-amount';

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
  /**
   * Checked by the statement itself, whatever the caller read before: the token's version is
   * still the merchant's (no order under a token a password change ended) and the wallet is still
   * in use.
   */
  tokenVersion: number;
};

export type InsertOutcome =
  { inserted: true; orderId: string } | { inserted: false; blockedBy: 'amount' | 'key' | 'token' | 'wallet' };

/** What a creation statement answers for one order, the same for both statements. */
type OrderAnswer = {
  token_current: boolean;
  wallet_in_use: boolean;
  reserved: boolean;
  order_id: string | null;
};

/** Why an order was not written, in the order the statement checks: token, wallet, amount, key. */
function outcomeOf(row: OrderAnswer): InsertOutcome {
  if (row.order_id) return { inserted: true, orderId: String(row.order_id) };
  if (!row.token_current) return { inserted: false, blockedBy: 'token' };
  if (!row.wallet_in_use) return { inserted: false, blockedBy: 'wallet' };
  return { inserted: false, blockedBy: row.reserved ? 'key' : 'amount' };
}

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

/** A value as the statements bind it: bigints and JSON as their text, absent as NULL. */
function bound(value: unknown, cast: string): unknown {
  if (value === undefined || value === null) return null;
  if (cast === 'bigint') return String(value);
  if (cast === 'jsonb') return JSON.stringify(value);
  return value;
}

/** The statement's text for one shape of creation, built once per shape. */
const statements = new Map<string, string>();
function statementFor(shape: { reserve: boolean; claim: boolean; targets: number }): string {
  const key = `${shape.reserve}:${shape.claim}:${shape.targets}`;
  let text = statements.get(key);
  if (text) return text;
  const reserve = shape.reserve
    ? `INSERT INTO amount_reservations AS x (network, recipient, token_mint, amount_units, reference, held_until)
       SELECT CAST($network AS text), CAST($recipient AS text), CAST($tokenMint AS text), CAST($amountUnits AS bigint),
              CAST($reference AS text), CAST($heldUntil AS timestamptz)
        WHERE (SELECT ok FROM v)
       ${takeAmountIfFree('x', 'CAST($now AS timestamptz)')}
       RETURNING 1`
    : 'SELECT 1 WHERE (SELECT ok FROM v)';
  const claim = shape.claim
    ? `INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash, response_status, response_body)
       SELECT CAST($idemMerchant AS uuid), CAST($idemKey AS text), CAST($idemHash AS text), CAST($idemStatus AS int),
              CAST($idemBody AS jsonb) WHERE EXISTS (SELECT 1 FROM r)
       ON CONFLICT (merchant_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
             response_body = EXCLUDED.response_body, created_at = now()
         WHERE ${keyExpired('k')}
       RETURNING 1`
    : 'SELECT 1 WHERE EXISTS (SELECT 1 FROM r)';
  const targets = Array.from(
    { length: shape.targets },
    (_, i) => `(CAST($channel${i} AS text), CAST($target${i} AS text))`,
  );
  const deliveries = targets.length
    ? `INSERT INTO event_deliveries (event_id, channel, target, next_attempt_at, created_at, updated_at)
       SELECT e.id, t.channel, t.target, CAST($at AS timestamptz), CAST($at AS timestamptz), CAST($at AS timestamptz)
         FROM e, (VALUES ${targets.join(', ')}) AS t(channel, target)
       RETURNING 1`
    : 'SELECT 1 WHERE false';
  text = `WITH c AS (SELECT EXISTS (SELECT 1 FROM merchants WHERE id = CAST($merchantId AS uuid)
                                  AND token_version = CAST($tokenVersion AS int)) AS token_current,
                       -- FOR SHARE: a removal in progress (server/wallets/delete-wallet.ts locks the wallet
                       -- FOR UPDATE) is waited for and then seen; one that comes after waits for this
                       -- order and counts it. The foreign key already locks this row in key-share mode.
                       EXISTS (SELECT 1 FROM wallets WHERE id = CAST($walletId AS uuid)
                                  AND merchant_id = CAST($merchantId AS uuid) AND deleted_at IS NULL
                                  FOR SHARE) AS wallet_in_use),
          v AS (SELECT token_current AND wallet_in_use AS ok FROM c),
          r AS (${reserve}),
          k AS (${claim}),
          o AS (INSERT INTO orders (${ORDER_COLUMNS.map(([c]) => c).join(', ')})
                SELECT ${ORDER_COLUMNS.map(([, n, cast]) => `CAST($${n} AS ${cast})`).join(', ')}
                 WHERE EXISTS (SELECT 1 FROM k)
                RETURNING id),
          a AS (INSERT INTO audit_entries (order_id, type, actor, data, created_at)
                SELECT id, 'order.created', 'merchant', CAST($audit AS jsonb), CAST($at AS timestamptz) FROM o),
          e AS (INSERT INTO events (id, order_id, merchant_id, type, body, created_at)
                SELECT CAST($eventId AS text), id, CAST($eventMerchantId AS uuid), 'order.created', CAST($eventBody AS text),
                       CAST($at AS timestamptz) FROM o
                RETURNING id),
          d AS (${deliveries})
     SELECT c.token_current, c.wallet_in_use,
            EXISTS (SELECT 1 FROM r) AS reserved,
            (SELECT id FROM o) AS order_id,
            -- The senders of every instance start on the tasks once this commits (server/jobs/wake-up.ts).
            CASE WHEN EXISTS (SELECT 1 FROM d) THEN pg_notify($wakeChannel, 'deliver-events') END AS woken
       FROM c`;
  statements.set(key, text);
  return text;
}

/**
 * Writes a new order in ONE statement (data-modifying CTEs: atomic on its own, no BEGIN/COMMIT):
 * the merchant's token and the wallet checked, its amount reservation and Idempotency-Key claim,
 * then, only if all went through, the order, its audit entry, its event and delivery tasks, and
 * the wake-up of the senders. One round trip instead of seven: order creation is the hot path. A
 * prepared statement (planned once per connection), values bound, never written into the text
 * (escaping them in JavaScript cost more than running the statement).
 */
export async function insertCreatedOrder(
  deps: Pick<Deps, 'db' | 'clock'>,
  rows: CreatedOrderRows,
): Promise<InsertOutcome> {
  const o = rows.order;
  const bind: Record<string, unknown> = {
    at: rows.at,
    audit: JSON.stringify(rows.audit),
    eventId: rows.event.id,
    eventMerchantId: rows.event.merchantId,
    eventBody: rows.event.body,
    now: deps.clock(),
    wakeChannel: WAKE_CHANNEL,
    tokenVersion: rows.tokenVersion,
  };
  for (const [, name, cast] of ORDER_COLUMNS) bind[name] = bound(o[name], cast);
  if (rows.reservation) bind.heldUntil = rows.reservation.heldUntil;
  if (rows.idempotency) {
    const { scope, response } = rows.idempotency;
    Object.assign(bind, {
      idemMerchant: scope.merchantId,
      idemKey: scope.key,
      idemHash: scope.requestHash,
      idemStatus: response.status,
      idemBody: JSON.stringify(response.body),
    });
  }
  rows.deliveries.forEach((d, i) => {
    bind[`channel${i}`] = d.channel;
    bind[`target${i}`] = d.target;
  });
  const text = statementFor({
    reserve: rows.reservation !== undefined,
    claim: rows.idempotency !== undefined,
    targets: rows.deliveries.length,
  });

  const [result] = await runPrepared<OrderAnswer>(deps.db.sequelize, text, bind);
  if (!result) throw new Error('order insert returned no row');
  return outcomeOf(result);
}

/** The per-order values of the batch statement beside the order's own columns, with their casts. */
const BATCH_EXTRA: [string, string][] = [
  ['tokenVersion', 'int'],
  ['reserve', 'boolean'],
  ['heldUntil', 'timestamptz'],
  ['audit', 'jsonb'],
  ['eventId', 'text'],
  ['eventMerchantId', 'uuid'],
  ['eventBody', 'text'],
  ['at', 'timestamptz'],
  // The Idempotency-Key claim, NULL without one (the key is the merchant's: the order's merchant).
  ['idemKey', 'text'],
  ['idemHash', 'text'],
  ['idemStatus', 'int'],
  ['idemBody', 'jsonb'],
];
const BATCH_COLUMNS: [string, string][] = [
  ...ORDER_COLUMNS.map(([, n, cast]): [string, string] => [n, cast]),
  ...BATCH_EXTRA,
];
const column = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The statement insertCreatedOrder runs, for several orders at once (kept apart from it: for one
 * order this one costs PostgreSQL twice the CPU, measured at one connection, 400 vs 590 a second): each order's values come as
 * one array per column (unnested into rows), each order checked, reserved, its Idempotency-Key
 * claimed and written as alone. Orders whose checks, reservation or claim fail are left out, and
 * said so in their row of the answer.
 */
const BATCH_STATEMENT = `
  WITH i AS (SELECT * FROM unnest(${BATCH_COLUMNS.map(([n, cast]) => `CAST($${n} AS ${cast}[])`).join(', ')})
               AS t(${BATCH_COLUMNS.map(([n]) => column(n)).join(', ')})),
       c AS (SELECT i.reference,
                    EXISTS (SELECT 1 FROM merchants WHERE id = i.merchant_id AND token_version = i.token_version)
                      AS token_current,
                    -- FOR SHARE, as in the single statement: a removal in progress is waited for.
                    EXISTS (SELECT 1 FROM wallets WHERE id = i.wallet_id AND merchant_id = i.merchant_id
                               AND deleted_at IS NULL FOR SHARE) AS wallet_in_use
               FROM i),
       r AS (INSERT INTO amount_reservations AS x (network, recipient, token_mint, amount_units, reference, held_until)
             SELECT i.network, i.recipient, i.token_mint, i.amount_units, i.reference, i.held_until
               FROM i JOIN c USING (reference)
              WHERE i.reserve AND c.token_current AND c.wallet_in_use
             ${takeAmountIfFree('x', 'CAST($now AS timestamptz)')}
             RETURNING reference),
       ok AS (SELECT i.reference, i.merchant_id, i.idem_key,
                     NOT i.reserve OR i.reference IN (SELECT reference FROM r) AS reserved
                FROM i JOIN c USING (reference)
               WHERE c.token_current AND c.wallet_in_use),
       claims AS (INSERT INTO idempotency_keys AS k (merchant_id, key, request_hash, response_status, response_body)
                  SELECT i.merchant_id, i.idem_key, i.idem_hash, i.idem_status, i.idem_body
                    FROM i JOIN ok USING (reference)
                   WHERE ok.reserved AND i.idem_key IS NOT NULL
                  ON CONFLICT (merchant_id, key) DO UPDATE
                    SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
                        response_body = EXCLUDED.response_body, created_at = now()
                    WHERE ${keyExpired('k')}
                  RETURNING merchant_id, key),
       o AS (INSERT INTO orders (${ORDER_COLUMNS.map(([c]) => c).join(', ')})
             SELECT ${ORDER_COLUMNS.map(([c]) => `i.${c}`).join(', ')}
               FROM i JOIN ok USING (reference)
              WHERE ok.reserved
                AND (ok.idem_key IS NULL OR (ok.merchant_id, ok.idem_key) IN (SELECT merchant_id, key FROM claims))
             RETURNING id, reference),
       a AS (INSERT INTO audit_entries (order_id, type, actor, data, created_at)
             SELECT o.id, 'order.created', 'merchant', i.audit, i.at FROM o JOIN i USING (reference)),
       e AS (INSERT INTO events (id, order_id, merchant_id, type, body, created_at)
             SELECT i.event_id, o.id, i.event_merchant_id, 'order.created', i.event_body, i.at
               FROM o JOIN i USING (reference)
             RETURNING id),
       d AS (INSERT INTO event_deliveries (event_id, channel, target, next_attempt_at, created_at, updated_at)
             SELECT e.id, t.channel, t.target, i.at, i.at, i.at
               FROM unnest(CAST($deliveryReference AS text[]), CAST($deliveryChannel AS text[]),
                           CAST($deliveryTarget AS text[])) AS t(reference, channel, target)
               JOIN i USING (reference) JOIN e ON e.id = i.event_id
             RETURNING 1)
  SELECT c.reference, c.token_current, c.wallet_in_use, coalesce(ok.reserved, false) AS reserved, o.id AS order_id,
         (SELECT CASE WHEN EXISTS (SELECT 1 FROM d) THEN pg_notify($wakeChannel, 'deliver-events') END) AS woken
    FROM c LEFT JOIN ok USING (reference) LEFT JOIN o USING (reference)`;

/**
 * Several new orders in ONE statement (see insertCreatedOrder for one): under load, concurrent
 * creations are written together (server/orders/write-created-order.ts), which spreads the
 * statement's fixed costs (start-up over five tables and fourteen indexes, the round trip, the
 * commit) over them: pgbench, 4 orders a statement, 3.4 times the orders a second of one each.
 * No two of the orders may reserve one amount or claim one Idempotency-Key.
 */
export async function insertCreatedOrders(
  deps: Pick<Deps, 'db' | 'clock'>,
  orders: CreatedOrderRows[],
): Promise<InsertOutcome[]> {
  const bind: Record<string, unknown[] | unknown> = { now: deps.clock(), wakeChannel: WAKE_CHANNEL };
  for (const [name] of BATCH_COLUMNS) bind[name] = [];
  const deliveries = {
    deliveryReference: [] as string[],
    deliveryChannel: [] as string[],
    deliveryTarget: [] as string[],
  };
  for (const rows of orders) {
    const claim = rows.idempotency;
    if (claim && claim.scope.merchantId !== rows.order.merchantId)
      throw new Error("an order claims its own merchant's Idempotency-Key");
    const values: Record<string, unknown> = {
      ...rows.order,
      tokenVersion: rows.tokenVersion,
      reserve: rows.reservation !== undefined,
      heldUntil: rows.reservation?.heldUntil ?? null,
      audit: rows.audit,
      eventId: rows.event.id,
      eventMerchantId: rows.event.merchantId,
      eventBody: rows.event.body,
      at: rows.at,
      idemKey: claim?.scope.key ?? null,
      idemHash: claim?.scope.requestHash ?? null,
      idemStatus: claim?.response.status ?? null,
      idemBody: claim?.response.body ?? null,
    };
    for (const [name, cast] of BATCH_COLUMNS) (bind[name] as unknown[]).push(bound(values[name], cast));
    for (const d of rows.deliveries) {
      deliveries.deliveryReference.push(String(rows.order.reference));
      deliveries.deliveryChannel.push(d.channel);
      deliveries.deliveryTarget.push(d.target);
    }
  }
  Object.assign(bind, deliveries);
  const answer = await runPrepared<OrderAnswer & { reference: string }>(
    deps.db.sequelize,
    BATCH_STATEMENT,
    bind,
  );
  const byReference = new Map(answer.map((row) => [row.reference, row]));
  return orders.map((rows): InsertOutcome => {
    const row = byReference.get(String(rows.order.reference));
    if (!row) throw new Error('order batch answered without one of its orders');
    return outcomeOf(row);
  });
}
