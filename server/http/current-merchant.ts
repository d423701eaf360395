import type { Merchant } from '../db/models';
import { ApiError } from '../errors';

/** The authenticated merchant; the auth middleware has put it there for every merchant route. */
export function currentMerchant(req: { user?: Express.User }): Merchant {
  if (!req.user) throw ApiError.unauthenticated();
  return req.user.merchant;
}
