import type { Deps } from '../deps';
import { appendAuditSql } from '../events/audit';
import { appendEventsSql, type DeliveryTarget } from '../events/append-events';
import { claimKeysSql, type IdempotencyScope } from './idempotency';
import type { OrderView } from './present-order';
import { takeAmountsSql } from './unique-amount';

/** A new order's row: every column but the identity, written as it is (no column left to a default). */
export type NewOrderRow = Omit<OrderView, 'id'>;

/** A new order and what is written with it: its first audit entry, its order.created event and delivery tasks. */
export type CreatedOrder = {
  order: NewOrderRow;
  audit: Record<string, unknown>;
  /** The order.created event; its body presents `order`, the row as written. */
  event: { id: string; body: string };
  targets: DeliveryTarget[];
  /**
   * Checked by the statement itself, whatever the caller read before: the token's version is
   * still the merchant's (no order under a token a password change ended). The wallet is checked
   * to be still in use too.
   */
  tokenVersion: number;
  /** Reserves the order's amount with it (the common case: the price's amount is free). */
  reservation?: { heldUntil: Date };
  /** Claims the Idempotency-Key (the order's merchant's) with the response already in it. */
  idempotency?: { scope: IdempotencyScope; response: { status: number; body: unknown } };
};

export type InsertOutcome =
  { inserted: true; orderId: string } | { inserted: false; blockedBy: 'amount' | 'key' | 'token' | 'wallet' };

type SqlType = 'text' | 'uuid' | 'bigint' | 'boolean' | 'int' | 'jsonb' | 'timestamptz';

/** Every column of a new order with its type: a field added to orders must be added here to compile. */
const ORDER_COLUMNS: { [K in keyof NewOrderRow]-?: SqlType } = {
  reference: 'text',
  merchantId: 'uuid',
  walletId: 'uuid',
  network: 'text',
  token: 'text',
  tokenMint: 'text',
  recipient: 'text',
  amountUnits: 'bigint',
  amountReceivedUnits: 'bigint',
  amountUnique: 'boolean',
  amountRefundedUnits: 'bigint',
  quoteCurrency: 'text',
  quoteUnits: 'bigint',
  fxRate: 'text',
  fxSource: 'text',
  quotedAt: 'timestamptz',
  status: 'text',
  description: 'text',
  metadata: 'jsonb',
  webhookUrl: 'text',
  returnUrl: 'text',
  messengerChatId: 'text',
  txId: 'text',
  paidAt: 'timestamptz',
  paidLate: 'boolean',
  expiresAt: 'timestamptz',
  createdAt: 'timestamptz',
  updatedAt: 'timestamptz',
};

/** What each new order brings beside its row. */
type Extras = {
  tokenVersion: number;
  reserve: boolean;
  heldUntil: Date | null;
  audit: Record<string, unknown>;
  eventId: string;
  eventBody: string;
  idemKey: string | null;
  idemHash: string | null;
  idemStatus: number | null;
  idemBody: unknown;
};
const EXTRA_COLUMNS: { [K in keyof Extras]-?: SqlType } = {
  tokenVersion: 'int',
  reserve: 'boolean',
  heldUntil: 'timestamptz',
  audit: 'jsonb',
  eventId: 'text',
  eventBody: 'text',
  idemKey: 'text',
  idemHash: 'text',
  idemStatus: 'int',
  idemBody: 'jsonb',
};
type InputRow = NewOrderRow & Extras;
const INPUT_COLUMNS = Object.entries({ ...ORDER_COLUMNS, ...EXTRA_COLUMNS }) as [keyof InputRow, SqlType][];

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const orderColumns = Object.keys(ORDER_COLUMNS).map(snake);

/** The input as one row of scalar values: what a single creation binds. */
const ONE_ROW = `SELECT ${INPUT_COLUMNS.map(([n, type]) => `CAST($${n} AS ${type}) AS ${snake(n)}`).join(', ')}`;
/** The input as one array per column, unnested into rows: what a batch binds. */
const MANY_ROWS = `SELECT * FROM unnest(${INPUT_COLUMNS.map(([n, type]) => `CAST($${n} AS ${type}[])`).join(', ')})
                     AS t(${INPUT_COLUMNS.map(([n]) => snake(n)).join(', ')})`;

/**
 * The creation statement over new orders `input` selects: each order checked (token version,
 * wallet in use), its amount reserved (takeAmountsSql) and its Idempotency-Key claimed
 * (claimKeysSql), then, only for the orders all of that went through, the order, its audit entry
 * (appendAuditSql), its event, delivery tasks and the senders' wake-up (appendEventsSql). One
 * statement (data-modifying CTEs: atomic, no BEGIN/COMMIT): creation is the hot path. Each order's
 * row of the answer says what became of it.
 */
