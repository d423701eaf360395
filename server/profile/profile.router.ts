import { initServer } from '@ts-rest/express';
import { profileContract } from '../../contract';
import type { Deps } from '../deps';
import { sendTestMessage, sendTestWebhook } from '../deliveries/send-test-delivery';
import { currentMerchant, currentUser } from '../http/current-merchant';
import type { RateLimits } from '../http/rate-limits';
import { changePassword } from './change-password';
import { presentProfile } from './present-profile';
import { rotateWebhookSecret } from './rotate-webhook-secret';
import { updateProfile } from './update-profile';

export function profileRouter(deps: Deps, limits: Pick<RateLimits, 'testDelivery'>) {
  return initServer().router(profileContract, {
    get: async ({ req }) => ({ status: 200, body: presentProfile(currentMerchant(req)) }),
    update: async ({ req, body }) => ({
      status: 200,
      body: await updateProfile(deps, currentMerchant(req), body),
    }),
    changePassword: async ({ req, body }) => {
      await changePassword(deps, currentUser(req).member, body);
      return { status: 204, body: undefined };
    },
    rotateWebhookSecret: async ({ req }) => ({
      status: 200,
      body: await rotateWebhookSecret(deps, currentMerchant(req)),
    }),
    sendTestWebhook: async ({ req, res }) => {
      const merchant = currentMerchant(req);
      await limits.testDelivery(merchant.id, 'webhook', res);
      return { status: 200, body: await sendTestWebhook(deps, merchant) };
    },
    sendTestMessage: async ({ req, res }) => {
      const merchant = currentMerchant(req);
      await limits.testDelivery(merchant.id, 'messenger', res);
      return { status: 200, body: await sendTestMessage(deps, merchant) };
    },
  });
}
