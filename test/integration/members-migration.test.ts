import { randomBytes, randomUUID } from 'node:crypto';
import { QueryTypes, Sequelize } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { hashApiKeySecret, newApiKeySecret } from '../../server/auth/api-key-secret';
import { hashPassword } from '../../server/auth/passwords';
import { createTokenIssuer } from '../../server/auth/tokens';
import { migrate } from '../../server/db/migrate';
import * as membersMigration from '../../server/db/migrations/0029-members';
import * as invitationsMigration from '../../server/db/migrations/0030-invitations';
import * as twoFactorMigration from '../../server/db/migrations/0031-two-factor';
import * as posMigration from '../../server/db/migrations/0032-point-of-sale';
import * as x402Migration from '../../server/db/migrations/0033-x402';
import * as payoutsMigration from '../../server/db/migrations/0034-payouts';
import * as x402FollowUpMigration from '../../server/db/migrations/0035-x402-follow-up';
import * as x402StatesMigration from '../../server/db/migrations/0036-x402-settlement-states';
import { newSecretToken, secretDigest } from '../../server/lib/secret-token';
import { createTestDatabase, startTestServer, TEST_PASSWORD, TEST_SECRETS } from '../support/test-server';

/**
 * Migration 0029 turns each merchant's login into the owner member of its account: what the
 * merchant held before it (a login token, a dashboard session, an API key, its password) keeps
 * working after it, and acts as the owner.
 */
