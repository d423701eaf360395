import type { Transaction } from 'sequelize';
import { MFA_TOKEN_TTL_SECONDS, SETUP_TOKEN_TTL_SECONDS } from '../../../contract';
import type { Deps } from '../../deps';
import { newSecretToken, secretDigest } from '../../lib/secret-token';

/**
 * The steps of a sign-in between the password and the credential (migration 0031): `token` and
 * `session` wait for a code (the `mfaToken` of POST /auth/login and POST /dashboard/session);
 * `setup` lets a member the account requires it of enrol (the `setupToken`). Only the secret's
 * SHA-256 is kept, with the member's token version then: a password change ends it too.
 */
export type ChallengePurpose = 'token' | 'session' | 'setup';

const SETUP_PREFIX = 'setup_';
const TTL_SECONDS: Record<ChallengePurpose, number> = {
  token: MFA_TOKEN_TTL_SECONDS,
  session: MFA_TOKEN_TTL_SECONDS,
  setup: SETUP_TOKEN_TTL_SECONDS,
};

/** Whether a bearer token is a setup token (the JWT check never takes one). */
export const isSetupToken = (token: string) => token.startsWith(SETUP_PREFIX);

/** A new challenge for the member: the secret to hand out. Its expired ones go on the way. */
export async function issueChallenge(
  deps: Pick<Deps, 'db' | 'clock'>,
  member: { id: string; tokenVersion: number },
  purpose: ChallengePurpose,
): Promise<string> {
  const secret = `${purpose === 'setup' ? SETUP_PREFIX : ''}${newSecretToken()}`;
  const now = deps.clock();
  await deps.db.sequelize.query(
    `WITH gone AS (DELETE FROM sign_in_challenges WHERE member_id = $memberId AND expires_at <= $now)
     INSERT INTO sign_in_challenges (id, member_id, purpose, token_version, expires_at)
     VALUES ($id, $memberId, $purpose, $tokenVersion, $expiresAt)`,
    {
      bind: {
        id: secretDigest(secret),
        memberId: member.id,
        purpose,
        tokenVersion: member.tokenVersion,
        now,
        expiresAt: new Date(now.getTime() + TTL_SECONDS[purpose] * 1000),
      },
    },
  );
  return secret;
}

export type Challenge = { id: string; memberId: string; tokenVersion: number };

/**
 * The open challenge of `purpose` a secret names, or null (unknown, expired, another purpose).
 * In a transaction it is locked until it commits: two requests with the same secret take turns,
 * and the second finds it gone (endChallenge).
 */
export async function findChallenge(
  deps: Pick<Deps, 'db' | 'clock'>,
  secret: string,
  purpose: ChallengePurpose,
  transaction?: Transaction,
): Promise<Challenge | null> {
  const [rows] = (await deps.db.sequelize.query(
    `SELECT id, member_id, token_version FROM sign_in_challenges
      WHERE id = $id AND purpose = $purpose AND expires_at > $now${transaction ? ' FOR UPDATE' : ''}`,
    { bind: { id: secretDigest(secret), purpose, now: deps.clock() }, transaction },
  )) as [{ id: string; member_id: string; token_version: number }[], unknown];
  const row = rows[0];
  return row ? { id: row.id, memberId: row.member_id, tokenVersion: row.token_version } : null;
}

/** The challenge is used: gone. */
export async function endChallenge(deps: Pick<Deps, 'db'>, id: string, transaction?: Transaction) {
  await deps.db.sequelize.query('DELETE FROM sign_in_challenges WHERE id = $id', {
    bind: { id },
    transaction,
  });
}
