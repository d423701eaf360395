import { literal, Op, type WhereOptions } from 'sequelize';
import type { Transfer } from '../chains/chain-adapter';
import type { Order } from '../db/models';

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

/** Orders whose amount, or amount still due, is exactly `units`: the "exact amount" evidence. */
export function paysExactly(units: bigint): WhereOptions<Order> {
  // `units` is a bigint: its digits are safe in SQL.
  // Only a unique amount identifies an order: amounts shared by several orders are nobody's evidence.
  return {
    amountUnique: true,
    [Op.or]: [
      { amountUnits: units.toString() },
      literal(`amount_units - amount_received_units = ${units.toString()}`),
    ],
  } as WhereOptions<Order>;
}
