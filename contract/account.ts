import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errors, merchantAuth } from './common';
import { merchantErrors } from './shapes';

const c = initContract();

/**
 * The account's settings. `requireTwoFactor` is the owner's alone (`account:security`): the
 * handler checks it on top of the route's `account:write`.
 */
export const ZAccountPatch = z
  .object({
    requireTwoFactor: z
      .boolean()
      .optional()
      .describe(
        'Owner only (needs account:security): every member signs in with two-factor; members without it are sent to enrol and their older tokens and sessions stop',
      ),
  })
  .strict();

export const ZAccount = z.object({ requireTwoFactor: z.boolean() });

export const accountContract = c.router(
  {
    update: {
      method: 'PATCH',
      path: '/account',
      summary: "Change the account's settings",
      description:
        "Owner only for `requireTwoFactor` (needs account:security, with the login token or the session, and the owner's own two-factor on first: 409 otherwise). Members without two-factor are then sent to enrol at sign-in, and their older tokens and sessions stop at once.",
      metadata: merchantAuth('account:write', 'account:write'),
      body: ZAccountPatch,
      responses: { 200: ZAccount, ...merchantErrors, ...errors('VALIDATION_ERROR', 'CONFLICT') },
    },
  },
  { strictStatusCodes: true },
);

export type Account = z.infer<typeof ZAccount>;
export type AccountPatch = z.infer<typeof ZAccountPatch>;
