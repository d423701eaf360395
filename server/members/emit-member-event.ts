import type { Transaction } from 'sequelize';
import type { MemberEventType } from '../../contract';
import { callerFields } from '../events/actor';
import type { MemberRow } from '../db/caches';
import type { Deps } from '../deps';
import { emitMerchantEvent } from '../events/emit-merchant-event';

/**
 * A member event (`member.*`) in the caller's transaction, naming who did it, sent where the
 * account's events go (its webhook and messenger). Merchants pinned to a version before member
 * events get none.
 */
export async function emitMemberEvent(
  deps: Pick<Deps, 'db' | 'cache' | 'clock'>,
  transaction: Transaction,
  event: { merchantId: string; type: MemberEventType; by: Pick<MemberRow, 'id' | 'email'>; data: object },
): Promise<void> {
  const merchant = await deps.cache.merchants.get(event.merchantId);
  if (!merchant) throw new Error(`no merchant ${event.merchantId}`);
  await emitMerchantEvent(deps, transaction, merchant, {
    type: event.type,
    at: deps.clock(),
    orderId: null,
    data: () => ({ ...event.data, ...callerFields({ member: event.by, apiKey: null }) }),
  });
}
