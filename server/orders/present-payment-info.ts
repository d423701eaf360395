import type { z } from 'zod';
import type { ZPaymentInfo } from '../../contract';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { amountDueUnits, sharedOrderFields, type OrderView } from './present-order';

/** What the payer's page shows: no merchant e-mail, webhook URL, metadata or secrets. */
export function presentPaymentInfo(
  deps: Pick<Deps, 'config' | 'chains'>,
  order: OrderView,
  merchantName: string | null,
): z.infer<typeof ZPaymentInfo> {
  return Object.assign(sharedOrderFields(deps, order, merchantName), {
    amountDue: formatAmount(amountDueUnits(order), order.tokenDecimals),
    merchantName,
  });
}
