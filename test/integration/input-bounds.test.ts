import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_DETAILS_MAX, ERROR_MESSAGE_MAX } from '../../contract';
import { generateOpenApiDocument } from '../../server/docs/openapi';
import { newMerchant, startTestServer, type ApiResponse, type TestServer } from '../support/test-server';

/**
 * Every bound the OpenAPI document states on an input (a string's maxLength) is what validation
 * enforces: one character more is a 400 VALIDATION_ERROR naming the field. And error bodies stay
 * within their own documented bounds, whatever the request quotes back.
 */

type Json = Record<string, unknown>;
const doc = generateOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};
const resolve = (schema: Json | undefined): Json | undefined => {
  const ref = schema?.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.split('/').pop()!] : schema;
};

/** A value of the right form for each path parameter (the route is reached, its resource need not exist). */
const PATH_VALUES: Record<string, string> = {
  reference: '7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX',
  refundId: `rf_${'0'.repeat(32)}`,
  wallet_id: '00000000-0000-4000-8000-000000000000',
};
const pathFor = (path: string, overrides: Record<string, string> = {}) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (overrides[name] !== undefined) return encodeURIComponent(overrides[name]);
    if (name === 'id' && path.startsWith('/users/me/api-keys')) return PATH_VALUES.wallet_id!;
    if (name === 'id' && path.startsWith('/events')) return `evt_${'0'.repeat(32)}`;
    return PATH_VALUES[name] ?? '1';
  });

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' });
  token = (await newMerchant(server)).token;
});
afterAll(() => server?.stop());

/** Whether an answer refuses `where` (e.g. body.description) for being over `max` characters. */
function refusesLength(res: ApiResponse, where: string, max: number) {
  expect(res.status, `${where}: ${res.text}`).toBe(400);
  const body = res.body as { error: { code: string; details?: { path: string; message: string }[] } };
  expect(body.error.code).toBe('VALIDATION_ERROR');
  const details = (body.error.details ?? []).filter((d) => d.path === where);
  expect(
    details.some((d) => d.message.includes(`at most ${max}`)),
    `${where}: ${JSON.stringify(details)}`,
  ).toBe(true);
}

/** Every path of the document but the sandbox's, which answer 404 to everything on other instances (as this one). */
const pathsServedHere = () => Object.entries(doc.paths).filter(([path]) => !path.startsWith('/sandbox'));

describe('input bounds', () => {
  it('a string body field one character over its documented maxLength is a 400 naming it', async () => {
    let checked = 0;
    for (const [path, item] of pathsServedHere())
      for (const [method, op] of Object.entries(item)) {
        const media = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
          'application/json'
        ] as Json | undefined;
        const schema = resolve(media?.schema as Json | undefined);
        const example = (media?.example ?? {}) as Json;
        for (const [name, property] of Object.entries((schema?.properties ?? {}) as Record<string, Json>)) {
          const max = property.maxLength;
          if (property.type !== 'string' || typeof max !== 'number') continue;
          const res = await server.api(method.toUpperCase(), pathFor(path), {
            token,
            body: { ...example, [name]: 'a'.repeat(max + 1) },
          });
          refusesLength(res, `body.${name}`, max);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(20);
  });

  it('a path, query or header parameter one character over its documented maxLength is a 400 naming it', async () => {
    const where = { path: 'params', query: 'query', header: 'headers' } as Record<string, string>;
    let checked = 0;
    for (const [path, item] of pathsServedHere())
      for (const [method, op] of Object.entries(item))
        for (const parameter of (op.parameters ?? []) as Json[]) {
          const schema = parameter.schema as Json;
          const max = schema.maxLength;
          if (schema.type !== 'string' || typeof max !== 'number') continue;
          const name = parameter.name as string;
          const value = 'a'.repeat(max + 1);
          let url = pathFor(path, parameter.in === 'path' ? { [name]: value } : {});
          if (parameter.in === 'query') url += `?${name}=${value}`;
          const media = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
            'application/json'
          ] as Json | undefined;
          const res = await server.api(method.toUpperCase(), url, {
            token,
            headers: parameter.in === 'header' ? { [name]: value } : {},
            ...(media ? { body: media.example ?? {} } : {}),
          });
          const key = parameter.in === 'header' ? name.toLowerCase() : name;
          refusesLength(res, `${where[parameter.in as string]}.${key}`, max);
          checked++;
        }
    expect(checked).toBeGreaterThan(10);
  });

  it('an error body stays within its documented bounds, whatever the request quotes back', async () => {
    const hostile = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`${'k'.repeat(400)}${i}`, i]),
    ) as Json;
    const res = await server.api('POST', '/orders', {
      token,
      body: { network: 'SOLANA', token: 'USDT', amount: 'x'.repeat(30), ...hostile },
    });
    expect(res.status).toBe(400);
    const { error } = res.body as {
      error: { message: string; details: { path: string; message: string }[] };
    };
    expect(error.message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX);
    expect(error.details.length).toBeLessThanOrEqual(ERROR_DETAILS_MAX);
    for (const detail of error.details) expect(detail.message.length).toBeLessThanOrEqual(ERROR_MESSAGE_MAX);

    const many = await server.api('POST', '/users/me/api-keys', {
      token,
      body: { name: 'k', scopes: Array.from({ length: 500 }, (_, i) => `scope-${i}`) },
    });
    expect(many.status).toBe(400);
    const manyError = (many.body as { error: { details: unknown[] } }).error;
    expect(manyError.details.length).toBeLessThanOrEqual(ERROR_DETAILS_MAX);
  });
});
