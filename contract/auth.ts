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

export const authContract = c.router({
  login: {
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in with e-mail and password and receive a JWT',
    description:
      'Public. Returns a JWT to send as `Authorization: Bearer <token>` on merchant routes until `expiresAt` (JWT_TTL, default 7 days), or until the password changes. A wrong password and an unknown e-mail get the same 401. Failed attempts are rate-limited per client and e-mail (429 with Retry-After).',
    metadata: publicRoute,
    body: ZLoginBody,
    responses: { 200: ZLoginResponse, ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE') },
  },
});
