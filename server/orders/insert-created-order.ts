import type { Deps } from '../deps';
import { bound, INPUT, inputRow, type CreatedOrder, type InsertOutcome } from './created-order';
import { creationStatement } from './creation-statements';

export type { CreatedOrder, InsertOutcome, NewOrderRow } from './created-order';

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

/** The statement's values: one per column for one order, an array per column for several. */
function bindings(orders: CreatedOrder[], now: Date): Record<string, unknown> {
  const rows = orders.map(inputRow);
  const one = rows.length === 1;
  const bind: Record<string, unknown> = {
    now,
    deliveryEvent: orders.flatMap((o) => o.targets.map(() => o.event.id)),
    deliveryChannel: orders.flatMap((o) => o.targets.map((t) => t.channel)),
    deliveryTarget: orders.flatMap((o) => o.targets.map((t) => t.target)),
  };
  for (const { name, type } of INPUT)
    bind[name] = one ? bound(rows[0]![name], type) : rows.map((row) => bound(row[name], type));
  const options = one ? orders[0]!.order.paymentOptions : null;
  if (options) {
    bind.optWallet = [...new Set(options.map((o) => o.walletId))];
    bind.optNetwork = options.map((o) => o.network);
    bind.optRecipient = options.map((o) => o.recipient);
    bind.optTokenMint = options.map((o) => o.tokenMint);
    bind.optAmount = options.map((o) => o.amountUnits);
  }
  return bind;
}

const hasOptions = (created: CreatedOrder) => (created.order.paymentOptions?.length ?? 0) > 0;

/**
 * Writes new orders (one, or several at once under load: server/orders/write-created-order.ts),
 * each as it would be alone, in one statement (server/orders/creation-statements.ts). No two of
 * them may reserve one amount or claim one Idempotency-Key: a statement cannot take one row twice.
 */
export async function insertCreatedOrders(
  deps: Pick<Deps, 'db' | 'clock'>,
  orders: CreatedOrder[],
): Promise<InsertOutcome[]> {
  // An order with payment options beyond the first is written alone (its options ride as arrays).
  if (orders.length > 1 && orders.some(hasOptions)) {
    const plain = orders.filter((o) => !hasOptions(o));
    const [written, ...alone] = await Promise.all([
      plain.length > 0 ? insertCreatedOrders(deps, plain) : [],
      ...orders.filter(hasOptions).map((o) => insertCreatedOrders(deps, [o])),
    ]);
    const outcomes = new Map<CreatedOrder, InsertOutcome>();
    plain.forEach((o, i) => outcomes.set(o, written![i]!));
    orders.filter(hasOptions).forEach((o, i) => outcomes.set(o, alone[i]![0]!));
    return orders.map((o) => outcomes.get(o)!);
  }
  const text = creationStatement(orders.length, {
    reserve: orders.some((o) => o.reservation),
    claim: orders.some((o) => o.idempotency),
    deliver: orders.some((o) => o.targets.length > 0),
    options: orders.some(hasOptions),
  });
  const answer = await deps.db.prepared.run<OrderAnswer>(text, bindings(orders, deps.clock()));
  const byReference = new Map(answer.map((row) => [row.reference, row]));
  return orders.map((created) => {
    const row = byReference.get(created.order.reference);
    if (!row) throw new Error('order statement answered without one of its orders');
    return outcomeOf(row);
  });
}
