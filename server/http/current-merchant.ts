import type { ApiKeyScope } from '../../contract';
import type { MerchantRow } from '../db/caches';
import { ApiError } from '../errors';

/** The API key the request came with, as audit entries name it; null for the login token. */
export function actingKey(req: { user?: Express.User }): { id: string; name: string } | null {
  const key = req.user?.apiKey;
  return key ? { id: key.id, name: key.name } : null;
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

/** Who the request acts as: the merchant, the member (for an API key, its maker), the permissions. */
export function currentUser(req: { user?: Express.User }): Express.User {
  if (!req.user) throw ApiError.unauthenticated();
  return req.user;
}

/** Who acts, as audit trails name them: the member (for an API key, its maker) and the key it used. */
export function currentActor(req: { user?: Express.User }) {
  return { memberId: currentUser(req).member.id, apiKey: actingKey(req) };
}
