import { QueryTypes, type Transaction } from 'sequelize';
import type { Transfer } from '../chains/chain-adapter';
import type { Database } from '../db/database';
import { payableCutoff, watchedSql, type PayableRule } from '../orders/payable';

/**
 * How far a block time and the server clock may disagree: a payment matched without its tag
 * may not predate its order by more than this.
 */
export const CLOCK_SKEW_MS = 60_000;

/** The transfers of `token` to `recipient` in a transaction. */
export function transfersTo(transfers: Transfer[], recipient: string, token: string): Transfer[] {
  return transfers.filter((t) => t.to === recipient && t.token === token);
}

/** What a transaction credited to `recipient` in `token`, in base units. */
export function creditedTo(transfers: Transfer[], recipient: string, token: string): bigint {
  return transfersTo(transfers, recipient, token).reduce((sum, t) => sum + t.amountUnits, 0n);
}

/** Who paid: the sender of the largest transfer to the recipient. */
export function senderTo(transfers: Transfer[], recipient: string, token: string): string | null {
  const sorted = transfersTo(transfers, recipient, token).sort((a, b) =>
    a.amountUnits > b.amountUnits ? -1 : a.amountUnits < b.amountUnits ? 1 : a.position - b.position,
  );
  return sorted[0]?.from ?? null;
}

/** A receiving account: a wallet's address and a token on a network, of the merchant that owns it. */
export type PaymentScope = { network: string; recipient: string; tokenMint: string; merchantId: string };

/** An order with a payment option to a scope, and that option. */
export type OptionMatch = { id: string; reference: string; optionIndex: number };

/** `payment_options @>` this: the orders with an option to the scope (the partial GIN index of migration 0021). */
const containing = (scope: PaymentScope) =>
  JSON.stringify([{ network: scope.network, recipient: scope.recipient, tokenMint: scope.tokenMint }]);

/**
 * The payment options to `scope` (an order's own fields, or one of its `payment_options`) as rows
 * `(id, reference, option_index, amount_units, amount_unique, decimals, created_at, scale)` of orders
 * that `where` (SQL on the orders alias `o`) keeps; `scale` turns the option's units into the
 * order's sum units (server/orders/payment-options.ts).
 */
const optionsToScope = (where: string) => `
  SELECT o.id, o.reference, o.status, 0 AS option_index, o.amount_units, o.amount_unique, o.amount_received_units,
         o.created_at, power(10::numeric, coalesce(o.sum_decimals, o.token_decimals) - o.token_decimals) AS scale
    FROM orders o
   WHERE o.network = :network AND o.recipient = :recipient AND o.token_mint = :tokenMint
     AND o.merchant_id = :merchantId AND ${where}
  UNION ALL
  SELECT o.id, o.reference, o.status, opt.i::int AS option_index, (opt.v->>'amountUnits')::numeric, (opt.v->>'amountUnique')::boolean,
         o.amount_received_units, o.created_at,
         power(10::numeric, coalesce(o.sum_decimals, o.token_decimals) - (opt.v->>'decimals')::int)
    FROM orders o CROSS JOIN LATERAL jsonb_array_elements(o.payment_options) WITH ORDINALITY AS opt(v, i)
   WHERE o.payment_options @> CAST(:containing AS jsonb) AND o.merchant_id = :merchantId AND ${where}
     AND opt.v->>'network' = :network AND opt.v->>'recipient' = :recipient AND opt.v->>'tokenMint' = :tokenMint`;

/**
 * The exact-amount rule, the one place it is decided: an untagged transfer is the evidence of the
 * one order it matches, by that order's full amount or by what is still due on it, when that amount
 * is the order's own (unique). Matching none, it is no order's; matching several (a remainder is
 * not reserved as a full amount is, and an order made when no free amount was left shares its
 * amount), it is nobody's: it stays unattributed, for the merchant to attribute or its sender to
 * report with proof. `matches` as ordersPaidExactly reads them: two tell a shared amount.
 */
export const amountEvidence = <T extends AmountMatch>(matches: readonly T[]): T | null =>
  matches.length === 1 && matches[0]!.unique ? matches[0]! : null;

/**
 * An order an amount matches, and whether that amount is its own (unique, reserved) or one it shares
 * (`amountUnique: false`, made when no free amount was left): a shared amount is never an order's
 * evidence, but it still makes the amount several orders', so nobody's.
 */
export type AmountMatch = { reference: string; unique: boolean };

/** Rows ordersPaidExactly reads: enough to tell one order's amount from one several orders match. */
const ENOUGH_TO_TELL = 2;

