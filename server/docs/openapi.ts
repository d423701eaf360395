import { initContract, isAppRouteOtherResponse, type AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, OperationObject } from 'openapi3-ts';
import type { ZodTypeAny } from 'zod';
import {
  ZAuditEntry,
  ZErrorBody,
  ZEventPage,
  ZUnattributedPage,
  ZSubscriptionPage,
  ZPayoutPage,
  ZSubscription,
  ZEvmTransaction,
  ZMessengerDelivery,
  ZOrder,
  ZOrderCursorPage,
  ZOrderPage,
  ZPayErrorBody,
  ZPayment,
  ZPaymentInfo,
  ZProfile,
  ZPublicRefund,
  ZRefund,
  ZSolanaPayLabel,
  ZSolanaTransaction,
  ZTronTransaction,
  ZWallet,
  ZWebhookDelivery,
  ZWebhookEvent,
  contract,
  type RouteAuth,
  ROLES,
  permissionsOf,
} from '../../contract';
import pkg from '../../package.json' with { type: 'json' };
import { OPERATION_EXAMPLES, errorExample } from './examples';
import { documentResponseHeaders } from './response-headers';
import { addWebhooks, WEBHOOK_EVENT_COMPONENTS } from './webhooks-doc';

type Json = Record<string, unknown>;

/** Adds the example of each documented body (request, success and error responses). */
function withExamples(operation: OperationObject, path: string): OperationObject {
  // Solana Pay wallets read a top-level `message` on the transaction-request path (as the server sends).
  const solanaPay = /^\/pay\/(tx-request\/|refunds\/[^/]+\/tx-request)/.test(path);
  const examples = OPERATION_EXAMPLES[operation.operationId ?? ''];
  const json = (content: Json | undefined) => content?.['application/json'] as Json | undefined;
  const requestContent = json((operation.requestBody as { content?: Json } | undefined)?.content);
  if (requestContent && examples?.request !== undefined) requestContent.example = examples.request;
  for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
    const content = json(response.content as Json | undefined);
    const error = errorExample(Number(status));
    const example =
      examples?.responses[Number(status)] ??
      (error && solanaPay ? { ...error, message: error.error.message } : error);
    if (content && example !== undefined) content.example = example;
  }
  return operation;
}

/**
 * Responses that are not JSON (images, HTML pages, Prometheus text) are declared in the contract
 * with their media type (`c.otherResponse`), which @ts-rest/open-api drops: they would show as a
 * status without a body. Each gets its media type and a string schema (binary for images).
 */
function withMediaTypes(operation: OperationObject, route: AppRoute): OperationObject {
  for (const [status, declared] of Object.entries(route.responses)) {
    if (!isAppRouteOtherResponse(declared)) continue;
    const type = declared.contentType;
    // The bound of the body: a text body is z.string().max(n), an image zBytes(n) (contract/common.ts).
    const body = declared.body as { maxLength?: number | null; maxBytes?: number };
    const maxLength = body.maxBytes ?? body.maxLength ?? undefined;
    const schema =
      type.startsWith('image/') && !type.includes('svg')
        ? { type: 'string', format: 'binary', maxLength }
        : { type: 'string', maxLength };
    const response = (operation.responses as Record<string, Json>)[status] ?? { description: status };
    response.content = { [type]: { schema } };
    (operation.responses as Record<string, Json>)[status] = response;
  }
  return operation;
}

const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

/**
 * `z.unknown()` comes out as `{nullable: true}` with no type, which OpenAPI 3.0 does not allow: it
 * means any value. A nullable enum lists null among its values. Integers get the `format` their bounds fit (int32, else int64), which zod does
 * not say.
 */
