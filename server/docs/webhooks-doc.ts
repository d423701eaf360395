import type { OpenAPIObject, ParameterObject } from 'openapi3-ts';
import type { ZodTypeAny } from 'zod';
import {
  API_VERSIONS,
  API_VERSION_CHANGES,
  EVENT_TYPES,
  EVENT_TYPE_SINCE,
  LATEST_API_VERSION,
  WEBHOOK_EVENT_SCHEMAS,
  type EventType,
} from '../../contract';
import { WEBHOOK_EXAMPLES } from './examples';

type Json = Record<string, unknown>;

/** The component name of an event type's payload: `order.payment_rejected` → `OrderPaymentRejectedEvent`. */
export const webhookEventSchemaName = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;

/** Each event type's payload, named once under `components.schemas` (with the other shared schemas). */
export const WEBHOOK_EVENT_COMPONENTS: Record<string, ZodTypeAny> = Object.fromEntries(
  EVENT_TYPES.map((type) => [webhookEventSchemaName(type), WEBHOOK_EVENT_SCHEMAS[type]]),
);

/** When each event is sent. */
const WHEN: Record<EventType, string> = {
  'order.created': 'An order was created (POST /orders).',
  'order.confirming':
    'A payment transaction was reported or seen for the order and waits for finality (status CONFIRMING).',
  'order.paid':
    'Final payments reached the order amount (status PAID; `paidLate: true` after expiry). `data.payment` is the transfer that completed it. Fulfil on this event.',
  'order.underpaid':
    'A final payment was credited but the order is still short of its amount (status UNDERPAID; still payable until expiry). `data.payment` is the transfer.',
  'order.expired': 'The order reached `expiresAt` without a full payment (status EXPIRED).',
  'order.payment_rejected':
    'A reported transaction failed verification (wrong token, recipient or amount, not final in time, used by another order): the order goes back to its previous status.',
  'order.payment_claimed':
    'A payer reported a transfer that neither names the order nor pays its exact amount, without a signature by the sending wallet (anyone can read a transaction id off the chain). It credits nothing: `data.claim` is the transfer; attribute it with POST /orders/{reference}/submit-tx if it is this order’s. The order keeps its status. API version 2026-11-27 on.',
  'refund.created':
    'A refund was created, and again when it moves towards being sent: the payer gave the refund address (`status` PENDING when signed by a wallet whose own payments to the order cover the refund, AWAITING_APPROVAL when not: approve it with POST /orders/{reference}/refunds/{id}/approve), and when the merchant approved it (PENDING). `data.refund` is the refund (its `transaction` is null).',
  'refund.succeeded':
    'The refund transfer was found on chain, verified and final; `late: true` when the refund had FAILED first and its transfer landed before its `lateUntil` (it counts in `amountRefunded` all the same).',
  'refund.failed':
    'No verified refund transfer before the refund deadline (or no address, or no approval). Until its `lateUntil` the refund holds its amount and a late transfer still makes it SUCCEED (`refund.succeeded`, `late: true`).',
  'subscription.created':
    'A subscription was created (POST /subscriptions): INCOMPLETE, or TRIALING with a trial. API version 2026-12-01 on, like every subscription event.',
  'subscription.order_created':
    "A period's order was made (at the period's start, or again for the same period after it expired unpaid): `data.order` is the order to send the customer (mailed to them too with SMTP_URL).",
  'subscription.active':
    "The subscription moved into ACTIVE: a period's order was PAID (`data.order`). Sent on each move into ACTIVE, not on every paid period.",
  'subscription.past_due':
    "A period's order expired unpaid (`data.order`): a new order for the same period is made at once (subscription.order_created). CANCELED after SUBSCRIPTION_CANCEL_AFTER_DAYS past due.",
  'subscription.paused': 'The merchant paused the subscription: no orders until resumed.',
  'subscription.resumed':
    'The merchant resumed the subscription: orders start again from the period that holds now.',
  'subscription.canceled':
    'The subscription ended: canceled by the merchant, by the customer (at the end of a period), or past due for too long. Final.',
  'member.invited':
    'Someone was invited to the account (POST /members/invitations): `data.invitation`, and who invited (`actor`, `memberId`, `memberEmail`). API version 2026-12-03 on, like every member event.',
  'member.joined': 'An invitation was accepted: `data.member` is the new member (who is also the actor).',
  'member.role_changed':
    "A member's role changed (or ownership moved): `data.member` with its new role, `data.previousRole`.",
  'member.removed': 'A member was removed: its tokens, sessions and API keys stopped.',
  'payout.created':
    'A payout batch was made (POST /payouts): DRAFT until approved. API version 2026-12-03 on, like every payout event.',
  'payout.approved':
    'The batch has its approvals (APPROVED): its transactions can be fetched, signed and sent.',
  'payout.completed': 'Every item of the batch was verified on chain and is final (COMPLETED).',
  'payout.partial':
    'Every item is settled, some CONFIRMED and some FAILED (PARTIAL): send the failed ones again in a new batch.',
  'payout.failed': 'Every item of the batch FAILED: none was paid as it must.',
  'payout.item_confirmed': 'One item was paid exactly and the transfer is final: `data.item`.',
  'payout.item_failed':
    'One item FAILED: its reported transaction is final and pays something else, or none came by the deadline: `data.item`.',
  ping: 'A test delivery, sent only when asked for with POST /users/me/webhook-test (or /users/me/messenger-test): about no order.',
};

