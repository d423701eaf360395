import type { MemberRow } from '../../db/caches';
import type { Deps } from '../../deps';
import { ApiError } from '../../errors';
import { newTotpSecret, otpauthUrl } from './totp';

/** What authenticator apps show beside the code. */
const ISSUER = 'stablepay';

/**
 * POST /auth/two-factor/enroll: a new secret, kept sealed as the member's pending enrolment until
 * a first code confirms it (a new call replaces it). Refused while two-factor is on.
 */
export async function enrollTwoFactor(
  deps: Pick<Deps, 'db' | 'secrets'>,
  member: Pick<MemberRow, 'id' | 'email'>,
): Promise<{ otpauthUrl: string; secret: string }> {
  const secret = newTotpSecret();
  const [rows] = await deps.db.sequelize.query(
    `UPDATE members SET two_factor_pending = $sealed, updated_at = now()
      WHERE id = $id AND two_factor_secret IS NULL RETURNING 1`,
    { bind: { id: member.id, sealed: deps.secrets.seal(secret) } },
  );
  if ((rows as unknown[]).length !== 1)
    throw ApiError.conflict('Two-factor sign-in is already on: disable it first');
  return { otpauthUrl: otpauthUrl(secret, member.email, ISSUER), secret };
}
