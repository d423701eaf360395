import type { Permission, Role } from '../../contract';
import type { MemberRow } from '../db/caches';
import { ApiError } from '../errors';

/** Who manages members: the member acting, with its role's permissions. */
export type Manager = { member: MemberRow; permissions: ReadonlySet<Permission> };

/**
 * Whether the manager may give or take away `role`: an owner's membership (making one, or changing
 * or removing one) needs ownership:write, which only the owner has (an admin manages everyone else).
 */
export function mayManageRole(by: Manager, ...roles: Role[]): void {
  if (roles.includes('owner') && !by.permissions.has('ownership:write'))
    throw ApiError.forbidden("An owner's membership is the owner's to change: needs ownership:write");
}
