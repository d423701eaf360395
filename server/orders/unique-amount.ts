import { Op, type Transaction } from 'sequelize';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { payableNow, payableWhere } from './payable';

/** At most this many base units (0.001 token) are added to make an amount unique. */
export const MAX_AMOUNT_ADJUSTMENT = 1000n;

/**
 * Payments that carry no tag (plain EVM transfers from the EIP-681 link, Solana wallets that drop
 * the reference) are matched by recipient and exact amount, so two payable orders to one recipient
 * must never share an amount. Takes a transaction-scoped lock on the recipient so concurrent
 * creations queue, then returns the smallest free amount >= `amount`.
 */
export async function uniqueAmount(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  target: { network: string; recipient: string; tokenMint: string; amountUnits: bigint },
  transaction: Transaction,
): Promise<bigint> {
  const { sequelize, models } = deps.db;
  await sequelize.query('SELECT pg_advisory_xact_lock(hashtextextended(:lockKey, 0))', {
    replacements: { lockKey: `${target.network}:${target.recipient}:${target.tokenMint}` },
    transaction,
  });
  const taken = await models.Order.findAll({
    attributes: ['amountUnits'],
    where: {
      network: target.network,
      recipient: target.recipient,
      tokenMint: target.tokenMint,
      amountUnits: {
        [Op.between]: [
          target.amountUnits.toString(),
          (target.amountUnits + MAX_AMOUNT_ADJUSTMENT).toString(),
        ],
      },
      ...payableWhere(payableNow(deps)),
    } as never,
    transaction,
  });
  const used = new Set(taken.map((o) => o.amountUnits));
  for (let amount = target.amountUnits; amount <= target.amountUnits + MAX_AMOUNT_ADJUSTMENT; amount++)
    if (!used.has(amount)) return amount;
  throw ApiError.conflict('Too many open orders with this amount to this wallet; try again later');
}
