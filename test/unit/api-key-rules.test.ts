import { describe, expect, it } from 'vitest';
import { hashApiKeySecret, isApiKeySecret, newApiKeySecret } from '../../server/auth/api-key-secret';
import { EVENT_TYPES } from '../../contract';
import { checkEventScope, checkScope, shownEventTypes } from '../../server/auth/check-scope';

describe('API key rules', () => {
  it('a secret is sk_ and 32 random bytes; only that form is a key; the hash is its SHA-256', () => {
    const a = newApiKeySecret();
    const b = newApiKeySecret();
    expect(a).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(3), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(isApiKeySecret(a)).toBe(true);
    for (const bad of ['sk_', `sk_${'A'.repeat(42)}`, `sk_${'A'.repeat(44)}`, `pk_${a.slice(3)}`, `${a} `])
      expect(isApiKeySecret(bad), bad).toBe(false);
    // sha256("abc"), the FIPS 180-2 test vector.
    expect(hashApiKeySecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashApiKeySecret(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKeySecret(a)).not.toBe(hashApiKeySecret(b));
  });

  it('the login token opens every route but API-key-only ones; a key only its scopes, never login-only routes', () => {
    expect(checkScope(null, 'orders:write')).toBeNull();
    expect(checkScope(null, null)).toBeNull();
    expect(checkScope({ scopes: ['orders:read', 'orders:write'] }, 'orders:write')).toBeNull();
    const missing = checkScope({ scopes: ['orders:read'] }, 'refunds:write');
    expect(missing?.status).toBe(403);
    expect(missing?.code).toBe('FORBIDDEN');
    expect(missing?.message).toContain('refunds:write');
    const loginOnly = checkScope({ scopes: ['account:write'] }, null);
    expect(loginOnly?.code).toBe('FORBIDDEN');
    expect(loginOnly?.message).toContain('login token');
    // x402's facilitator routes: a sign-in never opens them, a key with the scope does.
    const signedIn = checkScope(null, 'x402:settle', true);
    expect(signedIn?.code).toBe('FORBIDDEN');
    expect(signedIn?.message).toContain('Only an API key with the scope x402:settle');
    expect(checkScope({ scopes: ['x402:settle'] }, 'x402:settle', true)).toBeNull();
    expect(checkScope({ scopes: ['orders:write'] }, 'x402:settle', true)?.code).toBe('FORBIDDEN');
  });

  it("a subscription's events need subscriptions:read; the others only the route's scope", () => {
    const subscriptionTypes = EVENT_TYPES.filter((t) => t.startsWith('subscription.'));
    expect(subscriptionTypes.length).toBeGreaterThan(0);
    const ordersOnly = { scopes: ['orders:read'] as const };
    expect(shownEventTypes(null)).toBeNull();
    expect(
      shownEventTypes({ scopes: ['orders:read', 'subscriptions:read', 'account:read', 'payouts:read'] }),
    ).toBeNull();
    // Members' events need account:read, payouts' payouts:read (contract/events.ts).
    expect(shownEventTypes(ordersOnly)).toEqual(
      EVENT_TYPES.filter((t) => !/^(subscription|member|payout)\./.test(t)),
    );
    for (const type of subscriptionTypes) {
      expect(checkEventScope(null, type)).toBeNull();
      const refused = checkEventScope(ordersOnly, type);
      expect(refused?.code).toBe('FORBIDDEN');
      expect(refused?.message).toContain('subscriptions:read');
    }
    for (const type of ['order.created', 'refund.failed', 'ping'] as const)
      expect(checkEventScope({ scopes: ['orders:write'] }, type)).toBeNull();
  });
});
