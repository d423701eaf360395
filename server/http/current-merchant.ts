import type { ApiKeyScope } from '../../contract';
import type { MerchantRow } from '../db/caches';
import { ApiError } from '../errors';
import type { Caller } from '../events/actor';

/**
 * Who is calling, as audit entries, events and an order's `createdBy` name it: the member, and the
 * API key it came with (null for the login token and the session). The one way a router says who acts.
 */
export function callerOf(req: { user?: Express.User }): Caller {
  const { member, apiKey } = currentUser(req);
  return { member, apiKey: apiKey && { id: apiKey.id, name: apiKey.name } };
}

/** The API key's scopes for the checks a route makes itself (checkEventScope); null for the login token. */
export function currentApiKey(req: { user?: Express.User }): { scopes: readonly ApiKeyScope[] } | null {
  return req.user?.apiKey ?? null;
}

/** The authenticated merchant; the auth middleware has put it there for every merchant route. */
export function currentMerchant(req: { user?: Express.User }): MerchantRow {
  if (!req.user) throw ApiError.unauthenticated();
  return req.user.merchant;
}

/** The row `id` of the calling merchant, as finders take it (another merchant's is a 404). */
export function ownRow(req: { user?: Express.User }, id: string): { id: string; merchantId: string } {
  return { id, merchantId: currentMerchant(req).id };
}

/** Who the request acts as: the merchant, the member (for an API key, its maker), the permissions. */
export function currentUser(req: { user?: Express.User }): Express.User {
  if (!req.user) throw ApiError.unauthenticated();
  return req.user;
}
