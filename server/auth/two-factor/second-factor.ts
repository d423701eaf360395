import type { Transaction } from 'sequelize';
import type { Deps } from '../../deps';
import { useRecoveryCode } from './recovery-codes';
import { looksLikeTotp, totpStep } from './totp';

type MemberSecrets = {
  two_factor_secret: string | null;
  two_factor_pending: string | null;
  two_factor_last_step: string | null;
};

/**
 * Whether `code` is a good second factor of the member, taking it if so, in `transaction`:
 * a TOTP code of the member's secret (`pending`: of the enrolment not confirmed yet) is taken by
 * moving the member's last used time step forward, in a statement that refuses to move it back or
 * stay (a code is accepted once, whichever instance sees it, however close together); a recovery
 * code (not for `pending`) is marked used. The member row is locked until the transaction ends.
 */
export async function takeSecondFactor(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets'>,
  memberId: string,
  code: string,
  transaction: Transaction,
  which: 'enrolled' | 'pending' = 'enrolled',
): Promise<boolean> {
  const [rows] = (await deps.db.sequelize.query(
    `SELECT two_factor_secret, two_factor_pending, two_factor_last_step::text AS two_factor_last_step
       FROM members WHERE id = $memberId AND removed_at IS NULL FOR UPDATE`,
    { bind: { memberId }, transaction },
  )) as [MemberSecrets[], unknown];
  const sealed = which === 'pending' ? rows[0]?.two_factor_pending : rows[0]?.two_factor_secret;
  if (!rows[0] || !sealed) return false;
  if (!looksLikeTotp(code)) return which === 'enrolled' && useRecoveryCode(deps, memberId, code, transaction);
  const last = rows[0].two_factor_last_step === null ? null : Number(rows[0].two_factor_last_step);
  const step = await totpStep(deps.secrets.open(sealed), code, deps.clock(), last);
  if (step === null) return false;
  const [taken] = await deps.db.sequelize.query(
    `UPDATE members SET two_factor_last_step = $step
      WHERE id = $memberId AND (two_factor_last_step IS NULL OR two_factor_last_step < $step) RETURNING 1`,
    { bind: { memberId, step }, transaction },
  );
  return (taken as unknown[]).length === 1;
}
