import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZDateTime, errors, merchantAuth } from './common';
import { ZHttpUrl, ZMessengerChatId } from './orders';

const c = initContract();

export const MIN_PASSWORD_LENGTH = 10;

export const ZProfile = z.object({
  id: z.string().uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  phone: z.string().nullable(),
  webhook_url: z.string().nullable(),
  messenger_chat_id: z.string().nullable(),
  messenger_bot_token_set: z.boolean().describe('The bot token itself is never returned'),
  webhook_secret_set: z.boolean(),
  underpayment_tolerance_bps: z
    .number()
    .int()
    .nullable()
    .describe(
      'Basis points of an amount an order may fall short and still be PAID (null: the server default)',
    ),
  created_at: ZDateTime,
  updated_at: ZDateTime,
});

/** Telegram bot tokens look like `123456789:AA...` */
export const ZBotToken = z
  .string()
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'must be a bot token like 123456:ABC...');

export const ZUpdateProfileBody = z
  .object({
    full_name: z.string().trim().min(1).max(200).nullable(),
    phone: z
      .string()
      .regex(/^\+?[0-9 ()-]{5,32}$/, 'must be a phone number, e.g. +55 11 91234-5678')
      .refine((v) => (v.match(/\d/g) ?? []).length >= 5, 'must have at least 5 digits')
      .nullable(),
    webhook_url: ZHttpUrl.nullable(),
    messenger_chat_id: ZMessengerChatId.nullable(),
    messenger_bot_token: ZBotToken.nullable(),
    underpayment_tolerance_bps: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .nullable()
      .describe('0 to 1000 (10 %); null: UNDERPAYMENT_TOLERANCE_BPS'),
  })
  .partial()
  .strict()
  .describe('Fields to change; null clears a field');

export const ZChangePasswordBody = z
  .object({
    current_password: z.string().min(1).max(1024),
    new_password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024),
  })
  .strict();

export const ZWebhookSecret = z.object({
  webhook_secret: z.string().describe('Shown only this once; the previous secret keeps signing for 24 h'),
  previous_secret_expires_at: ZDateTime.nullable(),
});

export const profileContract = c.router(
  {
    get: {
      method: 'GET',
      path: '/users/me',
      summary: "The merchant's profile (never the password)",
      metadata: merchantAuth,
      responses: { 200: ZProfile, ...errors('UNAUTHENTICATED') },
    },
    update: {
      method: 'PATCH',
      path: '/users/me',
      summary: 'Update the profile',
      metadata: merchantAuth,
      body: ZUpdateProfileBody,
      responses: { 200: ZProfile, ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE') },
    },
    changePassword: {
      method: 'POST',
      path: '/users/me/password',
      summary: 'Change the password; tokens issued before stop working',
      metadata: merchantAuth,
      body: ZChangePasswordBody,
      responses: {
        204: c.noBody(),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE'),
      },
    },
    rotateWebhookSecret: {
      method: 'POST',
      path: '/users/me/webhook-secret',
      summary: 'Create or rotate the webhook signing secret',
      metadata: merchantAuth,
      body: c.noBody(),
      responses: { 200: ZWebhookSecret, ...errors('UNAUTHENTICATED') },
    },
  },
  { strictStatusCodes: true },
);
