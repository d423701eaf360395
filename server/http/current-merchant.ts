import type { MerchantRow } from '../db/caches';
import { ApiError } from '../errors';

/** The authenticated merchant; the auth middleware has put it there for every merchant route. */
export function currentMerchant(req: { user?: Express.User }): MerchantRow {
  if (!req.user) throw ApiError.unauthenticated();
  return req.user.merchant;
}
