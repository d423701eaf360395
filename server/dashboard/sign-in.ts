import type { DashboardSession as SessionBody } from '../../contract';
import { checkCredentials } from '../auth/login';
import { idleMs, startSession } from '../auth/dashboard-sessions';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';

/** What the dashboard is told about its session (the cookie itself is set by the router). */
export const presentSession = (
  deps: Pick<Deps, 'config'>,
  merchant: Pick<MerchantRow, 'id' | 'email' | 'fullName'>,
  csrfToken: string | null,
): SessionBody => ({
  merchant: { id: merchant.id, email: merchant.email, full_name: merchant.fullName ?? null },
  csrfToken,
  idleTimeoutSeconds: Math.round(idleMs(deps) / 1000),
});

/** E-mail and password in, a new session out: its cookie secret and what the page is told. */
export async function signIn(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: { email: string; password: string },
): Promise<{ secret: string; body: SessionBody }> {
  const merchant = await checkCredentials(deps, input);
  const { secret, session } = await startSession(deps, merchant);
  return { secret, body: presentSession(deps, merchant, session.csrfToken) };
}
