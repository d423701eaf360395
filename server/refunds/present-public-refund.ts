import type { PublicRefund } from '../../contract';
import type { Order, Refund } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { optionOf } from '../orders/payment-options';

/** What the payer's refund page shows: no merchant settings, no reason (it is the merchant's note). */
export function presentPublicRefund(
  deps: Pick<Deps, 'chains'>,
  refund: Refund,
  order: Order,
  merchantName: string | null,
): PublicRefund {
  return {
    id: refund.id,
    status: refund.status,
    network: refund.network,
    token: optionOf(order, refund.optionIndex).token,
    amount: formatAmount(refund.amountUnits, optionOf(order, refund.optionIndex).decimals),
    to: refund.toAddress,
    merchantName,
    orderReference: order.reference,
    addressFormat: deps.chains.display(refund.network).addressFormat,
    txId: refund.txId,
    deadlineAt: refund.deadlineAt.toISOString(),
  };
}
