import type { UpdateAccountBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { writeMerchant } from '../merchants/write-merchant';
import { presentAccount } from './present-account';

/**
 * PATCH /account: writes only the fields given; every instance's merchant cache drops the row
 * (change feed). `requireTwoFactor` is the owner's alone (`account:security`), and a person's (not
 * an API key's). Turning it on stops, at their next request on every instance, the tokens and
 * sessions of members without two-factor (server/auth/member-credential.ts reads the merchant row);
 * they are sent to enrol when they sign in.
 */
export async function updateAccount(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  user: Pick<Express.User, 'merchant' | 'member' | 'permissions' | 'apiKey'>,
  changes: UpdateAccountBody,
) {
  const values: Partial<MerchantRow> = { updatedAt: deps.clock() };
  if (changes.name !== undefined) values.fullName = changes.name;
  if (changes.currency !== undefined) values.currency = changes.currency;
  if (changes.tipPercentages !== undefined)
    values.tipPercentages = [...changes.tipPercentages].sort((a, b) => a - b);
  if (changes.payoutApprovals !== undefined) values.payoutApprovals = changes.payoutApprovals;
  if (changes.requireTwoFactor !== undefined) {
    if (!user.permissions.has('account:security'))
      throw ApiError.forbidden('Only the owner may require two-factor sign-in: needs account:security');
    if (user.apiKey)
      throw ApiError.forbidden('Requiring two-factor sign-in needs the login token, not an API key');
    // Else the owner's own sign-in would stop with the switch. Read from the database: the cached
    // row may be from before the owner turned two-factor on a moment ago on another instance.
    if (changes.requireTwoFactor) {
      const owner = await deps.cache.members.get(user.member.id, { fresh: true });
      if (!owner?.twoFactorEnabledAt)
        throw ApiError.conflict('Turn on your own two-factor sign-in before requiring it of everyone');
    }
    values.requireTwoFactor = changes.requireTwoFactor;
  }
  return presentAccount(await writeMerchant(deps, user.merchant.id, values));
}
