import { QueryTypes, type Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { OPEN_STATUSES } from './order-status';

/** At most this many base units (0.001 token) are added to make an amount unique. */
export const MAX_AMOUNT_ADJUSTMENT = 1000n;

/**
 * Payments that carry no reference (EVM transfers, Solana wallets that drop it) are matched by
 * recipient and exact amount, so two watched orders to one recipient must never share an amount.
 * Takes a transaction-scoped lock on the recipient so concurrent creations queue, then returns the
 * smallest free amount >= `amount`.
 */
export async function uniqueAmount(
  deps: Pick<Deps, 'db' | 'config'>,
  target: { network: string; recipient: string; tokenMint: string; amountUnits: bigint },
  transaction: Transaction,
): Promise<bigint> {
  const { sequelize } = deps.db;
  const replacements = {
    ...target,
    lockKey: `${target.network}:${target.recipient}:${target.tokenMint}`,
    low: target.amountUnits.toString(),
    high: (target.amountUnits + MAX_AMOUNT_ADJUSTMENT).toString(),
    open: [...OPEN_STATUSES],
    lateWindow: deps.config.LATE_PAYMENT_WINDOW_SECONDS,
  };
  await sequelize.query('SELECT pg_advisory_xact_lock(hashtextextended(:lockKey, 0))', {
    replacements,
    transaction,
  });
  const taken = await sequelize.query<{ amount_units: string }>(
    `SELECT amount_units FROM orders
      WHERE network = :network AND recipient = :recipient AND token_mint = :tokenMint
        AND amount_units BETWEEN :low AND :high
        AND (status IN (:open)
             OR (status = 'EXPIRED' AND expires_at > now() - make_interval(secs => :lateWindow)))`,
    { type: QueryTypes.SELECT, replacements, transaction },
  );
  const used = new Set(taken.map((r) => BigInt(r.amount_units)));
  for (let amount = target.amountUnits; amount <= target.amountUnits + MAX_AMOUNT_ADJUSTMENT; amount++)
    if (!used.has(amount)) return amount;
  throw ApiError.conflict('Too many open orders with this amount to this wallet; try again later');
}
