import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZApiVersion } from './api-versions';
import { ZDateTime, ZUrlOut, errors, loginOnly, merchantAuth } from './common';
import type { Permission } from './permissions';
import { merchantErrors } from './shapes';
import { ZMessengerDelivery, ZWebhookDelivery } from './deliveries';
import { ZHttpUrl, ZMessengerChatId } from './orders';

const c = initContract();

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_UNDERPAYMENT_TOLERANCE_BPS = 1000;
const ZToleranceBps = z.number().int().min(0).max(MAX_UNDERPAYMENT_TOLERANCE_BPS);

const ZPhone = z
  .string()
  .max(33)
  .regex(/^\+?[0-9 ()-]{5,32}$/, 'must be a phone number, e.g. +55 11 91234-5678');

export const ZProfile = z
  .object({
    id: z.string().max(36).uuid(),
    email: z.string().max(254).email().describe('The login e-mail'),
    full_name: z.string().max(200).nullable().describe('Shown to payers as the merchant name'),
    phone: ZPhone.nullable(),
    webhook_url: ZUrlOut.nullable().describe(
      "Where order and refund events are sent (an order's own webhookUrl wins)",
    ),
    messenger_chat_id: ZMessengerChatId.nullable().describe('Messenger (Telegram) chat notified of events'),
    messenger_bot_token_set: z.boolean().describe('The bot token itself is never returned'),
    webhook_secret_set: z
      .boolean()
      .describe('Whether a webhook signing secret exists (it is shown only when rotated)'),
    webhook_api_version: ZApiVersion.nullable().describe(
      'The version events are rendered at (`apiVersion`): pinned to the latest when the first webhook secret is created; null until then (events get the latest)',
    ),
    underpayment_tolerance_bps: ZToleranceBps.nullable().describe(
      'Basis points of an amount an order may fall short and still be PAID (null: the server default)',
    ),
    created_at: ZDateTime,
    updated_at: ZDateTime,
  })
  .describe('The merchant profile: never the password, the bot token or the webhook secret');

/** Telegram bot tokens look like `123456789:AA...` */
export const ZBotToken = z
  .string()
  .max(121)
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'must be a bot token like 123456:ABC...');

export const ZUpdateProfileBody = z
  .object({
    full_name: z.string().trim().min(1).max(200).nullable(),
    phone: ZPhone.refine((v) => (v.match(/\d/g) ?? []).length >= 5, 'must have at least 5 digits').nullable(),
    webhook_url: ZHttpUrl.nullable().describe('A public http(s) URL for events'),
    messenger_chat_id: ZMessengerChatId.nullable().describe('Numeric chat id or @channel username'),
    messenger_bot_token: ZBotToken.nullable().describe('Telegram bot token; stored sealed, never returned'),
    underpayment_tolerance_bps: ZToleranceBps.nullable().describe(
      '0 to 1000 (10 %); null: UNDERPAYMENT_TOLERANCE_BPS',
    ),
    webhook_api_version: ZApiVersion.describe(
      'Move the event payload version (cannot be cleared): events emitted from now on are rendered at it; events already emitted keep their body',
    ),
  })
  .partial()
  .strict()
  .describe('Fields to change; null clears a field');

/**
 * PATCH /users/me: the webhook and messenger settings are the developers' (webhooks:write), the
 * rest the account's (account:write, the route's own).
 */
export const PROFILE_FIELD_PERMISSIONS = {
  webhook_url: 'webhooks:write',
  webhook_api_version: 'webhooks:write',
  messenger_chat_id: 'webhooks:write',
  messenger_bot_token: 'webhooks:write',
  full_name: 'account:write',
  phone: 'account:write',
  underpayment_tolerance_bps: 'account:write',
} as const satisfies { [F in keyof z.infer<typeof ZUpdateProfileBody>]-?: Permission };

export const ZChangePasswordBody = z
  .object({
    current_password: z.string().min(1).max(1024).describe('Must match the current password'),
    new_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024)
      .describe('At least 10 characters, different from the current one'),
  })
  .strict();

export const ZWebhookSecret = z.object({
  webhook_secret: z
    .string()
    .max(100)
    .regex(/^whsec_[A-Za-z0-9_-]+$/)
    .describe('Shown only this once; the previous secret keeps signing for 24 h'),
  previous_secret_expires_at: ZDateTime.nullable().describe(
    'Until when the previous secret also signs (null when there was none)',
  ),
});