/**
 * The "exact amount" candidates: watched orders of the scope's merchant with an option to it whose
 * amount, or amount still due (rounded up to the option's units), is exactly `units`, each once,
 * at most two, shared amounts (`amountUnique: false`) included (amountEvidence decides what they
 * are evidence of). Only a unique amount identifies an order: amounts shared by several orders are
 * nobody's evidence. A PAID order (within its late
 * window) counts only while it still holds the amount it is paid with again (an overpayment).
 * `createdBy`: only orders made by then (a transfer does not pay an order made after it);
 * `except`: leave out this order.
 */
export async function ordersPaidExactly(
  db: Pick<Database, 'sequelize'>,
  scope: PaymentScope,
  units: bigint,
  opts: {
    payable: PayableRule;
    createdBy?: Date;
    except?: string;
    transaction?: Transaction;
  },
): Promise<(OptionMatch & AmountMatch)[]> {
  const rows = await db.sequelize.query<{
    id: string;
    reference: string;
    option_index: number;
    unique: boolean;
  }>(
    `SELECT DISTINCT ON (id) id, reference, option_index, amount_unique AS unique
       FROM (${optionsToScope(
         // x402 orders are paid by their own claim, never matched by amount (server/x402/).
         `${watchedSql('o')} AND o.kind = 'order' ${opts.createdBy ? 'AND o.created_at <= :createdBy' : ''}
          ${opts.except ? 'AND o.id <> :except' : ''}`,
       )}) AS option
      WHERE (amount_units = :units OR ceil((amount_units * scale - amount_received_units) / scale) = :units)
        AND (status <> 'PAID'
             OR EXISTS (SELECT 1 FROM amount_reservations r
                         WHERE r.network = :network AND r.recipient = :recipient AND r.token_mint = :tokenMint
                           AND r.amount_units = :units AND r.reference = option.reference
                           AND r.held_until > :now))
      ORDER BY id, option_index
      LIMIT ${ENOUGH_TO_TELL}`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        ...scope,
        containing: containing(scope),
        units: units.toString(),
        payableCutoff: payableCutoff(opts.payable),
        now: opts.payable.now,
        createdBy: opts.createdBy ?? null,
        except: opts.except ?? null,
      },
      transaction: opts.transaction,
    },
  );
  return rows.map((r) => ({
    id: String(r.id),
    reference: r.reference,
    optionIndex: Number(r.option_index),
    unique: r.unique,
  }));
}

/** The order an untagged transfer of `units` to the scope pays by its amount (amountEvidence), if one does. */
export async function orderPaidExactly(
  db: Pick<Database, 'sequelize'>,
  scope: PaymentScope,
  units: bigint,
  opts: { payable: PayableRule; createdBy?: Date; transaction?: Transaction },
): Promise<OptionMatch | null> {
  return amountEvidence(await ordersPaidExactly(db, scope, units, opts));
}

/** The time by which an order must exist to be paid by an untagged transfer of `blockTime`. */
export const untaggedCreatedBy = (blockTime: Date | null): Date | undefined =>
  blockTime ? new Date(blockTime.getTime() + CLOCK_SKEW_MS) : undefined;

/**
 * Whether one of `tags` names an order, any merchant's: a transaction naming an order is that
 * order's payment (one transaction pays one order), so no other transfer in it (a batch payout to
 * another wallet) is any order's evidence by its amount, whichever wallet is scanned first.
 */
export async function namesAnOrder(
  db: Pick<Database, 'sequelize'>,
  tags: readonly string[],
): Promise<boolean> {
  if (tags.length === 0) return false;
  const rows = await db.sequelize.query(`SELECT 1 FROM orders WHERE reference IN (:tags) LIMIT 1`, {
    type: QueryTypes.SELECT,
    replacements: { tags },
  });
  return rows.length > 0;
}

/** The order of the scope's merchant with an option to the scope that one of `tags` names (its reference). */
export async function orderNamed(
  db: Pick<Database, 'sequelize'>,
  scope: PaymentScope,
  tags: string[],
  opts: { except?: string; transaction?: Transaction } = {},
): Promise<OptionMatch | null> {
  if (tags.length === 0) return null;
  const [row] = await db.sequelize.query<{ id: string; reference: string; option_index: number }>(
    `SELECT id, reference, option_index FROM (${optionsToScope(
      `o.reference IN (:tags) ${opts.except ? 'AND o.id <> :except' : ''}`,
    )}) AS option ORDER BY id LIMIT 1`,
    {
      type: QueryTypes.SELECT,
      replacements: { ...scope, containing: containing(scope), tags, except: opts.except ?? null },
      transaction: opts.transaction,
    },
  );
  return row ? { id: String(row.id), reference: row.reference, optionIndex: Number(row.option_index) } : null;
}
