import type { z } from 'zod';
import type { ZPaymentInfo } from '../../contract';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { formatUnits } from '../lib/decimal';
import { fxRateLabel, paymentLinks } from '../orders/present-order';

/** What the payer's page shows: no merchant e-mail, webhook URL, metadata or secrets. */
export function presentPaymentInfo(
  deps: Pick<Deps, 'config' | 'chains'>,
  order: Order,
  merchantName: string | null,
): z.infer<typeof ZPaymentInfo> {
  const due = order.amountUnits - order.amountReceivedUnits;
  return {
    reference: order.reference,
    status: order.status,
    network: order.network,
    token: order.token,
    amount: formatUnits(order.amountUnits),
    amountReceived: formatUnits(order.amountReceivedUnits),
    amountDue: formatUnits(due > 0n ? due : 0n),
    tokenMintOrContract: order.tokenMint,
    recipient: order.recipient,
    merchantName,
    description: order.description,
    quoteCurrency: order.quoteCurrency,
    quoteAmount: order.quoteUnits === null ? null : formatUnits(order.quoteUnits, 6, 2),
    fxRateLabel: fxRateLabel(order),
    ...paymentLinks(deps, order, merchantName),
    expiresAt: order.expiresAt.toISOString(),
    paidAt: order.paidAt ? order.paidAt.toISOString() : null,
    paidLate: order.paidLate,
    txId: order.txId,
  };
}
