import type { Transaction } from 'sequelize';
import type { PayoutEventType } from '../../contract';
import type { Payout, PayoutItem } from '../db/models';
import type { Deps } from '../deps';
import { eventActorFields, type Actor } from '../events/actor';
import { emitMerchantEvent } from '../events/emit-merchant-event';
import { presentPayoutItem, presentPayoutSummaries } from './present-payout';

/**
 * Writes a payout event (the batch as it is now, without items, and the item it is about) and its
 * delivery tasks in the caller's transaction: to the merchant's webhook URL and messenger chat.
 * Merchants pinned to a version before payouts existed are sent none (null).
 */
export async function emitPayoutEvent(
  deps: Pick<Deps, 'db' | 'cache'>,
  transaction: Transaction,
  payout: Payout,
  type: PayoutEventType,
  at: Date,
  item?: PayoutItem,
  actor?: Actor,
): Promise<string | null> {
  const merchant = await deps.cache.merchants.get(payout.merchantId);
  if (!merchant) throw new Error(`payout ${payout.id} has no merchant`);
  return emitMerchantEvent(deps, transaction, merchant, {
    type,
    at,
    orderId: null,
    data: async () => {
      const [summary] = await presentPayoutSummaries(deps, [payout], transaction);
      return {
        payout: summary,
        ...(item ? { item: presentPayoutItem(item) } : {}),
        ...eventActorFields(actor),
      };
    },
  });
}
