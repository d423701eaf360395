import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors, publicRoute } from './common';

const c = initContract();

export const ZLoginBody = z
  .object({
    email: z.string().trim().email().max(254).describe('The merchant account e-mail'),
    password: z.string().min(1).max(1024),
  })
  .strict();

export const ZLoginResponse = z.object({
  token: z
    .string()
    .max(2048)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    .describe('JWT for `Authorization: Bearer <token>`'),
  tokenType: z.literal('Bearer'),
  expiresAt: z.string().max(40).datetime().describe('When the token stops working; log in again after it'),
});

/** How long a sign-in's second step (`mfaToken`) waits for its code. */
export const MFA_TOKEN_TTL_SECONDS = 300;
/** How long a `setupToken` lets a member enrol (an account that requires two-factor). */
export const SETUP_TOKEN_TTL_SECONDS = 900;

/** A secret handed out for one step of a sign-in (43 base64url characters, a prefix for the setup token). */
export const ZStepToken = z
  .string()
  .max(64)
  .regex(/^(setup_)?[A-Za-z0-9_-]{43}$/);

/** A TOTP code (6 digits) or a recovery code (`xxxxx-xxxxx`). */
export const ZSecondFactorCode = z
  .string()
  .trim()
  .min(6)
  .max(32)
  .regex(/^[0-9A-Za-z -]+$/, 'must be a 6-digit code or a recovery code')
  .describe('The 6-digit code of the authenticator app, or one of the recovery codes');

export const ZCodeBody = z.object({ code: ZSecondFactorCode }).strict();
export const ZMfaBody = z.object({ mfaToken: ZStepToken, code: ZSecondFactorCode }).strict();

export const ZMfaRequired = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken: ZStepToken.describe(
      `Send with the code to the second step within ${MFA_TOKEN_TTL_SECONDS} seconds; good once`,
    ),
  })
  .describe('The password was right and the member uses two-factor sign-in: send a code');
export const ZTwoFactorSetupRequired = z
  .object({
    twoFactorSetupRequired: z.literal(true),
    setupToken: ZStepToken.describe(
      `Bearer token for the enrolment routes alone (POST /auth/two-factor/enroll, /confirm), ${SETUP_TOKEN_TTL_SECONDS} seconds`,
    ),
  })
  .describe('The account requires two-factor sign-in and the member has none: enrol, then sign in again');

/** What a correct password gets: the token, or the step before it. */
export const ZLoginAnswer = z.union([ZLoginResponse, ZMfaRequired, ZTwoFactorSetupRequired]);

export const authContract = c.router({
  login: {
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in with e-mail and password and receive a JWT (or, with two-factor, the step before it)',
    description:
      'Public. Returns a JWT to send as `Authorization: Bearer <token>` on merchant routes until `expiresAt` (JWT_TTL, default 7 days), or until the password changes. A member with two-factor sign-in gets `{mfaRequired, mfaToken}` instead (send a code to POST /auth/login/mfa); in an account that requires two-factor, a member without it gets `{twoFactorSetupRequired, setupToken}` (enrol, then log in again). A wrong password and an unknown e-mail get the same 401. Failed attempts are rate-limited per client and e-mail (429 with Retry-After).',
    metadata: publicRoute,
    body: ZLoginBody,
    responses: { 200: ZLoginAnswer, ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE') },
  },
});

export type LoginAnswer = z.infer<typeof ZLoginAnswer>;