function creationStatement(input: string): string {
  const events = appendEventsSql(
    `SELECT i.event_id AS id, o.id AS order_id, i.merchant_id, 'order.created' AS type, i.event_body AS body,
            i.created_at AS at
       FROM o JOIN i USING (reference)`,
    `SELECT event_id, channel, target
       FROM unnest(CAST($deliveryEvent AS text[]), CAST($deliveryChannel AS text[]), CAST($deliveryTarget AS text[]))
         AS d(event_id, channel, target)`,
  );
  return `
  WITH i AS (${input}),
       c AS (SELECT i.reference,
                    EXISTS (SELECT 1 FROM merchants WHERE id = i.merchant_id AND token_version = i.token_version)
                      AS token_current,
                    -- FOR SHARE: a removal in progress (server/wallets/delete-wallet.ts locks the wallet FOR
                    -- UPDATE) is waited for and then seen; one that comes after waits for this order and counts it.
                    EXISTS (SELECT 1 FROM wallets WHERE id = i.wallet_id AND merchant_id = i.merchant_id
                               AND deleted_at IS NULL FOR SHARE) AS wallet_in_use
               FROM i),
       r AS (${takeAmountsSql(
         `SELECT i.network, i.recipient, i.token_mint, i.amount_units, i.reference, i.held_until
            FROM i JOIN c USING (reference) WHERE i.reserve AND c.token_current AND c.wallet_in_use`,
         'CAST($now AS timestamptz)',
       )}),
       ok AS (SELECT i.reference, i.merchant_id, i.idem_key,
                     NOT i.reserve OR i.reference IN (SELECT reference FROM r) AS reserved
                FROM i JOIN c USING (reference)
               WHERE c.token_current AND c.wallet_in_use),
       claims AS (${claimKeysSql(
         `SELECT i.merchant_id, i.idem_key AS key, i.idem_hash AS request_hash, i.idem_status AS response_status,
                 i.idem_body AS response_body
            FROM i JOIN ok USING (reference) WHERE ok.reserved AND i.idem_key IS NOT NULL`,
       )}),
       o AS (INSERT INTO orders (${orderColumns.join(', ')})
             SELECT ${orderColumns.map((c) => `i.${c}`).join(', ')}
               FROM i JOIN ok USING (reference)
              WHERE ok.reserved
                AND (ok.idem_key IS NULL OR (ok.merchant_id, ok.idem_key) IN (SELECT merchant_id, key FROM claims))
             RETURNING id, reference),
       a AS (${appendAuditSql(
         `SELECT o.id AS order_id, 'order.created' AS type, 'merchant' AS actor, i.audit AS data, i.created_at AS at
            FROM o JOIN i USING (reference)`,
       )}),
       ${events.ctes}
  SELECT c.reference, c.token_current, c.wallet_in_use, coalesce(ok.reserved, false) AS reserved, o.id AS order_id,
         ${events.woken} AS woken
    FROM c LEFT JOIN ok USING (reference) LEFT JOIN o USING (reference)`;
}

/**
 * One statement, two ways of binding its input: for one order, scalars (the arrays' unnesting cost
 * a lone creation more than the rest of its planning and execution; measured in npm run bench);
 * for several, one array per column.
 */
const FOR_ONE = creationStatement(ONE_ROW);
const FOR_MANY = creationStatement(MANY_ROWS);

/** What the statement answers for one order. */
type OrderAnswer = {
  reference: string;
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

/** A value as the statement binds it: bigints and JSON as their text, absent as NULL. */
function bound(value: unknown, type: SqlType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'bigint') return String(value);
  if (type === 'jsonb') return JSON.stringify(value);
  return value;
}

function inputRow(created: CreatedOrder): InputRow {
  const claim = created.idempotency;
  if (claim && claim.scope.merchantId !== created.order.merchantId)
    throw new Error("an order claims its own merchant's Idempotency-Key");
  return {
    ...created.order,
    tokenVersion: created.tokenVersion,
    reserve: created.reservation !== undefined,
    heldUntil: created.reservation?.heldUntil ?? null,
    audit: created.audit,
    eventId: created.event.id,
    eventBody: created.event.body,
    idemKey: claim?.scope.key ?? null,
    idemHash: claim?.scope.requestHash ?? null,
    idemStatus: claim?.response.status ?? null,
    idemBody: claim?.response.body ?? null,
  };
}

/**
 * Writes new orders (one, or several at once under load: server/orders/write-created-order.ts),
 * each as it would be alone. No two of them may reserve one amount or claim one Idempotency-Key:
 * a statement cannot take one row twice.
 */
export async function insertCreatedOrders(
  deps: Pick<Deps, 'db' | 'clock'>,
  orders: CreatedOrder[],
): Promise<InsertOutcome[]> {
  const rows = orders.map(inputRow);
  const one = rows.length === 1;
  const bind: Record<string, unknown> = {
    now: deps.clock(),
    deliveryEvent: orders.flatMap((o) => o.targets.map(() => o.event.id)),
    deliveryChannel: orders.flatMap((o) => o.targets.map((t) => t.channel)),
    deliveryTarget: orders.flatMap((o) => o.targets.map((t) => t.target)),
  };
  for (const [name, type] of INPUT_COLUMNS) {
    const values = rows.map((row) => bound(row[name], type));
    bind[name] = one ? values[0] : values;
  }
  const answer = await deps.db.prepared.run<OrderAnswer>(one ? FOR_ONE : FOR_MANY, bind);
  const byReference = new Map(answer.map((row) => [row.reference, row]));
  return orders.map((created) => {
    const row = byReference.get(created.order.reference);
    if (!row) throw new Error('order statement answered without one of its orders');
    return outcomeOf(row);
  });
}
