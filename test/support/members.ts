import { randomUUID } from 'node:crypto';
import type { Role } from '../../contract';
import { hashPassword } from '../../server/auth/passwords';
import { TEST_PASSWORD, type TestServer } from './test-server';

let passwordHash: Promise<string> | undefined;

/**
 * A member of the account with `role`, made directly in the database (the invitation routes have
 * their own tests), signed in: its id, e-mail and login token.
 */
export async function addMember(server: TestServer, merchantId: string, role: Role) {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const id = randomUUID();
  const email = `${role}-${id}@example.com`;
  await server.deps.db.models.Member.create({
    id,
    merchantId,
    email,
    name: `A ${role}`,
    passwordHash: await passwordHash,
    role,
  });
  const login = await server.api<{ token: string }>('POST', '/auth/login', {
    body: { email, password: TEST_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`member login failed: ${login.text}`);
  return { id, email, token: login.body.token };
}
