import type { UpdateAccountBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { writeMerchant } from '../merchants/write-merchant';
import { presentAccount } from './present-account';

/** Writes only the fields given; every instance's merchant cache drops the row (change feed). */
export async function updateAccount(
  deps: Pick<Deps, 'db' | 'clock' | 'cache'>,
  merchant: MerchantRow,
  changes: UpdateAccountBody,
) {
  const values: Partial<MerchantRow> = { updatedAt: deps.clock() };
  if (changes.name !== undefined) values.fullName = changes.name;
  if (changes.currency !== undefined) values.currency = changes.currency;
  if (changes.tipPercentages !== undefined)
    values.tipPercentages = [...changes.tipPercentages].sort((a, b) => a - b);
  return presentAccount(await writeMerchant(deps, merchant.id, values));
}