export const profileContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/users/me',
      summary: "The merchant's profile (never the password)",
      description:
        'The merchant behind the bearer token. Secrets are never returned: `messenger_bot_token_set` and `webhook_secret_set` say whether they exist.',
      metadata: merchantAuth('account:read', 'account:read'),
      responses: { 200: ZProfile, ...merchantErrors },
    },
    update: {
      method: 'PATCH',
      path: '/users/me',
      summary: 'Update the profile',
      description:
        'Partial update: only the fields sent change, and null clears one. The webhook and messenger fields (`webhook_url`, `webhook_api_version`, `messenger_chat_id`, `messenger_bot_token`) need webhooks:write, the others account:write; a member is refused (403 naming the permission) a field its role lacks. `webhook_url` must be a public http(s) URL (400 otherwise). `webhook_api_version` moves the event payload version (one of the versions, never null: 400 otherwise); events emitted afterwards are rendered at it, events already emitted keep their body. Returns the profile as it is now.',
      metadata: {
        ...merchantAuth('account:write', 'account:write'),
        fieldPermissions: PROFILE_FIELD_PERMISSIONS,
      },
      body: ZUpdateProfileBody,
      responses: {
        200: ZProfile,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'PAYLOAD_TOO_LARGE'),
      },
    },
    changePassword: {
      method: 'POST',
      path: '/users/me/password',
      summary: 'Change the password; tokens issued before stop working',
      description:
        '`current_password` must match and `new_password` must have at least 10 characters and differ from it (400 otherwise). 204 on success: every token issued before, this one included, stops working (401); log in again.',
      metadata: loginOnly('self:write'),
      body: ZChangePasswordBody,
      responses: {
        204: c.noBody(),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'PAYLOAD_TOO_LARGE'),
      },
    },
    rotateWebhookSecret: {
      method: 'POST',
      path: '/users/me/webhook-secret',
      summary: 'Create or rotate the webhook signing secret',
      description:
        'Returns the new secret: the only time it is shown. Webhooks are signed with it (`X-Webhook-Signature: t=<unix>,v1=<HMAC-SHA256 hex of "<t>.<raw body>">`); the previous secret keeps signing beside it (a second `v1=`) for 24 h so receivers can switch.',
      metadata: merchantAuth('account:write', 'webhooks:write'),
      body: c.noBody(),
      responses: { 200: ZWebhookSecret, ...merchantErrors },
    },
    sendTestWebhook: {
      method: 'POST',
      path: '/users/me/webhook-test',
      summary: 'Send a signed test event (`ping`) to the webhook URL now',
      description:
        "Signs a `ping` event like any other and POSTs it to the profile's `webhook_url` now, once (never retried), and answers with the attempt, also when it failed (`error`, `responseStatus`). The event is stored and the attempt recorded like any delivery. 409 without a `webhook_url` or a signing secret, or when `webhook_api_version` is 2025-01-01, which knows no `ping` (move it on to 2026-11-24 with PATCH /users/me). At most 5 a minute (429 with Retry-After).",
      metadata: merchantAuth('account:write', 'webhooks:write'),
      body: c.noBody(),
      responses: {
        200: ZWebhookDelivery,
        ...errors('UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT'),
      },
    },
    sendTestMessage: {
      method: 'POST',
      path: '/users/me/messenger-test',
      summary: 'Send a test message (`ping`) to the messenger chat now',
      description:
        "Sends the text of a `ping` event to the profile's `messenger_chat_id` with its bot token now, once (never retried), and answers with the attempt, also when it failed. The event is stored and the attempt recorded like any delivery. 409 without a `messenger_chat_id` or `messenger_bot_token`, or when `webhook_api_version` is 2025-01-01, which knows no `ping` (move it on to 2026-11-24 with PATCH /users/me). At most 5 a minute (429 with Retry-After).",
      metadata: merchantAuth('account:write', 'webhooks:write'),
      body: c.noBody(),
      responses: {
        200: ZMessengerDelivery,
        ...errors('UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT'),
      },
    },
  },
  { strictStatusCodes: true },
);
