import type { Transaction } from 'sequelize';
import { versionKnowsEventType, type MemberEventType } from '../../contract';
import { callerFields } from '../events/actor';
import { appendEvent, eventApiVersion, eventBody, newEventId } from '../events/append-events';
import type { MemberRow } from '../db/caches';
import type { Deps } from '../deps';
import { deliveryTargets } from '../orders/delivery-targets';

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
  const version = eventApiVersion(merchant);
  if (!versionKnowsEventType(version, event.type)) return;
  const id = newEventId();
  const at = deps.clock();
  await appendEvent(deps.db, transaction, {
    id,
    orderId: null,
    merchantId: merchant.id,
    type: event.type,
    body: eventBody(
      id,
      event.type,
      at,
      { ...event.data, ...callerFields({ member: event.by, apiKey: null }) },
      version,
    ),
    at,
    targets: deliveryTargets({ webhookUrl: null, messengerChatId: null }, merchant),
  });
}