function normaliseSchemas(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(normaliseSchemas);
  const obj = node as Json;
  if (obj.type === 'integer' && obj.format === undefined) {
    const fits = (bound: unknown, limit: number, side: 1 | -1) =>
      typeof bound === 'number' && bound * side <= limit * side;
    obj.format =
      fits(obj.minimum, INT32.minimum, -1) && fits(obj.maximum, INT32.maximum, 1) ? 'int32' : 'int64';
  }
  const typed = ['type', '$ref', 'oneOf', 'anyOf', 'allOf'].some((k) => k in obj);
  if (obj.nullable === true && !typed) delete obj.nullable;
  // `nullable` does not widen an `enum` in OpenAPI 3.0: a value outside it fails, null included,
  // so a nullable enum lists null (webhook_api_version is null until a version is pinned).
  if (obj.nullable === true && Array.isArray(obj.enum) && !obj.enum.includes(null))
    obj.enum = [...obj.enum, null];
  // A nullable union: OpenAPI 3.0 wants `nullable` beside a `type`, so each member carries it.
  for (const union of ['anyOf', 'oneOf'] as const)
    if (obj.nullable === true && !('type' in obj) && Array.isArray(obj[union])) {
      for (const member of obj[union] as Json[]) if ('type' in member) member.nullable = true;
      delete obj.nullable;
      // Then null matches every member, which `oneOf` (exactly one) refuses: any of them will do.
      if (union === 'oneOf' && (obj.oneOf as Json[]).length > 1) {
        obj.anyOf = obj.oneOf;
        delete obj.oneOf;
      }
    }
  Object.values(obj).forEach(normaliseSchemas);
}

/**
 * Schemas that several operations answer with, written once under `components.schemas` and referenced
 * everywhere else. Each is converted from its zod schema by ts-rest itself, so an occurrence in a route
 * is recognised by exact equality. Bigger schemas are matched first (an OrderPage is not taken apart).
 */
export const SHARED_SCHEMAS: Record<string, ZodTypeAny> = {
  OrderPage: ZOrderPage,
  OrderCursorPage: ZOrderCursorPage,
  EventPage: ZEventPage,
  UnattributedPage: ZUnattributedPage,
  SubscriptionPage: ZSubscriptionPage,
  PayoutPage: ZPayoutPage,
  Subscription: ZSubscription,
  Order: ZOrder,
  PaymentInfo: ZPaymentInfo,
  ErrorBody: ZErrorBody,
  PayErrorBody: ZPayErrorBody,
  Wallet: ZWallet,
  Profile: ZProfile,
  Refund: ZRefund,
  PublicRefund: ZPublicRefund,
  Payment: ZPayment,
  AuditEntry: ZAuditEntry,
  WebhookDelivery: ZWebhookDelivery,
  WebhookEvent: ZWebhookEvent,
  // Each event type's payload (OrderPaidEvent, PingEvent, …): the members of WebhookEvent, and x-webhooks.
  ...WEBHOOK_EVENT_COMPONENTS,
  MessengerDelivery: ZMessengerDelivery,
  SolanaTransaction: ZSolanaTransaction,
  EvmTransaction: ZEvmTransaction,
  TronTransaction: ZTronTransaction,
  SolanaPayLabel: ZSolanaPayLabel,
};

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** JSON with the keys of every object sorted: equal schemas give equal strings. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** A response schema exactly as ts-rest writes it in an operation (then normalised like the paths). */
function responseSchema(schema: ZodTypeAny): Json {
  const c = initContract();
  const probe = c.router({ probe: { method: 'GET', path: '/probe', responses: { 200: schema } } });
  const doc = generateOpenApi(probe, { info: { title: 'probe', version: '0' } });
  const operation = doc.paths['/probe'].get as OperationObject;
  const generated = (operation.responses['200'].content as Json)['application/json'] as Json;
  normaliseSchemas(generated.schema);
  return generated.schema as Json;
}

/**
 * Moves the shared schemas to `components.schemas`: every schema in the paths (parameters, request
 * bodies, responses, and inside the shared schemas themselves) deep-equal to one of them becomes a
 * `$ref`. Examples are left alone. The one tolerated difference is a top-level `description` that
 * only repeats its response's description (ZErrorBody described as the 503 answer): the response
 * keeps saying it.
 */
