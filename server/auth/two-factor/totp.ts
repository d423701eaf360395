import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s steps (otplib's defaults). */
const PERIOD_SECONDS = 30;
/** A code of the step before or after ours is still taken: phones' clocks drift a little. */
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/** A new TOTP secret: 20 random bytes, base32. */
export const newTotpSecret = (): string => generateSecret();

/** What the QR code carries: `otpauth://totp/stablepay:<e-mail>?secret=…&issuer=stablepay`. */
export const otpauthUrl = (secret: string, label: string, issuer: string): string =>
  generateURI({ issuer, label, secret });

/** A TOTP code's shape (anything else is a recovery code, or nothing). */
export const looksLikeTotp = (code: string) => /^\d{6}$/.test(code);

/**
 * The time step `code` is the code of, at `now` (give or take a step), if it is later than
 * `afterStep`: a code of a step already used is refused here, and the caller records the step in
 * the same statement that accepts it (recordTotpStep).
 */
export async function totpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!looksLikeTotp(code)) return null;
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({
    secret,
    token: code,
    epoch,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // `delta`: the steps between ours and the code's.
  return result.valid ? Math.floor(epoch / PERIOD_SECONDS) + result.delta : null;
}
