import { initServer } from '@ts-rest/express';
import { profileContract } from '../../contract';
import type { Deps } from '../deps';
import { currentMerchant } from '../http/current-merchant';
import { changePassword } from './change-password';
import { presentProfile } from './present-profile';
import { rotateWebhookSecret } from './rotate-webhook-secret';
import { updateProfile } from './update-profile';

export function profileRouter(deps: Deps) {
  return initServer().router(profileContract, {
    get: async ({ req }) => ({ status: 200, body: presentProfile(currentMerchant(req)) }),
    update: async ({ req, body }) => ({
      status: 200,
      body: await updateProfile(deps, currentMerchant(req), body),
    }),
    changePassword: async ({ req, body }) => {
      await changePassword(deps, currentMerchant(req), body);
      return { status: 204, body: undefined };
    },
    rotateWebhookSecret: async ({ req }) => ({
      status: 200,
      body: await rotateWebhookSecret(deps, currentMerchant(req)),
    }),
  });
}
