import { QueryTypes, type Transaction } from 'sequelize';
import type { CreateRefundBody } from '../../contract';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import {
  optionsOf,
  pickOption,
  sumDecimalsOf,
  toSumUnits,
  type PaymentOption,
} from '../orders/payment-options';

/** What each payment option of an order received (verified transfers), in its own base units, by option. */
async function receivedByOption(
  deps: Pick<Deps, 'db'>,
  orderId: string,
  transaction?: Transaction,
): Promise<Map<number, bigint>> {
  const rows = await deps.db.sequelize.query<{ option_index: number; units: string }>(
    `SELECT option_index, sum(amount_units) AS units FROM payment_claims
      WHERE order_id = :orderId AND status = 'VERIFIED' GROUP BY option_index`,
    { type: QueryTypes.SELECT, replacements: { orderId }, transaction },
  );
  return new Map(rows.map((r) => [Number(r.option_index), BigInt(r.units)]));
}

/** What one payment option of the order received, in its token's base units. */
export async function receivedOn(
  deps: Pick<Deps, 'db'>,
  order: Order,
  optionIndex: number,
  transaction?: Transaction,
): Promise<bigint> {
  return (await receivedByOption(deps, order.id, transaction)).get(optionIndex) ?? 0n;
}

/**
 * The payment option a refund sends back on: the one `network` and `token` name, else the one
 * that received the most (compared exactly, in the order's sum units), the earlier on a tie. A
 * one-option order: its one option, with no read.
 */
export async function refundOption(
  deps: Pick<Deps, 'db'>,
  order: Order,
  body: Pick<CreateRefundBody, 'network' | 'token'>,
): Promise<PaymentOption> {
  if (body.network !== undefined || body.token !== undefined) return pickOption(order, body, 'body');
  const options = optionsOf(order);
  if (options.length === 1) return options[0]!;
  const received = await receivedByOption(deps, order.id);
  const sum = sumDecimalsOf(order);
  let best = options[0]!;
  let most = -1n;
  for (const option of options) {
    const units = toSumUnits(received.get(option.index) ?? 0n, option.decimals, sum);
    if (units > most) [best, most] = [option, units];
  }
  return best;
}
