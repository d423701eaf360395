import type { z } from 'zod';
import type { ZSandboxCheckoutPayBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { readOrder } from '../orders/find-order';
import { EXPIRABLE_STATUSES } from '../orders/order-status';
import { payReadOrder } from './pay-order';
import { sandboxChains } from './sandbox-guard';

/**
 * The references whose checkout payment is being made: two clicks that arrive before
 * the first payment is reported would both find the order awaiting payment. A sandbox is one
 * process (`npm run sandbox`), so its own memory is the lock; the order's status takes over once the
 * payment is reported (CONFIRMING or PAID), before the reference leaves the set.
 */
const paying = new Set<string>();

/**
 * The checkout's "Pay with the sandbox wallet": the public page has no merchant credential, so it
 * may only do what a payer would, once: pay exactly what is due, tagged and reported, while the
 * order awaits payment. A CONFIRMING order already has a payment in flight (a second click, say)
 * and is refused, as is one past its expiry; the transfer itself is the merchant route's (payReadOrder).
 */
export async function payCheckoutOrder(
  deps: Deps,
  input: { reference: string; body: z.output<typeof ZSandboxCheckoutPayBody> },
): Promise<string> {
  const chains = sandboxChains(deps); // 404 before any read on an instance that is not a sandbox
  if (paying.has(input.reference))
    throw ApiError.conflict('A payment of this order is being made: only one is paid here');
  paying.add(input.reference);
  try {
    const order = await readOrder(deps, { reference: input.reference });
    // Awaiting payment: the statuses the expiry job closes (nothing in flight, nothing final).
    if (!EXPIRABLE_STATUSES.some((status) => status === order.status))
      throw ApiError.conflict(`The order is ${order.status}: only an order awaiting payment is paid here`);
    if (order.expiresAt.getTime() <= deps.clock().getTime())
      throw ApiError.conflict('The order has expired: only an order awaiting payment is paid here');
    return await payReadOrder(deps, chains, order, { ...input.body, tagged: true, report: true });
  } finally {
    paying.delete(input.reference);
  }
}