function shareSchemas(document: OpenAPIObject): Record<string, Json> {
  const shared = Object.entries(SHARED_SCHEMAS).map(([name, zod]) => ({ name, schema: responseSchema(zod) }));
  const withoutDescription = ({ description: _description, ...rest }: Json) => canonical(rest);
  const names = new Map<string, string>();
  const undescribed = new Map<string, string>();
  for (const { name, schema } of shared) {
    const key = canonical(schema);
    if (names.has(key)) throw new Error(`${name} and ${names.get(key)} are the same schema`);
    names.set(key, name);
    undescribed.set(withoutDescription(schema), name);
  }
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const nameOf = (node: Json, responseDescription?: string) =>
    names.get(canonical(node)) ??
    (responseDescription !== undefined && node.description === responseDescription
      ? undescribed.get(withoutDescription(node))
      : undefined);
  /** The schema in `holder[key]`: a reference when it is shared, else its parts are looked at. */
  const visit = (holder: Json | unknown[], key: string | number, responseDescription?: string) => {
    const node = (holder as Record<string | number, unknown>)[key];
    if (!isObject(node)) return;
    const name = nameOf(node, responseDescription);
    if (name) (holder as Record<string | number, unknown>)[key] = ref(name);
    else visitParts(node);
  };
  const visitParts = (schema: Json) => {
    for (const key of ['items', 'additionalProperties', 'not']) visit(schema, key);
    if (isObject(schema.properties))
      for (const key of Object.keys(schema.properties)) visit(schema.properties, key);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(schema[key]))
        (schema[key] as unknown[]).forEach((_, i) => visit(schema[key] as unknown[], i));
  };
  const visitContent = (content: unknown, responseDescription?: string) => {
    if (isObject(content))
      for (const media of Object.values(content))
        if (isObject(media)) visit(media, 'schema', responseDescription);
  };

  for (const pathItem of Object.values(document.paths) as Json[])
    for (const operation of Object.values(pathItem) as OperationObject[]) {
      for (const parameter of (operation.parameters ?? []) as Json[]) visit(parameter, 'schema');
      visitContent((operation.requestBody as Json | undefined)?.content);
      for (const response of Object.values(operation.responses as Record<string, Json>))
        visitContent(response.content, response.description as string);
    }
  const components: Record<string, Json> = {};
  for (const { name, schema } of shared) {
    visitParts(schema);
    components[name] = schema;
  }
  return components;
}

/**
 * Who may call a route: merchant routes take a member's login token, and an API key holding the
 * route's scope (named in `x-required-scope`) unless only the login token opens it; the member (or
 * the key's maker) needs the permission in `x-required-permission`, and `x-roles` lists the roles
 * that have it (contract/permissions.ts); `x-field-permissions` the body fields that need their own.
 * Public routes say explicitly that they need nothing.
 */
function securityOf(auth: RouteAuth | undefined): Json {
  if (auth?.auth !== 'merchant') return { security: [] };
  const permission = {
    'x-required-permission': auth.permission,
    'x-roles': ROLES.filter((role) => permissionsOf(role).has(auth.permission)),
    ...(auth.fieldPermissions ? { 'x-field-permissions': auth.fieldPermissions } : {}),
  };
  if (auth.scope === null) return { security: [{ bearerAuth: [] }], ...permission };
  if (auth.apiKeyOnly) return { security: [{ apiKey: [] }], 'x-required-scope': auth.scope, ...permission };
  return { security: [{ bearerAuth: [] }, { apiKey: [] }], 'x-required-scope': auth.scope, ...permission };
}

/** The operations are tagged with their contract router's name; each tag says what it groups. */
/** One per part of the contract: a part added without its description does not compile. */
const TAG_DESCRIPTIONS: Record<keyof typeof contract, string> = {
  account:
    "The account's name, point-of-sale settings (currency, tips) and the owner's requirement of two-factor sign-in",
  auth: 'Logging in (the login token)',
  twoFactor: "Two-factor sign-in (TOTP): a member's enrolment, recovery codes, and the login's second step",
  dashboard: "The dashboard's session (cookie and CSRF token), overview figures and CSV exports",
  apiKeys: 'API keys for server integrations (login token only)',
  members: "The account's members, their roles (contract/permissions.ts) and invitations",
  orders: "Payment orders: creating, listing, reading, reporting a payment's transaction",
  claims: 'Transfers to your wallets that credited no order, to attribute',
  x402: 'x402 facilitator: payments per API call (verify, settle), settled once and recorded as orders of kind x402',
  deliveries: "An order's webhook and messenger deliveries and its audit timeline",
  emails: "The e-mails to an order's customer (its receipt) and how sending them went",
  events: 'Every event, with the body its webhook carries',
  profile: "The merchant's profile, password, webhook secret and test deliveries",
  wallets: "The merchant's receiving wallets",
  pay: 'Payer-facing, public: payment page data, transaction requests, QR codes, the checkout page',
  refunds: "Refunds and the payments ledger; the payer's refund page and address",
  subscriptions: 'Subscriptions: an order every period, mailed to the customer, with a page of their own',
  payouts:
    "Payouts: batches of transfers from the merchant's own wallets, approved, signed by the merchant, verified on chain",
  health: 'Probes and metrics for operators',
  networks: 'The networks and tokens payments are taken on (public)',
  sandbox:
    'The sandbox only (`npm run sandbox`): pay orders, fund addresses, mine blocks, send refunds on its local chains; 404 on any other instance',
};