describe('migration 0029: the merchant of before is its account owner', () => {
  it("keeps the merchant's login token, dashboard session, API key and password working", async () => {
    const url = await createTestDatabase();
    const sequelize = new Sequelize(url, { logging: false });
    const merchantId = randomUUID();
    const email = `Before-${randomUUID()}@example.com`;
    const keySecret = newApiKeySecret();
    const sessionSecret = newSecretToken();
    const csrf = newSecretToken();
    let token: string;
    try {
      await migrate(sequelize);
      const context = { query: (sql: string) => sequelize.query(sql), notice: () => {} };
      // The migrations after it go down first (their tables refer to members).
      await x402StatesMigration.down({ context, name: '0036-x402-settlement-states' });
      await x402FollowUpMigration.down({ context, name: '0035-x402-follow-up' });
      await payoutsMigration.down({ context, name: '0034-payouts' });
      await x402Migration.down({ context, name: '0033-x402' });
      await posMigration.down({ context, name: '0032-point-of-sale' });
      await twoFactorMigration.down({ context, name: '0031-two-factor' });
      await invitationsMigration.down({ context, name: '0030-invitations' });
      await membersMigration.down({ context, name: '0029-members' });
      await sequelize.query('DELETE FROM schema_migrations WHERE name IN (:names)', {
        replacements: {
          names: [
            '0029-members',
            '0030-invitations',
            '0031-two-factor',
            '0032-point-of-sale',
            '0033-x402',
            '0034-payouts',
            '0035-x402-follow-up',
            '0036-x402-settlement-states',
          ],
        },
      });
      // The merchant as it was: its own password hash and token version (a password changed once).
      await sequelize.query(
        `INSERT INTO merchants (id, email, password_hash, token_version, full_name)
         VALUES (:id, :email, :hash, 1, 'Old Shop')`,
        { replacements: { id: merchantId, email, hash: await hashPassword(TEST_PASSWORD) } },
      );
      await sequelize.query(
        `INSERT INTO api_keys (id, merchant_id, name, scopes, secret_hash, last4)
         VALUES (:id, :merchantId, 'old key', ARRAY['orders:read', 'account:read'], :hash, :last4)`,
        {
          replacements: {
            id: randomUUID(),
            merchantId,
            hash: hashApiKeySecret(keySecret),
            last4: keySecret.slice(-4),
          },
        },
      );
      await sequelize.query(
        `INSERT INTO dashboard_sessions (id, merchant_id, token_version, csrf_token, created_at, last_seen_at)
         VALUES (:id, :merchantId, 1, :csrf, now(), now())`,
        { replacements: { id: secretDigest(sessionSecret), merchantId, csrf } },
      );
      // A login token signed before the migration, as POST /auth/login signed them: subject the merchant.
      token = createTokenIssuer(TEST_SECRETS.JWT_SECRET, '1h').issue({
        id: merchantId,
        tokenVersion: 1,
      }).token;
    } finally {
      await sequelize.close();
    }

    // The server migrates the database as it starts.
    const server = await startTestServer({ DATABASE_URL: url, JWT_TTL: '1h' });
    try {
      const [owner] = await server.deps.db.sequelize.query<Record<string, unknown>>(
        'SELECT id, merchant_id, email, role, token_version, name FROM members',
        { type: QueryTypes.SELECT },
      );
      expect(owner).toEqual({
        id: merchantId,
        merchant_id: merchantId,
        email,
        role: 'owner',
        token_version: 1,
        name: 'Old Shop',
      });

      const me = await server.api('GET', '/users/me', { token });
      expect(me.status, me.text).toBe(200);
      expect(me.body.email).toBe(email);
      const session = await server.api('GET', '/dashboard/session', { token });
      expect(session.body.member).toEqual({ id: merchantId, email, name: 'Old Shop', role: 'owner' });
      expect(session.body.permissions).toContain('ownership:write');

      const cookie = { cookie: `stablepay_session=${sessionSecret}` };
      const bySession = await server.api('GET', '/dashboard/session', { headers: cookie });
      expect(bySession.status, bySession.text).toBe(200);
      expect(bySession.body.csrfToken).toBe(csrf);
      expect(bySession.body.member.role).toBe('owner');
      // A change through the session still takes its CSRF token.
      const renamed = await server.api('PATCH', '/users/me', {
        headers: { ...cookie, 'x-csrf-token': csrf, origin: 'http://pay.example.test' },
        body: { full_name: 'Renamed' },
      });
      expect(renamed.status, renamed.text).toBe(200);

      const byKey = await server.api('GET', '/users/me/orders', { token: keySecret });
      expect(byKey.status, byKey.text).toBe(200);
      const [key] = await server.deps.db.sequelize.query<{ created_by: string }>(
        'SELECT created_by FROM api_keys',
        { type: QueryTypes.SELECT },
      );
      expect(key!.created_by).toBe(merchantId);

      // The same e-mail (any case) and password sign in, as the owner.
      const login = await server.api('POST', '/auth/login', {
        body: { email: email.toLowerCase(), password: TEST_PASSWORD },
      });
      expect(login.status, login.text).toBe(200);
      expect((await server.api('GET', '/users/me', { token: login.body.token })).status).toBe(200);
      // And the password lives in one place only now.
      const columns = await server.deps.db.sequelize.query<{ column_name: string }>(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'merchants'",
        { type: QueryTypes.SELECT },
      );
      expect(columns.map((c) => c.column_name)).not.toContain('password_hash');
    } finally {
      await server.stop();
    }
  });

  it('goes back down: the owner is the merchant again, with its password', async () => {
    const sequelize = new Sequelize(await createTestDatabase(), { logging: false });
    try {
      await migrate(sequelize);
      const hash = `argon-${randomBytes(4).toString('hex')}`;
      const [merchant] = await sequelize.query<{ id: string }>(
        "INSERT INTO merchants (email) VALUES ('down@example.com') RETURNING id",
        { type: QueryTypes.SELECT },
      );
      await sequelize.query(
        `INSERT INTO members (id, merchant_id, email, password_hash, role, token_version)
         VALUES (:id, :id, 'down@example.com', :hash, 'owner', 3)`,
        { replacements: { id: merchant!.id, hash } },
      );
      const context = { query: (sql: string) => sequelize.query(sql), notice: () => {} };
      // The migrations after it go down first (their tables refer to members).
      await x402StatesMigration.down({ context, name: '0036-x402-settlement-states' });
      await x402FollowUpMigration.down({ context, name: '0035-x402-follow-up' });
      await payoutsMigration.down({ context, name: '0034-payouts' });
      await x402Migration.down({ context, name: '0033-x402' });
      await posMigration.down({ context, name: '0032-point-of-sale' });
      await twoFactorMigration.down({ context, name: '0031-two-factor' });
      await invitationsMigration.down({ context, name: '0030-invitations' });
      await membersMigration.down({ context, name: '0029-members' });
      const [row] = await sequelize.query<{ password_hash: string; token_version: number }>(
        'SELECT password_hash, token_version FROM merchants',
        { type: QueryTypes.SELECT },
      );
      expect(row).toEqual({ password_hash: hash, token_version: 3 });
    } finally {
      await sequelize.close();
    }
  });
});
