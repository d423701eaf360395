import type { DashboardSession as SessionBody } from '../../contract';
import { checkCredentials } from '../auth/login';
import { memberCredential } from '../auth/member-credential';
import { idleMs, startSession } from '../auth/dashboard-sessions';
import type { MemberRow, MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';

/** What the dashboard is told about its session (the cookie itself is set by the router). */
export const presentSession = (
  deps: Pick<Deps, 'config'>,
  user: {
    merchant: Pick<MerchantRow, 'id' | 'email' | 'fullName'>;
    member: Pick<MemberRow, 'id' | 'email' | 'name' | 'role'>;
    permissions: ReadonlySet<SessionBody['permissions'][number]>;
  },
  csrfToken: string | null,
): SessionBody => ({
  merchant: { id: user.merchant.id, email: user.merchant.email, full_name: user.merchant.fullName ?? null },
  member: { id: user.member.id, email: user.member.email, name: user.member.name, role: user.member.role },
  permissions: [...user.permissions],
  csrfToken,
  idleTimeoutSeconds: Math.round(idleMs(deps) / 1000),
});

/** E-mail and password in, a new session out: its cookie secret and what the page is told. */
export async function signIn(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'cache'>,
  input: { email: string; password: string },
): Promise<{ secret: string; body: SessionBody }> {
  const member = await checkCredentials(deps, input);
  const { secret, session } = await startSession(deps, member);
  const user = await memberCredential(deps.cache, member.id, member.tokenVersion);
  if (!user) throw ApiError.unauthenticated('Invalid e-mail or password');
  return { secret, body: presentSession(deps, user, session.csrfToken) };
}
