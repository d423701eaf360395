import type { Account, AccountCurrency } from '../../contract';
import type { MerchantRow } from '../db/caches';

/** The point of sale's currency when the account set none. */
export const DEFAULT_ACCOUNT_CURRENCY: AccountCurrency = 'USDT';

export const presentAccount = (merchant: MerchantRow): Account => ({
  id: merchant.id,
  name: merchant.fullName,
  currency: (merchant.currency as AccountCurrency | null) ?? DEFAULT_ACCOUNT_CURRENCY,
  tipPercentages: merchant.tipPercentages ?? [],
  requireTwoFactor: merchant.requireTwoFactor,
  payoutApprovals: merchant.payoutApprovals,
});
