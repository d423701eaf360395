import { z } from 'zod';
import type { ApiKeyScope } from './common';

/**
 * Roles and permissions: the one table (DESIGN.md, "Teams, roles and two-factor sign-in"). Every
 * merchant route names the permission it needs in its metadata (`merchantAuth`, `loginOnly` in
 * ./common.ts); the server refuses a member without it (403 `needs <permission>`), the dashboard
 * hides what a member's role may not do, and the docs list it from here.
 */
export const ROLES = ['owner', 'admin', 'developer', 'finance', 'cashier', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** Every role: the account's profile, wallets and one's own session (cashier: only its own orders). */
  'account:read',
  /** Every role: one's own password, two-factor and sign-out. */
  'self:write',
  'orders:read',
  /** Create orders and payment links, attribute transfers. */
  'orders:write',
  'refunds:write',
  'subscriptions:read',
  'subscriptions:write',
  'payouts:read',
  'payouts:write',
  'payouts:approve',
  /** The event log, webhook deliveries, incoming transfers no order claimed. */
  'events:read',
  /** CSV exports and the dashboard's summary. */
  'exports:read',
  'keys:write',
  /** Webhook and messenger settings, their tests, redelivery. */
  'webhooks:write',
  'wallets:write',
  /** Invite, change roles, remove (never the owner). */
  'members:write',
  /** Name, tips, currency, payout approvals. */
  'account:write',
  /** Owner only: require two-factor sign-in of every member (`PATCH /account` `requireTwoFactor`). */
  'account:security',
  /** Owner only: the owners' memberships and ownership transfer. */
  'ownership:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYONE = ['account:read', 'self:write', 'orders:read'] as const;
/** What every role but the cashier reads. */
const READING = [...EVERYONE, 'subscriptions:read', 'payouts:read', 'events:read'] as const;
const OWNER_ONLY = ['account:security', 'ownership:write'] as const satisfies readonly Permission[];

/** The table: role → what it may do. The owner may do everything. */
export const ROLE_PERMISSIONS: { readonly [R in Role]: readonly Permission[] } = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => !(OWNER_ONLY as readonly Permission[]).includes(p)),
  developer: [...READING, 'orders:write', 'exports:read', 'keys:write', 'webhooks:write'],
  finance: [
    ...READING,
    'orders:write',
    'refunds:write',
    'subscriptions:write',
    'payouts:write',
    'payouts:approve',
    'exports:read',
  ],
  cashier: [...EVERYONE, 'orders:write'],
  viewer: [...READING, 'exports:read'],
};

const SETS = Object.fromEntries(
  ROLES.map((r) => [r, new Set<Permission>(ROLE_PERMISSIONS[r])]),
) as unknown as { readonly [R in Role]: ReadonlySet<Permission> };

/** A role's permissions, one shared Set per role (the per-request check is a lookup in it). */
export const permissionsOf = (role: Role): ReadonlySet<Permission> => SETS[role];

/**
 * What a member must hold to give an API key each scope (any one of them): a key acts within its
 * maker's permissions, so it is never given more (and each route checks the maker's permission too).
 */
export const SCOPE_GRANTED_BY: { readonly [S in ApiKeyScope]: readonly Permission[] } = {
  'orders:read': ['orders:read'],
  'orders:write': ['orders:write'],
  'refunds:write': ['refunds:write'],
  'account:read': ['account:read'],
  'account:write': ['account:write', 'webhooks:write', 'wallets:write'],
  'subscriptions:read': ['subscriptions:read'],
  'subscriptions:write': ['subscriptions:write'],
  // A settled x402 payment is a paid order of the account's (contract/x402.ts: orders:write).
  'x402:settle': ['orders:write'],
  'payouts:read': ['payouts:read'],
  'payouts:write': ['payouts:write'],
  'payouts:approve': ['payouts:approve'],
};

/** The scopes of `scopes` a member with `permissions` may not give a key. */
export const scopesBeyond = (permissions: ReadonlySet<Permission>, scopes: readonly ApiKeyScope[]) =>
  scopes.filter((scope) => !SCOPE_GRANTED_BY[scope].some((p) => permissions.has(p)));

/**
 * The permissions a request needs: for a route whose body fields need permissions of their own
 * (`fieldPermissions`), one per field sent (a field not listed: the route's); for any other route,
 * or a body with no field, the route's permission.
 */
export function permissionsNeeded(
  auth: { permission: Permission; fieldPermissions?: Readonly<Record<string, Permission>> },
  body: unknown,
): Permission[] {
  const fields = auth.fieldPermissions;
  const sent = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  if (!fields || sent.length === 0) return [auth.permission];
  return [...new Set(sent.map((field) => fields[field] ?? auth.permission))];
}

/** A cashier reads only the orders it created. */
export const readsOnlyOwnOrders = (role: Role) => role === 'cashier';

/** Whether `role` may hold every permission of `other` (demoting strips what `role` lacks). */
export const roleCovers = (role: Role, other: Role) =>
  ROLE_PERMISSIONS[other].every((p) => SETS[role].has(p));

export const ZRole = z.enum(ROLES).describe('A role of contract/permissions.ts');
/** The signed-in member, as the session and the profile name it. */
export const ZMemberSelf = z.object({
  id: z.string().uuid().max(36),
  email: z.string().max(254),
  name: z.string().max(200).nullable(),
  role: ZRole,
});
