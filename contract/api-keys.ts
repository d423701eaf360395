import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { API_KEY_SCOPES, ZDateTime, errors, loginOnly } from './common';
import { merchantErrors, orderErrors } from './shapes';

const c = initContract();

export const MAX_API_KEYS = 50;

export const ZApiKeyScope = z
  .enum(API_KEY_SCOPES)
  .describe(
    'orders:read (orders, their payments, refunds, deliveries, audit and events; subscription events and their deliveries only with subscriptions:read too), orders:write (create orders, report transactions, redeliver webhooks), refunds:write (create refunds), account:read (profile, wallets), account:write (profile, wallets, webhook secret, test deliveries), subscriptions:read (subscriptions and their orders; with orders:read, their events and deliveries), subscriptions:write (create, cancel, pause, resume subscriptions)',
  );

export const ZApiKey = z
  .object({
    id: z.string().uuid().max(36),
    name: z.string().max(100).describe('What the merchant called it'),
    scopes: z.array(ZApiKeyScope).max(API_KEY_SCOPES.length),
    last4: z.string().max(4).describe('The last four characters of the secret, to tell keys apart'),
    createdAt: ZDateTime,
    lastUsedAt: ZDateTime.nullable().describe(
      'When it last opened a route (written at most once a minute, so up to a minute behind)',
    ),
  })
  .describe('An API key, without its secret');

export const ZCreatedApiKey = ZApiKey.extend({
  secret: z.string().max(100).describe('sk_…: shown only this once; send it as `Authorization: Bearer sk_…`'),
}).describe('A new API key, with its secret: the only time it is shown');

export const ZCreateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe('To recognise the key later, e.g. "shop backend"'),
    scopes: z
      .array(ZApiKeyScope)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .refine((s) => new Set(s).size === s.length, 'must not repeat a scope')
      .describe('What the key may do'),
  })
  .strict();

export const ZApiKeyParams = z.object({
  id: z.string().max(36).uuid('must be an API key id'),
});

export const apiKeysContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/users/me/api-keys',
      summary: 'Create an API key (login token only)',
      description: `A key for a server integration: it opens the merchant routes its scopes allow and nothing else (403 FORBIDDEN naming the missing scope). The secret is shown in this answer only; the service keeps a hash. Keys do not end with a password change: revoke them. Only the login token may create, list or revoke keys (an API key gets 403). At most ${MAX_API_KEYS} keys in use per merchant (409 beyond).`,
      metadata: loginOnly('keys:write'),
      body: ZCreateApiKeyBody,
      responses: {
        201: ZCreatedApiKey,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    list: {
      method: 'GET',
      path: '/users/me/api-keys',
      summary: 'The API keys in use, oldest first (login token only)',
      description: 'Every key not revoked, without its secret.',
      metadata: loginOnly('keys:write'),
      responses: {
        200: z.object({ items: z.array(ZApiKey).max(MAX_API_KEYS) }),
        ...merchantErrors,
      },
    },
    revoke: {
      method: 'DELETE',
      path: '/users/me/api-keys/:id',
      summary: 'Revoke an API key (login token only)',
      description:
        "From this answer on the key is refused (401) on every instance. 404 for an unknown key, one already revoked or another merchant's.",
      metadata: loginOnly('keys:write'),
      pathParams: ZApiKeyParams,
      body: c.noBody(),
      responses: {
        204: c.noBody(),
        ...orderErrors,
      },
    },
  },
  { strictStatusCodes: true },
);

export type ApiKey = z.infer<typeof ZApiKey>;
export type CreatedApiKey = z.infer<typeof ZCreatedApiKey>;
export type CreateApiKeyBody = z.infer<typeof ZCreateApiKeyBody>;
