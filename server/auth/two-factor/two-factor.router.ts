import { initServer } from '@ts-rest/express';
import { twoFactorContract } from '../../../contract';
import type { Deps } from '../../deps';
import { currentUser } from '../../http/current-merchant';
import type { RateLimits } from '../../http/rate-limits';
import { loginToken } from '../login';
import { confirmTwoFactor } from './confirm-two-factor';
import { disableTwoFactor } from './disable-two-factor';
import { enrollTwoFactor } from './enroll-two-factor';
import { recoveryCodesLeft } from './recovery-codes';
import { passSecondStep } from './sign-in-steps';

export function twoFactorRouter(deps: Deps, limits: Pick<RateLimits, 'secondFactor'>) {
  return initServer().router(twoFactorContract, {
    status: async ({ req }) => {
      const { member, merchant } = currentUser(req);
      return {
        status: 200,
        body: {
          enabled: member.twoFactorEnabledAt !== null,
          enabledAt: member.twoFactorEnabledAt?.toISOString() ?? null,
          recoveryCodesLeft: member.twoFactorEnabledAt ? await recoveryCodesLeft(deps, member.id) : 0,
          required: merchant.requireTwoFactor,
        },
      };
    },
    enroll: async ({ req }) => ({ status: 200, body: await enrollTwoFactor(deps, currentUser(req).member) }),
    confirm: async ({ req, res, body }) => {
      const user = currentUser(req);
      await limits.secondFactor(user.member.id, res);
      return { status: 200, body: await confirmTwoFactor(deps, user.member, body.code, user.twoFactorSetup) };
    },
    disable: async ({ req, res, body }) => {
      const user = currentUser(req);
      await limits.secondFactor(user.member.id, res);
      await disableTwoFactor(deps, user.member, user.merchant, body.code);
      return { status: 204, body: undefined };
    },
    loginMfa: async ({ res, body }) => {
      const member = await passSecondStep(deps, body, 'token', (memberId) =>
        limits.secondFactor(memberId, res),
      );
      return { status: 200, body: loginToken(deps, member) };
    },
  });
}
