import { randomUUID } from 'node:crypto';
import type { Role } from '../../contract';
import { expectErrorBody, TEST_PASSWORD, testPasswordHash, type TestServer } from './test-server';

/**
 * A member of the account with `role`, made directly in the database (the invitation routes have
 * their own tests), signed in: its id, e-mail and login token.
 */
export async function addMember(server: TestServer, merchantId: string, role: Role) {
  const id = randomUUID();
  const email = `${role}-${id}@example.com`;
  await server.deps.db.models.Member.create({
    id,
    merchantId,
    email,
    name: `A ${role}`,
    passwordHash: await testPasswordHash(),
    role,
  });
  const login = await server.api<{ token: string }>('POST', '/auth/login', {
    body: { email, password: TEST_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`member login failed: ${login.text}`);
  return { id, email, token: login.body.token };
}

/** Signing in with the test password is refused: the member (or owner) was removed. */
export async function expectSignInRefused(server: TestServer, email: string) {
  expectErrorBody(
    await server.api('POST', '/auth/login', { body: { email, password: TEST_PASSWORD } }),
    401,
    'UNAUTHENTICATED',
  );
}
