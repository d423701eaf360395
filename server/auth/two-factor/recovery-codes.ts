import { randomInt } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { RECOVERY_CODE_COUNT } from '../../../contract';
import type { Deps } from '../../deps';
import { secretDigest } from '../../lib/secret-token';

/** No 0/O, 1/I/L: read off a sheet of paper and typed back. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const HALF = 5;

/** As a member may type it back: case, spaces and dashes do not count. */
const normalized = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
/** What is stored of a code: its SHA-256 (10 characters of 31: about 50 bits, and single use). */
const codeHash = (code: string) => secretDigest(`recovery:${normalized(code)}`);

const newCode = () => {
  const chars = Array.from({ length: HALF * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, HALF).join('')}-${chars.slice(HALF).join('')}`;
};

/** A member's new recovery codes (the older ones are gone): the codes, to show once. */
export async function replaceRecoveryCodes(
  deps: Pick<Deps, 'db'>,
  memberId: string,
  transaction: Transaction,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await deps.db.sequelize.query(
    `WITH gone AS (DELETE FROM member_recovery_codes WHERE member_id = $memberId)
     INSERT INTO member_recovery_codes (member_id, code_hash) SELECT $memberId, unnest($hashes::text[])`,
    { bind: { memberId, hashes: codes.map(codeHash) }, transaction },
  );
  return codes;
}

/** Uses one of the member's recovery codes: true once, when it is one not used yet. */
export async function useRecoveryCode(
  deps: Pick<Deps, 'db' | 'clock'>,
  memberId: string,
  code: string,
  transaction: Transaction,
): Promise<boolean> {
  const [rows] = await deps.db.sequelize.query(
    `UPDATE member_recovery_codes SET used_at = $now
      WHERE member_id = $memberId AND code_hash = $hash AND used_at IS NULL RETURNING 1`,
    { bind: { memberId, hash: codeHash(code), now: deps.clock() }, transaction },
  );
  return (rows as unknown[]).length === 1;
}

/** How many of the member's recovery codes are left. */
export async function recoveryCodesLeft(deps: Pick<Deps, 'db'>, memberId: string): Promise<number> {
  const [rows] = (await deps.db.sequelize.query(
    'SELECT count(*)::int AS n FROM member_recovery_codes WHERE member_id = $memberId AND used_at IS NULL',
    { bind: { memberId } },
  )) as [{ n: number }[], unknown];
  return rows[0]?.n ?? 0;
}
