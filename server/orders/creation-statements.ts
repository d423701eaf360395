import { appendAuditSql } from '../events/audit';
import { appendEventsSql, oneEventTargetsSql } from '../events/append-events';
import { INPUT, ORDER_INPUT } from './created-order';
import { claimKeysSql } from './idempotency';
import { ORDER_CREATED } from './order-lifecycle';
import { takeAmountsSql } from './unique-amount';

/**
 * The order-creation statements, composed from the order aggregate's rules: reserve the amount
 * (takeAmountsSql), claim the Idempotency-Key (claimKeysSql), append the audit entry
 * (appendAuditSql), append the event with its delivery tasks and the senders' wake-up
 * (appendEventsSql). Each is one statement (data-modifying CTEs: atomic, no BEGIN/COMMIT): the
 * acting member's token version (not removed) and the wallet checked, the amount reserved, the key claimed, then,
 * only if all went through, the order and what goes with it.
 *
 * Two compositions of the same rules: one order binds scalars, a batch binds one array per column,
 * unnested into rows and joined through each step. A batch of one would cost a lone creation a
 * third more CPU in Node and PostgreSQL (measured: 375 and 433 µs against 260 and 347), so one
 * order has its own composition. Parts no order of a statement uses are left out (each table a
 * statement writes costs its start-up): a shape per combination, every text made once.
 */
export type Shape = { reserve: boolean; claim: boolean; deliver: boolean; options?: boolean };

const param = (name: string, type: string) => `CAST($${name} AS ${type})`;
const orderColumnList = ORDER_INPUT.map((c) => c.column).join(', ');
/** One order: every value a parameter of its own. Answers one row. */
function forOneOrder(shape: Shape): string {
  const v = (name: string) => param(name, INPUT.find((c) => c.name === name)!.type);
  const ok = '(SELECT token_current AND wallet_in_use FROM c)';
  // Payment options beyond the first (shape.options): their wallets checked like the first's, their
  // amounts reserved with it, all or none ($optWallet: their distinct wallets; $opt…: one per option).
  const optionWallets = shape.options
    ? `AND (SELECT count(*) FROM (SELECT 1 FROM wallets WHERE id = ANY(CAST($optWallet AS uuid[]))
                                    AND merchant_id = ${v('merchantId')} AND deleted_at IS NULL FOR SHARE) AS w)
            = cardinality(CAST($optWallet AS uuid[]))`
    : '';
  const optionsReserved =
    shape.options && shape.reserve
      ? `AND (SELECT count(*) FROM r2) = cardinality(CAST($optAmount AS numeric[]))`
      : '';
  const reserveOptions =
    shape.options && shape.reserve
      ? `r2 AS (${takeAmountsSql(
          `SELECT network, recipient, token_mint, amount_units, ${v('reference')} AS reference,
                  ${v('heldUntil')} AS held_until
             FROM unnest(CAST($optNetwork AS text[]), CAST($optRecipient AS text[]), CAST($optTokenMint AS text[]),
                         CAST($optAmount AS numeric[])) AS t(network, recipient, token_mint, amount_units)
            WHERE ${ok}`,
          'CAST($now AS timestamptz)',
        )}),`
      : '';
  const events = appendEventsSql(
    `SELECT ${v('eventId')} AS id, o.id AS order_id, ${v('merchantId')} AS merchant_id,
            '${ORDER_CREATED.event}' AS type, ${v('eventBody')} AS body, ${v('createdAt')} AS at FROM o`,
    shape.deliver ? oneEventTargetsSql(v('eventId')) : null,
  );
  const reserve = shape.reserve
    ? takeAmountsSql(
        `SELECT ${v('network')} AS network, ${v('recipient')} AS recipient, ${v('tokenMint')} AS token_mint,
                ${v('amountUnits')} AS amount_units, ${v('reference')} AS reference, ${v('heldUntil')} AS held_until
          WHERE ${ok}`,
        'CAST($now AS timestamptz)',
      )
    : `SELECT 1 WHERE ${ok}`;
  const claim = shape.claim
    ? claimKeysSql(
        `SELECT ${v('merchantId')} AS merchant_id, ${v('idemKey')} AS key, ${v('idemHash')} AS request_hash,
                ${v('idemStatus')} AS response_status, ${v('idemBody')} AS response_body
          WHERE EXISTS (SELECT 1 FROM r) ${optionsReserved}`,
      )
    : `SELECT 1 WHERE EXISTS (SELECT 1 FROM r) ${optionsReserved}`;
  return `
  WITH c AS (SELECT (${v('memberId')} IS NULL
                     OR EXISTS (SELECT 1 FROM members WHERE id = ${v('memberId')} AND merchant_id = ${v('merchantId')}
                                   AND token_version = ${v('tokenVersion')} AND removed_at IS NULL)) AS token_current,
                    -- FOR SHARE: a removal in progress (server/wallets/delete-wallet.ts locks the wallet FOR
                    -- UPDATE) is waited for and then seen; one that comes after waits for this order and counts it.
                    EXISTS (SELECT 1 FROM wallets WHERE id = ${v('walletId')} AND merchant_id = ${v('merchantId')}
                               AND deleted_at IS NULL FOR SHARE) ${optionWallets} AS wallet_in_use),
       r AS (${reserve}),
       ${reserveOptions}
       k AS (${claim}),
       o AS (INSERT INTO orders (${orderColumnList})
             SELECT ${ORDER_INPUT.map((c) => param(c.name, c.type)).join(', ')}
              WHERE EXISTS (SELECT 1 FROM k)
             RETURNING id),
       a AS (${appendAuditSql(
         `SELECT o.id AS order_id, '${ORDER_CREATED.audit}' AS type, ${v('auditActor')} AS actor, ${v('audit')} AS data,
                 ${v('createdAt')} AS at FROM o`,
       )}),
       ${events.ctes}
  SELECT ${v('reference')} AS reference, c.token_current, c.wallet_in_use,
         EXISTS (SELECT 1 FROM r) ${optionsReserved} AS reserved,
         (SELECT id FROM o) AS order_id, ${events.woken} AS woken
    FROM c`;
}

