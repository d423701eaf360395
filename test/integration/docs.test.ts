import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contract, type RouteAuth } from '../../contract';
import { ZodType, type ZodTypeAny } from 'zod';
import { OPERATION_EXAMPLES } from '../../server/docs/examples';
import { generateOpenApiDocument } from '../../server/docs/openapi';
import { webhookEventSchemaName } from '../../server/docs/webhooks-doc';
import { API_VERSIONS, EVENT_TYPES, WEBHOOK_EVENT_SCHEMAS } from '../../contract';
import { expectErrorBody, newMerchant, startTestServer, useTestServer } from '../support/test-server';

const server = useTestServer();

type Route = { method: string; path: string; metadata?: { auth?: string } };
type Json = Record<string, unknown>;
function routes(router: object): Route[] {
  return Object.values(router).flatMap((r: Route | object) =>
    'method' in r && 'path' in r ? [r as Route] : routes(r),
  );
}

describe('OpenAPI document', () => {
  // With this, `npm run lint:api` (Spectral's OpenAPI and OWASP rulesets on the committed file, in
  // `npm run lint`) holds for what the contract generates: no second Spectral run here.
  it('committed openapi.json equals a fresh generation from the contract (run `npm run openapi`)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(generateOpenApiDocument())));
  });

  it('documents every contract route with an operationId, a summary, its errors and bearer auth where required', () => {
    const doc = generateOpenApiDocument();
    for (const route of routes(contract)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBeTruthy();
      expect(op.summary).toBeTruthy();
      if (route.metadata?.auth === 'merchant') {
        const { scope, apiKeyOnly } = route.metadata as Extract<RouteAuth, { auth: 'merchant' }>;
        const security = apiKeyOnly
          ? [{ apiKey: [] }]
          : scope
            ? [{ bearerAuth: [] }, { apiKey: [] }]
            : [{ bearerAuth: [] }];
        expect(op.security, `${route.method} ${route.path}`).toEqual(security);
        expect(op['x-required-scope']).toBe(scope ?? undefined);
        expect(op.responses['401']).toBeDefined();
        expect(op.responses['403']).toBeDefined();
      }
      if (
        !route.path.startsWith('/health') &&
        !route.path.startsWith('/readyz') &&
        route.path !== '/metrics' &&
        route.path !== '/pay/icon.svg'
      )
        expect(op.responses['429'], `${route.path} 429`).toBeDefined();
    }
  });

  it('names the shared schemas once under components.schemas and refers to them everywhere', () => {
    const doc = generateOpenApiDocument();
    const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
    for (const name of [
      'Order',
      'OrderPage',
      'OrderCursorPage',
      'ErrorBody',
      'PayErrorBody',
      'Wallet',
      'Profile',
      'Refund',
      'Payment',
      'AuditEntry',
      'WebhookDelivery',
      'MessengerDelivery',
      'PaymentInfo',
    ])
      expect(schemas[name], name).toMatchObject({ type: 'object' });
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const answer = (path: string, method: string, status: number) =>
      doc.paths[path]?.[method]?.responses[status]?.content['application/json'].schema;
    // Order is referenced, not inlined, by create, get and both forms of the list.
    expect(answer('/orders', 'post', 201)).toEqual(ref('Order'));
    expect(answer('/orders/{reference}', 'get', 200)).toEqual(ref('Order'));
    expect(answer('/orders/{reference}/submit-tx', 'post', 202)).toEqual(ref('Order'));
    expect(answer('/users/me/orders', 'get', 200)).toEqual({
      oneOf: [ref('OrderPage'), ref('OrderCursorPage')],
    });
    expect((schemas.OrderPage!.properties as Json).items).toMatchObject({ items: ref('Order') });
    expect((schemas.OrderCursorPage!.properties as Json).items).toMatchObject({ items: ref('Order') });
    expect(answer('/orders', 'post', 400)).toEqual(ref('ErrorBody'));
    expect(answer('/pay/tx-request/{reference}', 'get', 400)).toEqual(ref('PayErrorBody'));

    // Every component is used, and no operation carries an inline copy of one (same property names).
    const refs = new Set<string>();
    const inline: string[] = [];
    const shapes = new Map(
      Object.entries(schemas).map(([name, s]) => [
        Object.keys(s.properties ?? {})
          .sort()
          .join(),
        name,
      ]),
    );
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const obj = node as Json;
      if (typeof obj.$ref === 'string') refs.add(obj.$ref);
      const shape =
        typeof obj.properties === 'object'
          ? Object.keys(obj.properties as Json)
              .sort()
              .join()
          : '';
      if (shape && shapes.has(shape) && where.startsWith('#/paths'))
        inline.push(`${where}: ${shapes.get(shape)}`);
      for (const [key, value] of Object.entries(obj)) if (key !== 'example') walk(value, `${where}/${key}`);
    };
    walk(doc, '#');
    expect(inline).toEqual([]);
    for (const name of Object.keys(schemas))
      expect(refs.has(`#/components/schemas/${name}`), name).toBe(true);
  });

  it('gives every answer with a body its media type, and the service answers with it', async () => {
    const doc = generateOpenApiDocument();
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Json>>))
      for (const [method, op] of Object.entries(operations))
        for (const [status, response] of Object.entries(op.responses as Record<string, Json>))
          if (status !== '204') expect(response.content, `${method} ${path} ${status}`).toBeDefined();

    const m = await newMerchant(server, { wallets: ['SOLANA'] });
    const order = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '1' },
    });
    const reference = order.body.reference as string;
    for (const [path, documented, headers] of [
      ['/pay/{reference}/qr.png', '/pay/{reference}/qr.png', {}],
      ['/pay/{reference}/qr.svg', '/pay/{reference}/qr.svg', {}],
      ['/pay/icon.svg', '/pay/icon.svg', {}],
      ['/checkout/{reference}', '/checkout/{reference}', { accept: 'text/html' }],
      ['/metrics', '/metrics', {}],
    ] as [string, string, Record<string, string>][]) {
      const res = await fetch(`${server.url}${path.replace('{reference}', reference)}`, { headers });
      expect(res.status, path).toBe(200);
      const served = res.headers.get('content-type')!.split(';')[0];
      const content = (doc.paths[documented]!.get.responses['200'] as Json).content as Json;
      expect(
        Object.keys(content).map((type) => type.split(';')[0]),
        path,
      ).toEqual([served]);
    }
  });

  it("lets a nullable enum be null: a new merchant's profile (webhook_api_version null) matches its schema", async () => {
    const doc = generateOpenApiDocument() as unknown as Json;
    const nullableEnums: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
      if (!node || typeof node !== 'object') return;
      const obj = node as Json;
      if (obj.nullable === true && Array.isArray(obj.enum)) {
        nullableEnums.push(where);
        expect(obj.enum, where).toContain(null);
      }
      for (const [key, value] of Object.entries(obj)) walk(value, `${where}/${key}`);
    };
    walk(doc, '#');
    expect(nullableEnums).toContain('#/components/schemas/Profile/properties/webhook_api_version');
    const m = await newMerchant(server);
    const profile = await server.api('GET', '/users/me', { token: m.token });
    expect(profile.body.webhook_api_version).toBeNull();
    const schema = ((doc.components as Json).schemas as Record<string, Json>).Profile!;
    const version = (schema.properties as Record<string, Json>).webhook_api_version!;
    expect(version.enum).toContain(profile.body.webhook_api_version);
  });

  it('describes every operation', () => {
    const doc = generateOpenApiDocument();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>))
      for (const [method, op] of Object.entries(item))
        expect(String(op.description ?? '').length, `${method} ${path}`).toBeGreaterThan(40);
  });

  it('is served at /openapi.json', async () => {
    const res = await server.api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toContain('/orders');
  });
});

