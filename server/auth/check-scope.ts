import {
  EVENT_TYPES,
  eventTypeScope,
  type ApiKeyScope,
  permissionsNeeded,
  type EventType,
  type MerchantRouteAuth,
  type Permission,
  type Role,
} from '../../contract';
import { ApiError } from '../errors';

/** What the scope checks read of a request's credential: an API key's scopes, or null for the login token. */
export type Credential = { scopes: readonly ApiKeyScope[] } | null;

const lacks = (scope: ApiKeyScope) => ApiError.forbidden(`This API key lacks the scope ${scope}`);

/**
 * Whether the credential may open a route: the login token opens every merchant route but those
 * only an API key opens (`apiKeyOnly`); an API key only those whose scope it holds, and never
 * those only the login token opens (`scope` null).
 */
export function checkScope(
  apiKey: Credential,
  scope: ApiKeyScope | null,
  apiKeyOnly = false,
): ApiError | null {
  if (!apiKey)
    return apiKeyOnly && scope
      ? ApiError.forbidden(
          `Only an API key with the scope ${scope} opens this route, not a sign-in: make one (POST /users/me/api-keys)`,
        )
      : null;
  if (scope === null)
    return ApiError.forbidden(
      'API keys cannot manage API keys or the password: use the login token (POST /auth/login)',
    );
  if (!apiKey.scopes.includes(scope)) return lacks(scope);
  return null;
}

/**
 * Whether the member (or, for an API key, the member who made it) may use a route needing
 * `permission`: a lookup in its role's Set, loaded with the credential.
 */
export function checkPermission(
  user: { member: { role: Role }; permissions: ReadonlySet<Permission> },
  permission: Permission,
): ApiError | null {
  return user.permissions.has(permission)
    ? null
    : ApiError.forbidden(`The role ${user.member.role} may not do this: needs ${permission}`);
}

/**
 * Whether the member may make this request to a route: its permission, or, on a route whose body
 * fields need their own (`fieldPermissions`), each one the fields sent need. The first lacking one
 * is named in the 403.
 */
export function checkRoutePermission(
  user: { member: { role: Role }; permissions: ReadonlySet<Permission> },
  auth: Pick<MerchantRouteAuth, 'permission' | 'fieldPermissions'>,
  body: unknown,
): ApiError | null {
  if (!auth.fieldPermissions) return checkPermission(user, auth.permission);
  for (const permission of permissionsNeeded(auth, body)) {
    const refused = checkPermission(user, permission);
    if (refused) return refused;
  }
  return null;
}

/**
 * Whether the credential may be shown an event of this type, its body or its deliveries, on a
 * route it has opened: the login token every one; an API key those whose scope
 * (EVENT_FAMILY_SCOPES) it holds as well. A 403 like a route's.
 */
export function checkEventScope(apiKey: Credential, type: EventType): ApiError | null {
  const scope = eventTypeScope(type);
  return scope && !showsEventType(apiKey, type) ? lacks(scope) : null;
}

const showsEventType = (apiKey: Credential, type: EventType) => {
  const scope = eventTypeScope(type);
  return !apiKey || !scope || apiKey.scopes.includes(scope);
};

/**
 * The event types the credential is shown, for the queries to filter on (so pages and cursors
 * count only those); null: every type (the login token, or a key holding every event scope).
 */
export function shownEventTypes(apiKey: Credential): EventType[] | null {
  const shown = EVENT_TYPES.filter((type) => showsEventType(apiKey, type));
  return shown.length === EVENT_TYPES.length ? null : shown;
}