/** Several orders: one array per column, unnested into the rows of `i`. Answers a row per order. */
function forManyOrders(shape: Shape): string {
  const input = `SELECT * FROM unnest(${INPUT.map((c) => param(c.name, `${c.type}[]`)).join(', ')})
                   AS t(${INPUT.map((c) => c.column).join(', ')})`;
  const events = appendEventsSql(
    `SELECT i.event_id AS id, o.id AS order_id, i.merchant_id, '${ORDER_CREATED.event}' AS type, i.event_body AS body,
            i.created_at AS at
       FROM o JOIN i USING (reference)`,
    shape.deliver
      ? `SELECT event_id, channel, target
           FROM unnest(CAST($deliveryEvent AS text[]), CAST($deliveryChannel AS text[]), CAST($deliveryTarget AS text[]))
             AS d(event_id, channel, target)`
      : null,
  );
  const reserve = shape.reserve
    ? takeAmountsSql(
        `SELECT i.network, i.recipient, i.token_mint, i.amount_units, i.reference, i.held_until
           FROM i JOIN c USING (reference) WHERE i.reserve AND c.token_current AND c.wallet_in_use`,
        'CAST($now AS timestamptz)',
      )
    : 'SELECT CAST(NULL AS text) AS reference WHERE false';
  const claim = shape.claim
    ? claimKeysSql(
        `SELECT i.merchant_id, i.idem_key AS key, i.idem_hash AS request_hash, i.idem_status AS response_status,
                i.idem_body AS response_body
           FROM i JOIN ok USING (reference) WHERE ok.reserved AND i.idem_key IS NOT NULL`,
      )
    : 'SELECT CAST(NULL AS uuid) AS merchant_id, CAST(NULL AS text) AS key WHERE false';
  return `
  WITH i AS (${input}),
       c AS (SELECT i.reference,
                    (i.member_id IS NULL
                     OR EXISTS (SELECT 1 FROM members WHERE id = i.member_id AND merchant_id = i.merchant_id
                                   AND token_version = i.token_version AND removed_at IS NULL)) AS token_current,
                    -- FOR SHARE, as for one order: a removal in progress is waited for.
                    EXISTS (SELECT 1 FROM wallets WHERE id = i.wallet_id AND merchant_id = i.merchant_id
                               AND deleted_at IS NULL FOR SHARE) AS wallet_in_use
               FROM i),
       r AS (${reserve}),
       ok AS (SELECT i.reference, i.merchant_id, i.idem_key,
                     NOT i.reserve OR i.reference IN (SELECT reference FROM r) AS reserved
                FROM i JOIN c USING (reference)
               WHERE c.token_current AND c.wallet_in_use),
       claims AS (${claim}),
       o AS (INSERT INTO orders (${orderColumnList})
             SELECT ${ORDER_INPUT.map((c) => `i.${c.column}`).join(', ')}
               FROM i JOIN ok USING (reference)
              WHERE ok.reserved
                AND (ok.idem_key IS NULL OR (ok.merchant_id, ok.idem_key) IN (SELECT merchant_id, key FROM claims))
             RETURNING id, reference),
       a AS (${appendAuditSql(
         `SELECT o.id AS order_id, '${ORDER_CREATED.audit}' AS type, i.audit_actor AS actor, i.audit AS data, i.created_at AS at
            FROM o JOIN i USING (reference)`,
       )}),
       ${events.ctes}
  SELECT c.reference, c.token_current, c.wallet_in_use, coalesce(ok.reserved, false) AS reserved, o.id AS order_id,
         ${events.woken} AS woken
    FROM c LEFT JOIN ok USING (reference) LEFT JOIN o USING (reference)`;
}

const key = (shape: Shape) => `${+shape.reserve}${+shape.claim}${+shape.deliver}${+(shape.options ?? false)}`;
const SHAPES: Shape[] = [false, true].flatMap((reserve) =>
  [false, true].flatMap((claim) => [false, true].map((deliver) => ({ reserve, claim, deliver }))),
);
const FOR_ONE = new Map(
  [false, true].flatMap((options) =>
    SHAPES.map((shape) => [key({ ...shape, options }), forOneOrder({ ...shape, options })] as const),
  ),
);
const FOR_MANY = new Map(SHAPES.map((shape) => [key(shape), forManyOrders(shape)]));

/**
 * The statement that writes `count` new orders of this shape. An order with payment options
 * beyond the first is written alone (server/orders/insert-created-order.ts).
 */
export const creationStatement = (count: number, shape: Shape): string => {
  if (count > 1 && shape.options) throw new Error('orders with payment options are written one at a time');
  return (count === 1 ? FOR_ONE : FOR_MANY).get(key(shape))!;
};
