import { permissionsOf, type Permission } from '../../contract';
import type { Caches, MemberRow, MerchantRow } from '../db/caches';

/**
 * Who a credential (login token, dashboard session, API key) acts as: the member and its account,
 * from the caches (a change to either is announced to every instance when it commits), and what
 * the member's role may do, the role's shared Set: the per-request permission check is a lookup.
 * Null when the member is gone, removed, or (`version` given) its token version has moved on, or
 * the account is gone.
 *
 * A sign-in (`version` given: a login token or a dashboard session) is also null while the account
 * requires two-factor sign-in and the member has none (its tokens of before stop; only a setup
 * token, `enrolling`, opens the enrolment). An API key is not a sign-in and keeps working.
 */
export async function memberCredential(
  caches: Pick<Caches, 'members' | 'merchants'>,
  memberId: string,
  version: number | null,
  enrolling = false,
): Promise<{ member: MemberRow; merchant: MerchantRow; permissions: ReadonlySet<Permission> } | null> {
  const member = await caches.members.get(memberId);
  if (!member || member.removedAt || (version !== null && member.tokenVersion !== version)) return null;
  const merchant = await caches.merchants.get(member.merchantId);
  if (!merchant) return null;
  if (version !== null && !enrolling && merchant.requireTwoFactor && !member.twoFactorEnabledAt) return null;
  return { member, merchant, permissions: permissionsOf(member.role) };
}
