import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/** A wallet that sent transfers credited to an order, and what they credited on one of its payment options. */
export type CreditedSender = {
  sender: string;
  /** The sum of its verified transfers on the option, in that option's token base units. */
  paidUnits: bigint;
};

/**
 * The wallets that sent the transfers credited to an order (its payments ledger's `from`): the
 * payer, as far as the chain tells; each with what it paid on `optionIndex` (0 when it paid only on
 * other options), in one read. A sender proves it was a payer, not how much the order owes it.
 */
export async function creditedSenders(
  deps: Pick<Deps, 'db'>,
  orderId: string,
  optionIndex: number,
): Promise<CreditedSender[]> {
  const rows = await deps.db.sequelize.query<{ sender: string; units: string }>(
    `SELECT sender, coalesce(sum(amount_units) FILTER (WHERE option_index = :optionIndex), 0) AS units
       FROM payment_claims
      WHERE order_id = :orderId AND status = 'VERIFIED' AND sender IS NOT NULL
      GROUP BY sender
      ORDER BY min(id)`,
    { type: QueryTypes.SELECT, replacements: { orderId, optionIndex } },
  );
  return rows.map((r) => ({ sender: r.sender, paidUnits: BigInt(r.units) }));
}