const HEADERS: Record<string, ParameterObject> = {
  WebhookId: {
    name: 'X-Webhook-Id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_…`), the same on every attempt: de-duplicate on it',
    schema: { type: 'string', maxLength: 64 },
  },
  WebhookTimestamp: {
    name: 'X-Webhook-Timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in unix seconds (the `t=` of the signature)',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$', maxLength: 12 },
  },
  WebhookSignature: {
    name: 'X-Webhook-Signature',
    in: 'header',
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with your webhook secret>`; a second `v1=` for 24 h after a secret rotation (the previous secret). Verify it on the raw body (the SDK: `webhooks.constructEvent`) and refuse a `t` far from now.',
    schema: { type: 'string', maxLength: 300 },
    example: 't=1795000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  },
  WebhookAttempt: {
    name: 'X-Webhook-Attempt',
    in: 'header',
    required: true,
    description: '1 for the first attempt of the event, then 2, 3, … on retries and redeliveries',
    schema: { type: 'string', pattern: '^[0-9]{1,4}$', maxLength: 4 },
  },
};

const ref = (where: 'schemas' | 'parameters', name: string) => ({ $ref: `#/components/${where}/${name}` });

/** The mapping of every `type` discriminator over the event payloads (the component names are not the types). */
function mapDiscriminators(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(mapDiscriminators);
  if (!node || typeof node !== 'object') return;
  const obj = node as Json;
  const discriminator = obj.discriminator as Json | undefined;
  if (discriminator?.propertyName === 'type' && Array.isArray(obj.oneOf)) {
    const refs = new Set((obj.oneOf as Json[]).map((member) => member.$ref));
    const mapping = Object.fromEntries(
      EVENT_TYPES.map((type) => [type, ref('schemas', webhookEventSchemaName(type)).$ref]).filter(
        ([, target]) => refs.has(target),
      ),
    );
    if (Object.keys(mapping).length === refs.size) discriminator.mapping = mapping;
  }
  Object.values(obj).forEach(mapDiscriminators);
}

/**
 * Describes what the service sends: `x-webhooks` (OpenAPI 3.1's `webhooks`, as an extension that
 * 3.0 tools such as Redocly read), one POST per event type with its payload (a component schema),
 * its signature headers and an example; and the versions of the payload in the description.
 * Runs after the shared schemas are in `components.schemas` (WEBHOOK_EVENT_COMPONENTS among them).
 */
export function addWebhooks(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  for (const type of EVENT_TYPES)
    if (!schemas[webhookEventSchemaName(type)])
      throw new Error(`${webhookEventSchemaName(type)} is not in components.schemas`);
  mapDiscriminators(document.paths);
  mapDiscriminators(schemas);
  document.components = {
    ...document.components,
    parameters: { ...document.components?.parameters, ...HEADERS },
  };

  document['x-webhooks'] = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhooks.${type}`,
          summary: `${type} event`,
          description: [
            WHEN[type],
            `Sent to ${type === 'ping' ? "the profile's `webhook_url`" : "the order's `webhookUrl`, else the profile's `webhook_url`"}, signed with the merchant's webhook secret, at the merchant's API version (\`apiVersion\`: its \`webhook_api_version\`); only to merchants whose version knows it (from ${EVENT_TYPE_SINCE[type]} on).`,
          ].join('\n\n'),
          security: [],
          parameters: Object.keys(HEADERS).map((name) => ref('parameters', name)),
          requestBody: {
            required: true,
            description:
              'The event, exactly as signed: verify the signature on these raw bytes before parsing them',
            content: {
              'application/json': {
                schema: ref('schemas', webhookEventSchemaName(type)),
                example: WEBHOOK_EXAMPLES[type],
              },
            },
          },
          responses: {
            '200': {
              description:
                'Received. Any 2xx answer ends the retries of the event; anything else (another status, a redirect, no answer within 10 s) is a failed attempt, retried with exponential back-off for about 24 h',
            },
          },
        },
      },
    ]),
  );

  document.info.description = [
    document.info.description,
    `**Webhooks**: \`x-webhooks\` describes each event's payload. Every event carries \`apiVersion\`, the version it was rendered at: the merchant's \`webhook_api_version\` (pinned to the latest, ${LATEST_API_VERSION}, when its first webhook secret is created; moved with PATCH /users/me). A new event type is a new version (receivers that switch over the types they know break on an unknown one), so is removing or renaming a field or changing its meaning; a new field is not. Merchants are sent only the event types their version knows. Versions: ${API_VERSIONS.map((version) => `${version}: ${API_VERSION_CHANGES[version]}`).join(' ')}`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
