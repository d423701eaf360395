import type { AccountPatch } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/**
 * PATCH /account. `requireTwoFactor` is the owner's alone (`account:security`), and a person's
 * (not an API key's). Turning it on stops, at their next request on every instance, the tokens and
 * sessions of members without two-factor (server/auth/member-credential.ts reads the merchant row,
 * whose change is announced); they are sent to enrol when they sign in.
 */
export async function updateAccount(
  deps: Pick<Deps, 'db'>,
  user: Pick<Express.User, 'merchant' | 'member' | 'permissions' | 'apiKey'>,
  patch: AccountPatch,
): Promise<{ requireTwoFactor: boolean }> {
  let requireTwoFactor = user.merchant.requireTwoFactor;
  if (patch.requireTwoFactor !== undefined) {
    if (!user.permissions.has('account:security'))
      throw ApiError.forbidden('Only the owner may require two-factor sign-in: needs account:security');
    if (user.apiKey)
      throw ApiError.forbidden('Requiring two-factor sign-in needs the login token, not an API key');
    // Else the owner's own sign-in would stop with the switch.
    if (patch.requireTwoFactor && !user.member.twoFactorEnabledAt)
      throw ApiError.conflict('Turn on your own two-factor sign-in before requiring it of everyone');
    await deps.db.models.Merchant.update(
      { requireTwoFactor: patch.requireTwoFactor },
      { where: { id: user.merchant.id } },
    );
    requireTwoFactor = patch.requireTwoFactor;
  }
  return { requireTwoFactor };
}
