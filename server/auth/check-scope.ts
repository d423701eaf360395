import type { ApiKeyScope } from '../../contract';
import { ApiError } from '../errors';

/**
 * Whether the credential may open a route: the login token opens every merchant route; an API key
 * only those whose scope it holds, and never those only the login token opens (`scope` null).
 */
export function checkScope(
  apiKey: { scopes: readonly ApiKeyScope[] } | null,
  scope: ApiKeyScope | null,
): ApiError | null {
  if (!apiKey) return null;
  if (scope === null)
    return ApiError.forbidden(
      'API keys cannot manage API keys or the password: use the login token (POST /auth/login)',
    );
  if (!apiKey.scopes.includes(scope)) return ApiError.forbidden(`This API key lacks the scope ${scope}`);
  return null;
}