describe('examples in the API reference', () => {
  type AnyRoute = Route & { body?: unknown; responses: Record<number, unknown> };
  const byOperation = Object.entries(contract).flatMap(([group, router]) =>
    Object.entries(router as Record<string, AnyRoute>).map(
      ([name, route]) => [`${group}.${name}`, route] as const,
    ),
  );
  const isZod = (s: unknown): s is ZodTypeAny => s instanceof ZodType;

  it('every example parses with the contract schema it illustrates', () => {
    let checked = 0;
    for (const [id, route] of byOperation) {
      const examples = OPERATION_EXAMPLES[id];
      if (!examples) continue;
      if (examples.request !== undefined) {
        expect(isZod(route.body), `${id} has a body`).toBe(true);
        const result = (route.body as ZodTypeAny).safeParse(examples.request);
        expect(result.success, `${id} request: ${JSON.stringify(result.error?.issues)}`).toBe(true);
        checked++;
      }
      for (const [status, example] of Object.entries(examples.responses)) {
        const schema = route.responses[Number(status)];
        expect(isZod(schema), `${id} ${status} is a JSON response`).toBe(true);
        const result = (schema as ZodTypeAny).safeParse(example);
        expect(result.success, `${id} ${status}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('every route with a JSON body or answer has examples in openapi.json', () => {
    const doc = generateOpenApiDocument();
    for (const [id, route] of byOperation) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      for (const [status, response] of Object.entries(
        op.responses as Record<string, { content?: Record<string, { example?: unknown }> }>,
      )) {
        const json = response.content?.['application/json'];
        if (json) expect(json.example, `${id} ${status}`).toBeDefined();
      }
      const body = op.requestBody?.content?.['application/json'];
      if (body && isZod(route.body)) expect(body.example, `${id} request`).toBeDefined();
    }
  });
});

describe('/docs', () => {
  it('serves an interactive reference from local assets only', async () => {
    const page = await server.api('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/'), `${asset} is local`).toBe(true);
      const res = await fetch(`${server.url}${asset}`);
      expect(res.status, asset).toBe(200);
    }
    const init = await server.api('GET', '/docs/init.js');
    expect(init.text).toContain('/openapi.json');
  });
});

describe('health', () => {
  it('/healthz and /readyz answer without a token', async () => {
    expect((await server.api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await server.api('GET', '/readyz')).body).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('/metrics', () => {
  it('serves Prometheus metrics labelled by contract route, with the database backlog', async () => {
    await server.api('GET', '/pay/7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX/info');
    await server.api('GET', '/no/such/route');
    const res = await server.api('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(
      /stablepay_http_requests_total\{method="GET",route="\/pay\/:reference\/info",status="404"\} 1/,
    );
    expect(res.text).toMatch(/route="unmatched"/);
    expect(res.text).not.toContain('/no/such/route');
    expect(res.text).toMatch(/stablepay_backlog\{kind="pending_deliveries"\} \d+/);
    expect(res.text).toContain('process_cpu_seconds_total');
  });

  it('requires METRICS_TOKEN when one is configured', async () => {
    const guarded = await startTestServer({ METRICS_TOKEN: 'a-long-metrics-token-123' });
    try {
      expect((await guarded.api('GET', '/metrics')).status).toBe(401);
      expect((await guarded.api('GET', '/metrics', { token: 'wrong-token-of-some-length' })).status).toBe(
        401,
      );
      expect((await guarded.api('GET', '/metrics', { token: 'a-long-metrics-token-123' })).status).toBe(200);
      // From anywhere with the token, a client behind a proxy included.
      const proxied = await guarded.api('GET', '/metrics', {
        token: 'a-long-metrics-token-123',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      expect(proxied.status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });

  it('answers only loopback clients without METRICS_TOKEN: a client behind a proxy is not one', async () => {
    // TRUST_PROXY=1: the client is the one X-Forwarded-For names (HAProxy in front, on this machine).
    const behindProxy = await startTestServer({ TRUST_PROXY: '1', JOBS: 'none' });
    try {
      expect((await behindProxy.api('GET', '/metrics')).status).toBe(200); // a local scraper
      for (const forwardedFor of ['203.0.113.7', '127.0.0.1', '10.0.0.5, 127.0.0.1']) {
        const res = await behindProxy.api('GET', '/metrics', {
          headers: { 'x-forwarded-for': forwardedFor },
        });
        expectErrorBody(res, 401, 'UNAUTHENTICATED');
        expect(res.body.error.message).toMatch(/METRICS_TOKEN/);
        expect(res.text).not.toContain('stablepay_');
      }
    } finally {
      await behindProxy.stop();
    }
    // TRUST_PROXY=0 (the proxy not declared): a forwarded request still came from somewhere else.
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7' },
    ];
    for (const headers of forwarded)
      expectErrorBody(await server.api('GET', '/metrics', { headers }), 401, 'UNAUTHENTICATED');
  });
});

describe('webhooks in the API reference', () => {
  it('x-webhooks: a POST per event type with its payload schema, the signature headers and an example that parses', () => {
    const doc = generateOpenApiDocument() as unknown as Json;
    const hooks = doc['x-webhooks'] as Record<string, { post: Json }>;
    expect(Object.keys(hooks)).toEqual([...EVENT_TYPES]);
    const components = doc.components as { schemas: Record<string, Json>; parameters: Record<string, Json> };
    for (const type of EVENT_TYPES) {
      const op = hooks[type]!.post as {
        operationId: string;
        description: string;
        parameters: { $ref: string }[];
        requestBody: { content: Record<string, { schema: unknown; example: unknown }> };
        responses: Record<string, unknown>;
      };
      expect(op.operationId).toBe(`webhooks.${type}`);
      expect(op.description.length, type).toBeGreaterThan(40);
      const headers = op.parameters.map((p) => components.parameters[p.$ref.split('/').pop()!]!.name);
      expect(headers).toEqual([
        'X-Webhook-Id',
        'X-Webhook-Timestamp',
        'X-Webhook-Signature',
        'X-Webhook-Attempt',
      ]);
      const json = op.requestBody.content['application/json']!;
      const name = webhookEventSchemaName(type);
      expect(json.schema).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(components.schemas[name]).toMatchObject({
        type: 'object',
        properties: { type: { enum: [type] }, apiVersion: { enum: [...API_VERSIONS] } },
      });
      const parsed = WEBHOOK_EVENT_SCHEMAS[type].safeParse(json.example);
      expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(op.responses['200']).toBeDefined();
    }
    expect(webhookEventSchemaName('order.payment_rejected')).toBe('OrderPaymentRejectedEvent');
    expect(String((doc.info as Json).description)).toContain('2026-11-24: Adds the event type `ping`');
  });
});
