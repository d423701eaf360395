import type { DashboardSession as SessionBody } from '../../contract';
import { checkCredentials } from '../auth/login';
import {
  passSecondStep,
  stepAfterPassword,
  type StepBeforeCredential,
} from '../auth/two-factor/sign-in-steps';
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

/**
 * E-mail and password in, a new session out: its cookie secret and what the page is told; or,
 * with two-factor, the step before it (no session yet).
 */
export async function signIn(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'cache'>,
  input: { email: string; password: string },
): Promise<{ secret: string; body: SessionBody } | { step: StepBeforeCredential }> {
  const member = await checkCredentials(deps, input);
  const step = await stepAfterPassword(deps, member, 'session');
  return step ? { step } : openSession(deps, member);
}

/** The second step of the sign-in: the mfaToken and a code (counted by `limit`), then the session. */
export async function signInWithCode(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'cache' | 'secrets'>,
  input: { mfaToken: string; code: string },
  limit: (memberId: string) => Promise<void>,
): Promise<{ secret: string; body: SessionBody }> {
  return openSession(deps, await passSecondStep(deps, input, 'session', limit));
}

async function openSession(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'cache'>,
  member: { id: string; merchantId: string; tokenVersion: number },
): Promise<{ secret: string; body: SessionBody }> {
  const { secret, session } = await startSession(deps, member);
  const user = await memberCredential(deps.cache, member.id, member.tokenVersion);
  if (!user) throw ApiError.unauthenticated('Invalid e-mail or password');
  return { secret, body: presentSession(deps, user, session.csrfToken) };
}
