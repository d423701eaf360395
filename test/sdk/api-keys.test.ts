import { describe, expect, it } from 'vitest';
import { AuthenticationError, createClient, ForbiddenError } from '../../sdk/src/index';
import { newMerchant, TEST_PASSWORD, useTestServer } from '../support/test-server';

const server = useTestServer({ LOGIN_RATE_LIMIT_MAX: '1000' });

describe('SDK with an API key', () => {
  it('createClient({ baseUrl, apiKey }) opens what the scopes allow and throws ForbiddenError beyond', async () => {
    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const admin = createClient({ baseUrl: server.url });
    await admin.auth.login({ email: m.email, password: TEST_PASSWORD });
    const created = await admin.apiKeys.create({ name: 'sdk', scopes: ['orders:write', 'orders:read'] });
    expect(created.secret).toMatch(/^sk_/);
    expect((await admin.apiKeys.list()).items.map((k) => k.id)).toEqual([created.id]);

    const client = createClient({ baseUrl: server.url, apiKey: created.secret });
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '7.25' });
    expect((await client.orders.get(order.reference)).reference).toBe(order.reference);

    const refused = await client.profile.get().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect((refused as ForbiddenError).code).toBe('FORBIDDEN');
    expect((refused as ForbiddenError).message).toContain('account:read');
    await expect(client.apiKeys.list()).rejects.toBeInstanceOf(ForbiddenError);

    await admin.apiKeys.revoke(created.id);
    await expect(client.orders.get(order.reference)).rejects.toBeInstanceOf(AuthenticationError);
    expect(() => createClient({ baseUrl: server.url, apiKey: 'sk_x', token: 'y' })).toThrow(TypeError);
  });
});