/** openapi.json is generated from the contract, never written by hand; a test compares the two. */
export function generateOpenApiDocument(): OpenAPIObject {
  const document = generateOpenApi(
    contract,
    {
      info: {
        title: 'stablepay API',
        version: pkg.version,
        description: [
          'Stablecoin payment orders (USDT and USDC on Solana, USDT on Polygon and Ethereum). Amounts are decimal strings with at most 6 decimal places, never JSON numbers; times are ISO-8601 UTC.',
          '**Authentication**: merchant routes take `Authorization: Bearer <token>`, with the login token from POST /auth/login or an API key (`sk_…`, POST /users/me/api-keys). A key opens the routes whose scope (`x-required-scope`) it holds: 403 FORBIDDEN otherwise; API keys and the password are managed with the login token only. Payer-facing routes (/pay, /checkout, /refund) are public: the order reference or refund id is the key.',
          '**Amount and quote**: an order is created from `amount` (token units) or from `quoteCurrency` + `quoteAmount` (a fiat price; `amount = quoteAmount / fxRate`, rounded up). `amount` is always what the payer sends. It may be raised by a few base units so that no two payable orders to one wallet share an amount (`amountUnique`), which lets a plain transfer be matched by its exact amount.',
          '**Statuses**: PENDING -> CONFIRMING -> PAID; UNDERPAID when final payments fall short (still payable until expiry); EXPIRED at `expiresAt`. A payment that becomes final after expiry still makes the order PAID with `paidLate: true`. A reported transaction id is only a claim: orders become PAID only from transactions the service has read and verified on chain, final.',
          '**Idempotency**: POST /orders and POST /orders/{reference}/refunds honour an `Idempotency-Key` header: the same key and body within 24 h return the first order or refund again (with `Idempotent-Replayed: true`); another body is a 409.',
          '**Rate limits**: merchant calls per merchant and second, public routes per client address and minute, failed logins per client and e-mail, refund addresses per client address; counted across instances. Every answer a limit counted (success or error) carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); a 429 adds `Retry-After`. /healthz, /readyz and /metrics are not limited.',
          '**Errors**: every error has the body `{"error": {"code", "message", "details"}}`: 400 VALIDATION_ERROR (with `details`), 401 UNAUTHENTICATED, 404 NOT_FOUND (also for another merchant\'s resources), 409 CONFLICT, 413 PAYLOAD_TOO_LARGE (over 100 KB), 429 RATE_LIMITED (with Retry-After), 502 UPSTREAM_UNAVAILABLE (chain RPC or rate feed), 503 UPSTREAM_UNAVAILABLE (database, with Retry-After).',
        ].join('\n\n'),
      },
      // The service itself, wherever it runs: its API is meant for the public (merchants and payers).
      servers: [{ url: '/', 'x-internal': false }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The login token from POST /auth/login: a JWT issued and checked as RFC8725 (JSON Web Token Best Current Practices) advises: HS256 only (`alg: none` and any other algorithm refused), issuer and expiry checked, a secret of at least 32 characters',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'sk_…',
            description:
              'An API key from POST /users/me/api-keys: opens the routes whose `x-required-scope` it holds',
          },
        },
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation: OperationObject, route) =>
        withExamples(
          withMediaTypes({ ...operation, ...securityOf(route.metadata as RouteAuth | undefined) }, route),
          route.path,
        ),
    },
  );
  normaliseSchemas(document.paths);
  document.components = { schemas: shareSchemas(document), ...document.components };
  addWebhooks(document);
  documentResponseHeaders(document);
  document.info.contact = { name: 'The operator of this stablepay instance' };
  document.tags = Object.keys(contract).map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name as keyof typeof contract],
  }));
  return document;
}
