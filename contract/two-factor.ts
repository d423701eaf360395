import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZDateTime, errors, loginOnly, publicRoute } from './common';
import { MFA_TOKEN_TTL_SECONDS, ZCodeBody, ZLoginResponse, ZMfaBody } from './auth';
import { merchantErrors } from './shapes';

const c = initContract();

/** How many recovery codes a confirmed enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;
export const ZTwoFactorStatus = z.object({
  enabled: z.boolean(),
  enabledAt: ZDateTime.nullable(),
  recoveryCodesLeft: z.number().int().min(0).max(RECOVERY_CODE_COUNT),
  required: z.boolean().describe('The account requires two-factor sign-in of every member'),
});

/** Routes the setup token opens (besides the login token and the session). */
export const twoFactorSetup = { ...loginOnly('self:write'), setupToken: true } as const;

export const twoFactorContract = c.router(
  {
    status: {
      method: 'GET',
      path: '/auth/two-factor',
      summary: "The signed-in member's two-factor sign-in",
      description:
        'Whether two-factor sign-in is on for the signed-in member (and since when), how many recovery codes are left, and whether the account requires it of every member.',
      metadata: twoFactorSetup,
      responses: { 200: ZTwoFactorStatus, ...merchantErrors },
    },
    enroll: {
      method: 'POST',
      path: '/auth/two-factor/enroll',
      summary: 'Begin two-factor enrolment: a new TOTP secret and its otpauth:// URI (the QR code)',
      description:
        'Answers a new secret each time, replacing one not confirmed yet; it counts once a first code confirms it (POST /auth/two-factor/confirm). 409 when two-factor is already on (disable it first). Opened by the login token, the dashboard session, or a setupToken.',
      metadata: twoFactorSetup,
      body: c.noBody(),
      responses: {
        200: z.object({
          otpauthUrl: z.string().max(1024).startsWith('otpauth://totp/'),
          secret: z
            .string()
            .max(128)
            .regex(/^[A-Z2-7]+$/)
            .describe('Base32, for typing in by hand'),
        }),
        ...merchantErrors,
        ...errors('CONFLICT'),
      },
    },
    confirm: {
      method: 'POST',
      path: '/auth/two-factor/confirm',
      summary: 'Confirm the enrolment with a first code: two-factor is on; the recovery codes, shown once',
      description: `Answers ${RECOVERY_CODE_COUNT} single-use recovery codes (only their hashes are kept). A wrong code is a 401, counted like a wrong password (429 after the limit). A setupToken ends here: sign in again.`,
      metadata: twoFactorSetup,
      body: ZCodeBody,
      responses: {
        200: z.object({
          recoveryCodes: z.array(z.string().max(32)).length(RECOVERY_CODE_COUNT),
        }),
        ...merchantErrors,
        ...errors('CONFLICT'),
      },
    },
    disable: {
      method: 'POST',
      path: '/auth/two-factor/disable',
      summary: 'Turn two-factor sign-in off, with a code (TOTP or recovery)',
      description:
        'The secret and the recovery codes are deleted. 409 when the account requires two-factor sign-in.',
      metadata: loginOnly('self:write'),
      body: ZCodeBody,
      responses: { 204: c.noBody(), ...merchantErrors, ...errors('CONFLICT') },
    },
    loginMfa: {
      method: 'POST',
      path: '/auth/login/mfa',
      summary: 'The second step of a login: the mfaToken and a code give the login token',
      description: `A TOTP code (accepted once) or a recovery code (single use). The mfaToken is good for ${MFA_TOKEN_TTL_SECONDS} seconds and one success. Wrong codes are counted per member like wrong passwords (429 with Retry-After).`,
      metadata: publicRoute,
      body: ZMfaBody,
      responses: {
        200: ZLoginResponse,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE'),
      },
    },
  },
  { strictStatusCodes: true },
);

export type TwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;
