import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, PublicKey } from '@solana/web3.js';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract, ErrorCode, errorStatus } from '../../contract';
import { encodeBase58 } from '../../server/lib/base58';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { EVM_WALLET, SOLANA_WALLET, newMerchant, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';
import { isDeliberateUnconfigured } from '../support/deliberate-answers';

/**
 * The fuzzer: REQUESTS generated requests, from a seeded PRNG, to every route of the contract
 * (found by walking it), with hostile inputs in every place a request carries one: path
 * parameters (slashes, dots, percent-encoding), query strings (repeated, unknown, thousands of
 * parameters), headers (tokens, Idempotency-Key, content types and encodings) and bodies (valid
 * ones mutated: over-long strings, unicode, NUL, wrong types, huge and negative numbers, nesting,
 * missing and unknown fields; and raw text that is not JSON). The database is up and the chains
 * answer (a local Solana, an EVM stub): no answer may be a 5xx, and every error has the one error
 * body. Reproduce a run with FUZZ_SEED=<seed>, one request of it with FUZZ_ONLY=<index> too.
 */

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 12_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const CONCURRENCY = 12;
/** Node answers a request line and headers over 16 KB itself (a bare 431): stay under it. */
const MAX_URL = 11_000;

/* ---------------------------------------------------------------------------------------------- */
/* The PRNG and its helpers                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(seed: number) {
  let state = seed | 0;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    bytes: (n: number) => Uint8Array.from({ length: n }, () => int(256)),
    hex: (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join(''),
  };
}
type Gen = ReturnType<typeof prng>;

const uuidOf = (g: Gen) => `${g.hex(8)}-${g.hex(4)}-4${g.hex(3)}-8${g.hex(3)}-${g.hex(12)}`;
const keyOf = (g: Gen) => encodeBase58(g.bytes(32));

/* ---------------------------------------------------------------------------------------------- */
/* Hostile values                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

const UNICODE = [
  'ñ☃️👩‍👩‍👧‍👦',
  '\u202egnp.exe',
  'e\u0301\u0301\u0301',
  '\u200b\u200d\ufeff',
  '１２３',
  '𝟘𝟙',
  'İıß',
  '\u2028\u2029',
  '中文字符',
  'ﷺ',
];
const TRICKS = [
  "' OR 1=1 --",
  '"; DROP TABLE orders; --',
  '../../etc/passwd',
  '..\\..\\windows',
  '%00',
  '%2e%2e%2f',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
];
const NUMBERISH = [
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9'.repeat(30),
  '00001',
  ' 1 ',
  '1,5',
  '-0',
  '+1',
];

function hostileString(g: Gen, maxLength = 100_000): string {
  switch (g.int(9)) {
    case 0:
      return g.pick(['a', 'é', '9', '/', '%', ' ']).repeat(Math.min(maxLength, 10 ** (4 + g.next())));
    case 1:
      return g.pick(UNICODE).repeat(1 + g.int(3));
    case 2:
      return `a\u0000b${g.chance(0.5) ? '\u0000' : ''}`;
    case 3:
      return g.pick(['\ud800', 'x\udc00', '\udfff\ud800']);
    case 4:
      return String.fromCharCode(...Array.from({ length: 1 + g.int(8) }, () => g.int(32)));
    case 5:
      return g.pick(TRICKS);
    case 6:
      return g.pick(NUMBERISH);
    case 7:
      return g.pick(['   ', '\t\n', '\r\n\r\n', '']);
    default:
      return g.pick([keyOf(g), uuidOf(g), `rf_${g.hex(32)}`, `${keyOf(g)}x`, uuidOf(g).toUpperCase()]);
  }
}

function hostileNumber(g: Gen): number {
  return g.pick([
    -1,
    0,
    -0,
    1.5,
    2 ** 31,
    2 ** 53 + 1,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    59,
    86401,
    1001,
    -(2 ** 63),
  ]);
}

function hostileValue(g: Gen, depth = 0): unknown {
  switch (g.int(depth > 3 ? 4 : 8)) {
    case 0:
    case 1:
      return hostileString(g, 20_000);
    case 2:
      return hostileNumber(g);
    case 3:
      return g.pick([true, false, null]);
    case 4:
      return Array.from({ length: g.int(4) }, () => hostileValue(g, depth + 1));
    case 5:
      return Object.fromEntries(
        Array.from({ length: g.int(4) }, () => [hostileString(g, 50), hostileValue(g, depth + 1)]),
      );
    case 6: {
      let nested: unknown = hostileString(g, 10);
      for (let i = g.int(200); i > 0; i--) nested = g.chance(0.5) ? [nested] : { a: nested };
      return nested;
    }
    default:
      return Array.from({ length: g.pick([100, 1000, 10_000]) }, (_, i) => i);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Plausible values: what a well-meaning client would send, the start of every mutation           */
/* ---------------------------------------------------------------------------------------------- */

/** What the generator knows of the server's data (filled in once it runs; never drawn from). */
type World = {
  email: string;
  walletIds: string[];
  foreignWalletId: string;
  /** Open orders, and a paid one (last) that has refunds. */
  references: string[];
  foreignReference: string;
  refundIds: string[];
  tokens: Record<'valid' | 'other' | 'expired' | 'stale' | 'alien', string>;
};

/**
 * A stand-in for something of the world (⟦what:i⟧), resolved when the request is sent: requests
 * are generated before the world exists, so a seed always gives the same ones.
 */
const known = (
  what: 'email' | 'wallet' | 'reference' | 'foreign-order' | 'foreign-wallet' | 'refund',
  i = 0,
) => `⟦${what}:${i}⟧`;
const KNOWN = /⟦([\w-]+):(\d+)⟧/gi;

function resolveKnown(text: string, world: World): string {
  return text.replace(KNOWN, (_all, what: string, i: string) => {
    const nth = (items: string[]) => items[Number(i) % items.length]!;
    // A path may have been upper-cased.
    switch (what.toLowerCase()) {
      case 'email':
        return world.email;
      case 'wallet':
        return nth(world.walletIds);
      case 'foreign-wallet':
        return world.foreignWalletId;
      case 'foreign-order':
        return world.foreignReference;
      case 'refund':
        return nth(world.refundIds);
      default:
        return nth(world.references);
    }
  });
}

const BY_NAME: Record<string, (g: Gen) => unknown> = {
  email: (g) => g.pick([known('email'), `someone-${g.hex(6)}@example.com`]),
  password: (g) => `guess ${g.hex(6)}`,
  current_password: (g) => `guess ${g.hex(6)}`,
  new_password: (g) => `new password ${g.hex(8)}`,
  network: (g) => g.pick(['SOLANA', 'POLYGON', 'ETHEREUM']),
  token: (g) => g.pick(['USDT', 'USDC']),
  amount: (g) => g.pick(['1', '0.5', '12.345678', '100']),
  quoteCurrency: (g) => g.pick(['BRL', 'EUR', 'USD']),
  quoteAmount: (g) => g.pick(['10', '5.25']),
  webhookUrl: (g) => g.pick(['https://example.com/hook', 'http://127.0.0.1:9/hook']),
  webhook_url: (g) => g.pick(['https://example.com/hook', null]),
  returnUrl: () => 'https://shop.example.com/thanks',
  messengerChatId: (g) => g.pick(['12345', '-100200300', '@shop_channel']),
  messenger_chat_id: (g) => g.pick(['12345', null]),
  messenger_bot_token: (g) => g.pick([`123456:${'A'.repeat(30)}`, null]),
  merchantWalletId: (g) => (g.chance(0.7) ? known('wallet', g.int(2)) : uuidOf(g)),
  expiresInSeconds: (g) => g.pick([60, 600, 86400]),
  description: () => 'A fuzzed order',
  metadata: (g) => g.pick([{ k: 'v' }, { n: 1, nested: { a: [1, 2] } }]),
  txId: (g) => encodeBase58(g.bytes(64)),
  full_name: (g) => g.pick(['Fuzz Shop', null]),
  phone: (g) => g.pick(['+55 11 91234-5678', null]),
  underpayment_tolerance_bps: (g) => g.pick([0, 50, 1000, null]),
  name: (g) => g.pick(['main', null]),
  public_address: (g) => g.pick([SOLANA_WALLET, EVM_WALLET, keyOf(g)]),
  account: (g) => g.pick([keyOf(g), EVM_WALLET, SOLANA_WALLET]),
  reason: () => 'fuzz',
  to: (g) => g.pick([keyOf(g), EVM_WALLET]),
  address: (g) => g.pick([keyOf(g), EVM_WALLET]),
  page: (g) => g.pick(['1', '2']),
  per_page: (g) => g.pick(['1', '20', '50']),
  cursor: () => '',
  status: (g) => g.pick(['PENDING', 'PAID', 'EXPIRED']),
  lang: (g) => g.pick(['en', 'pt-BR', 'es']),
  'idempotency-key': (g) => `key-${g.hex(12)}`,
};

type Def = { typeName: string; [k: string]: unknown };
const defOf = (schema: unknown) => (schema as { _def: Def })._def;

/** A plausible value for `schema` at field `name`. */
function plausible(g: Gen, schema: z.ZodTypeAny, name = ''): unknown {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodOptional':
    case 'ZodDefault':
      return plausible(g, def.innerType as z.ZodTypeAny, name);
    case 'ZodNullable':
      return g.chance(0.1) ? null : plausible(g, def.innerType as z.ZodTypeAny, name);
    case 'ZodEffects':
      return plausible(g, def.schema as z.ZodTypeAny, name);
    case 'ZodObject': {
      const shape = (def.shape as () => Record<string, z.ZodTypeAny>)();
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(shape)) {
        const optional = field.isOptional();
        if (optional && g.chance(0.4)) continue;
        out[key] = BY_NAME[key] ? BY_NAME[key](g) : plausible(g, field, key);
      }
      return out;
    }
    case 'ZodEnum':
      return g.pick(def.values as string[]);
    case 'ZodNumber':
      return 1;
    case 'ZodBoolean':
      return true;
    case 'ZodRecord':
      return { k: 'v' };
    default:
      return BY_NAME[name] ? BY_NAME[name](g) : 'x';
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

type Route = { name: string; route: AppRoute };
type FuzzRequest = {
  index: number;
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Which token the request carries, resolved at send time. */
  auth: keyof World['tokens'] | 'none' | 'garbage';
};

function routesOf(router: AppRouter, prefix = ''): Route[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value)
      ? [{ name: `${prefix}${key}`, route: value }]
      : routesOf(value as AppRouter, `${prefix}${key}.`),
  );
}

const schemaOf = (value: unknown): z.ZodTypeAny | undefined =>
  value && typeof value === 'object' && '_def' in value ? (value as z.ZodTypeAny) : undefined;

/** encodeURIComponent, but a lone surrogate becomes the (invalid UTF-8) bytes of its code unit. */
const encode = (text: string) =>
  text.replace(/[\ud800-\udbff][\udc00-\udfff]|[^]/g, (c) => {
    if (c.length === 2 || !/[\ud800-\udfff]/.test(c)) return encodeURIComponent(c);
    const unit = c.charCodeAt(0);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  });

/** Encodes a path segment or query part the many ways a client (or an attacker) might. */
function encodePart(g: Gen, value: string): string {
  const safe = (text: string) =>
    // Only what Node's client sends as is (it refuses other characters in a path).
    text.replace(/[^\x21-\x7e]/g, (c) => encode(c));
  switch (g.int(6)) {
    case 0:
      return safe(value); // slashes, dots, %, ? and # left raw
    case 1:
      return encodeURIComponent(encode(value));
    case 2:
      return `${encode(value)}${g.pick(['%', '%G1', '%E0%A4%A', '%C0%AF', '%FF', '%00', '/', '/..', '%2F'])}`;
    default:
      return encode(value);
  }
}

function pathParam(g: Gen, param: string): string {
  const roll = g.next();
  if (roll < 0.35) {
    if (param === 'reference') return known('reference', g.int(3));
    if (param === 'wallet_id') return known('wallet', g.int(2));
    if (param === 'refundId') return known('refund', g.int(2));
  }
  if (roll < 0.45) {
    if (param === 'reference') return known('foreign-order');
    if (param === 'wallet_id') return known('foreign-wallet');
  }
  if (roll < 0.6)
    return param === 'reference'
      ? keyOf(g)
      : param === 'wallet_id'
        ? uuidOf(g)
        : param === 'refundId'
          ? `rf_${g.hex(32)}`
          : String(1 + g.int(1e9));
  return encodePart(g, hostileString(g, 8_000));
}

function queryString(g: Gen, route: AppRoute): string {
  const schema = schemaOf((route as { query?: unknown }).query);
  const entries: [string, string][] = [];
  if (schema && g.chance(0.8)) {
    const shape = (defOf(schema).shape as () => Record<string, z.ZodTypeAny>)();
    for (const key of Object.keys(shape)) {
      if (g.chance(0.5)) continue;
      const value = g.chance(0.5) ? String(BY_NAME[key]?.(g) ?? 'x') : hostileString(g, 4_000);
      entries.push([key, value]);
      if (g.chance(0.1)) entries.push([key, hostileString(g, 100)]); // repeated
    }
  }
  switch (g.int(6)) {
    case 0: // thousands of parameters
      for (let i = g.pick([100, 1000, 2000]); i > 0; i--) entries.push([`p${i}`, String(i)]);
      break;
    case 1: // unknown ones, and bracket syntax
      entries.push([g.pick(['per_page[$gt]', 'a[b][c]', '__proto__[x]', 'constructor']), '1']);
      entries.push([hostileString(g, 200), hostileString(g, 200)]);
      break;
    default:
      break;
  }
  if (!entries.length && g.chance(0.8)) return '';
  return `?${entries.map(([k, v]) => `${encodePart(g, k)}${g.chance(0.05) ? '' : `=${encodePart(g, v)}`}`).join('&')}`;
}

/** A body that is valid for the route, mutated, or raw text that is not what it should be. */
function bodyFor(
  g: Gen,
  name: string,
  route: AppRoute,
): { text: string | Buffer; type?: string } | undefined {
  const schema = schemaOf((route as { body?: unknown }).body);
  if (route.method === 'GET' && !g.chance(0.05)) return undefined;
  const roll = g.next();
  if (roll < 0.12) {
    // Raw text that is not JSON, or JSON that is not an object.
    const raw = g.pick([
      '{"a":',
      '{"a":1} x',
      '{"a":NaN}',
      '{"a":Infinity}',
      "{'a':1}",
      '{"a":1,}',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      `{"amount":1e${'9'.repeat(6)}}`,
      `{"a":${'9'.repeat(20_000)}}`,
      '['.repeat(50_000),
      `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
      '\ufeff{}',
      '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}}}',
      'null',
      '42',
      '"text"',
      'true',
      '[]',
      '',
    ]);
    return { text: raw };
  }
  if (roll < 0.15) return { text: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) };
  if (roll < 0.17) return { text: JSON.stringify({ x: 'y'.repeat(110_000) }) }; // over 100 KB: 413
  let value: unknown = schema ? plausible(g, schema) : {};
  FIX_UPS[name]?.(g, value as Record<string, unknown>);
  for (let mutations = g.int(4); mutations > 0; mutations--) value = mutate(g, value);
  const text = JSON.stringify(value) ?? 'null';
  const type = g.chance(0.1)
    ? g.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'application/json; charset=latin-9',
        'application/vnd.api+json',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-8',
        'APPLICATION/JSON',
      ])
    : undefined;
  return { text, type };
}

/** Plausible bodies made valid more often than not, so mutations reach past the first checks. */
const FIX_UPS: Record<string, (g: Gen, body: Record<string, unknown>) => void> = {
  'orders.create': (g, body) => {
    if (g.chance(0.5)) {
      delete body.quoteCurrency;
      delete body.quoteAmount;
      body.amount ??= '2';
    } else {
      delete body.amount;
      body.quoteCurrency = g.pick(['BRL', 'EUR']);
      body.quoteAmount ??= '10';
    }
    if (g.chance(0.8)) body.token = 'USDT';
    if (body.network !== 'SOLANA' && body.token === 'USDC' && g.chance(0.8)) body.network = 'SOLANA';
  },
  'wallets.create': (g, body) => {
    body.public_address = body.network === 'SOLANA' ? keyOf(g) : `0x${g.hex(40)}`;
  },
  'refunds.create': (g, body) => {
    body.amount = g.pick(['0.01', '0.1', undefined]);
  },
};

function mutate(g: Gen, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return g.chance(0.5) ? { value } : hostileValue(g);
  const object = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(object);
  switch (g.int(7)) {
    case 0:
    case 1:
    case 2:
      if (keys.length) object[g.pick(keys)] = hostileValue(g);
      return object;
    case 3:
      if (keys.length) delete object[g.pick(keys)];
      return object;
    case 4:
      object[g.pick(['unexpected', '__proto__', 'constructor', hostileString(g, 100)])] = hostileValue(g);
      return object;
    case 5:
      if (keys.length) {
        const key = g.pick(keys);
        object[key] = g.chance(0.5) ? [object[key]] : { value: object[key] };
      }
      return object;
    default:
      return g.pick([[object], 'object', 7, null, [], hostileValue(g)]);
  }
}

function generate(g: Gen, routes: Route[], index: number): FuzzRequest {
  const { name, route } = g.pick(routes);
  const merchant = (route.metadata as { auth?: string } | undefined)?.auth === 'merchant';
  const auth: FuzzRequest['auth'] = merchant
    ? g.next() < 0.8
      ? 'valid'
      : g.pick(['none', 'garbage', 'other', 'expired', 'stale', 'alien'] as const)
    : g.chance(0.1)
      ? g.pick(['valid', 'garbage'] as const)
      : 'none';
  let path = route.path.replace(/:(\w+)/g, (_all, param: string) => pathParam(g, param));
  if (g.chance(0.03)) path = path.toUpperCase();
  if (g.chance(0.03)) path = `${path}${g.pick(['/', '//', '/.', '/..', '/extra'])}`;
  path += queryString(g, route);
  // Cut to size, never inside a stand-in for the world's data.
  if (path.length > MAX_URL) {
    path = path.slice(0, MAX_URL);
    if (path.lastIndexOf('⟦') > path.lastIndexOf('⟧')) path = path.slice(0, path.lastIndexOf('⟦'));
  }
  const headers: Record<string, string> = {};
  const body = bodyFor(g, name, route);
  if (body) headers['content-type'] = body.type ?? 'application/json';
  if ('headers' in route && route.headers) {
    const roll = g.next();
    if (roll < 0.5) headers['idempotency-key'] = `key-${g.hex(12)}`;
    else if (roll < 0.8)
      headers['idempotency-key'] = hostileString(g, 3_000).replace(/[^\x20-\x7e\x80-\xff\t]/g, '?');
  }
  if (g.chance(0.1))
    headers.accept = g.pick([
      'text/html',
      'application/xml',
      '*/*',
      'text/html,application/json;q=0.1',
      '??',
    ]);
  if (g.chance(0.03))
    headers['content-encoding'] = g.pick(['gzip', 'deflate', 'br', 'x-unknown', 'identity']);
  if (g.chance(0.05))
    headers['x-forwarded-for'] = g.pick(['203.0.113.9', '1'.repeat(2_000), 'unknown, ::1', '%00']);
  return { index, route: name, method: route.method, path, headers, body: body?.text, auth };
}

/* ---------------------------------------------------------------------------------------------- */
/* Sending and judging                                                                             */
/* ---------------------------------------------------------------------------------------------- */

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(baseUrl: string, request: FuzzRequest, world: World): Promise<Answer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...request.headers };
  if (request.auth === 'garbage') headers.authorization = 'Bearer garbage.token.here';
  else if (request.auth !== 'none') headers.authorization = `Bearer ${world.tokens[request.auth]}`;
  const body =
    typeof request.body === 'string' ? Buffer.from(resolveKnown(request.body, world)) : request.body;
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: resolveKnown(request.path, world),
        headers,
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const CODES = new Set<string>(Object.values(ErrorCode));

/** What is wrong with an answer, or null. */
function judge(request: FuzzRequest, answer: Answer): string | null {
  if (answer.status >= 500 && !isDeliberateUnconfigured(request.path, answer.status, answer.text))
    return `${answer.status}`;
  if (/\bat .*\.(ts|js|mjs|cjs):\d+/.test(answer.text) || answer.text.includes('node_modules'))
    return 'internals in the body';
  if (answer.status < 400) return null;
  const type = String(answer.headers['content-type'] ?? '');
  // The checkout page answers a browser with an HTML error page (the contract says so).
  if (/^\/checkout(\/|$)/i.test(request.path) && type.startsWith('text/html')) return null;
  if (!type.startsWith('application/json')) return `error not JSON (${type || 'no content type'})`;
  let body: { error?: { code?: unknown; message?: unknown; details?: unknown } };
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    return 'error body is not JSON';
  }
  const error = body?.error;
  if (typeof error?.code !== 'string' || !CODES.has(error.code)) return 'no error.code';
  if (typeof error.message !== 'string') return 'no error.message';
  if (errorStatus[error.code as ErrorCode] !== answer.status) return `${error.code} with ${answer.status}`;
  if (
    error.details !== undefined &&
    (!Array.isArray(error.details) ||
      !error.details.every((d: { path?: unknown; message?: unknown }) => typeof d?.path === 'string'))
  )
    return 'malformed details';
  return null;
}

const show = (request: FuzzRequest) =>
  JSON.stringify({
    index: request.index,
    route: request.route,
    method: request.method,
    path:
      request.path.length > 300
        ? `${request.path.slice(0, 300)}… (${request.path.length} chars)`
        : request.path,
    auth: request.auth,
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [
        k,
        v.length > 100 ? `${v.slice(0, 100)}… (${v.length})` : v,
      ]),
    ),
    body:
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body.length > 300
            ? `${request.body.slice(0, 300)}… (${request.body.length} chars)`
            : request.body
          : `bytes ${request.body.toString('hex')}`,
  });

/* ---------------------------------------------------------------------------------------------- */
/* The run                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/**
 * Polygon and Ethereum JSON-RPC enough for the routes: every balance is 0 (eth_call answers 0), and
 * the tokens have 6 decimals (`decimals()`, which the service checks at start).
 */
/** decimals(): the first four bytes of its keccak-256 hash. */
const DECIMALS_SELECTOR = '0x313ce567';

async function startEvmStub() {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let calls: unknown;
      try {
        calls = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        calls = {};
      }
      const answer = (call: { id?: unknown; method?: unknown; params?: { data?: string }[] }) => ({
        jsonrpc: '2.0',
        id: call?.id ?? null,
        result:
          call?.method !== 'eth_call'
            ? '0x1'
            : call.params?.[0]?.data?.startsWith(DECIMALS_SELECTOR)
              ? `0x${'6'.padStart(64, '0')}`
              : `0x${'0'.repeat(64)}`,
      });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls as never)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => server.close() };
}

let chain: LocalSolana;
let usdt: PublicKey;
let evm: Awaited<ReturnType<typeof startEvmStub>>;
let server: TestServer;

beforeAll(async () => {
  chain = await startLocalSolana();
  evm = await startEvmStub();
  usdt = await chain.createMint();
  server = await startTestServer({
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: usdt.toBase58(),
    USDC_MINT_SOLANA: (await chain.createMint()).toBase58(),
    POLYGON_RPC_URL: evm.url,
    ETHEREUM_RPC_URL: evm.url,
    JOBS: 'none',
    // Hostile X-Forwarded-For values reach the limits' keys.
    TRUST_PROXY: '1',
    // Limits out of the way: every request must reach what it probes.
    LOGIN_RATE_LIMIT_MAX: '1000000',
    REFUND_ADDRESS_RATE_LIMIT_MAX: '1000000',
    DB_POOL_MAX: '10',
  });
});
afterAll(async () => {
  agent.destroy();
  await server?.stop();
  evm?.stop();
  await chain?.stop();
});

describe('the fuzzer', () => {
  it(`sends ${REQUESTS} hostile requests over every route: never a 5xx, always the one error body`, async () => {
    console.info(
      `fuzz: FUZZ_SEED=${SEED}${ONLY !== undefined ? ` FUZZ_ONLY=${ONLY}` : ''} (${REQUESTS} requests)`,
    );
    const m = await newMerchant(server, { name: 'Fuzz Shop', wallets: ['SOLANA', 'POLYGON'] });
    const other = await newMerchant(server, { wallets: ['SOLANA'] });
    const references: string[] = [];
    for (const network of ['SOLANA', 'POLYGON']) {
      const order = await server.api('POST', '/orders', {
        token: m.token,
        body: { network, token: 'USDT', amount: '1.5', metadata: { k: 'v' } },
      });
      expect(order.status, order.text).toBe(201);
      references.push(order.body.reference);
    }
    const foreign = await server.api('POST', '/orders', {
      token: other.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '2' },
    });
    // A paid order with two refunds (one waiting for its address): the refund routes get real ids.
    const paid = await server.api('POST', '/orders', {
      token: m.token,
      body: { network: 'SOLANA', token: 'USDT', amount: '3' },
    });
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    await chain.transfer({
      payer,
      recipientOwner: new PublicKey(m.addresses.SOLANA!),
      mint: usdt,
      amountUnits: 3_000_000n,
      reference: new PublicKey(paid.body.reference),
    });
    for (let i = 0; ; i++) {
      await server.jobs.runNow('scan-payments');
      await server.jobs.runNow('verify-payments');
      const now = await server.api('GET', `/orders/${paid.body.reference}`, { token: m.token });
      if (now.body.status === 'PAID') break;
      if (i > 100) throw new Error(`the order was not paid: ${now.text}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    references.push(paid.body.reference);
    const refundIds: string[] = [];
    for (const body of [{ amount: '1', to: Keypair.generate().publicKey.toBase58() }, { amount: '1' }]) {
      const refund = await server.api('POST', `/orders/${paid.body.reference}/refunds`, {
        token: m.token,
        body,
      });
      expect(refund.status, refund.text).toBe(201);
      refundIds.push(refund.body.id);
    }
    const sign = (claims: object, secret = server.deps.tokens.secret) =>
      jwt.sign(claims, secret, {
        algorithm: 'HS256',
        issuer: 'stablepay',
        subject: m.id,
        ...('exp' in claims ? {} : { expiresIn: '1h' }),
      });
    const world: World = {
      email: m.email,
      walletIds: [m.wallets.SOLANA!, m.wallets.POLYGON!],
      foreignWalletId: other.wallets.SOLANA!,
      references,
      foreignReference: foreign.body.reference,
      refundIds,
      tokens: {
        valid: m.token,
        other: other.token,
        expired: sign({ ver: 0, exp: Math.floor(Date.now() / 1000) - 60 }),
        stale: sign({ ver: 7 }),
        alien: sign({ ver: 0 }, 'a-secret-this-server-has-never-heard-of!'),
      },
    };

    const routes = routesOf(contract);
    const g = prng(SEED);
    const requests = Array.from({ length: REQUESTS }, (_, i) => generate(g, routes, i));
    const queue = ONLY === undefined ? [...requests] : [requests[ONLY]!];
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const hit = new Set<string>();
    const worker = async () => {
      for (let request = queue.shift(); request; request = queue.shift()) {
        let answer: Answer;
        try {
          answer = await send(server.url, request, world);
        } catch (error) {
          failures.push(`no answer (${(error as Error).message}): ${show(request)}`);
          continue;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        hit.add(request.route);
        const wrong = judge(request, answer);
        if (wrong) failures.push(`${wrong} -> ${answer.text.slice(0, 300)}\n    ${show(request)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    console.info(
      `fuzz: seed ${SEED}, ${routes.length} routes (${hit.size} hit), statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, ${failures.length} failures`,
    );
    if (failures.length)
      console.error(
        `fuzz failures (FUZZ_SEED=${SEED}; FUZZ_ONLY=<index> replays one):\n${failures.slice(0, 30).join('\n')}`,
      );
    expect(failures).toEqual([]);
    if (ONLY === undefined) expect(hit.size).toBe(routes.length);

    // Still healthy, and the merchant's token and data untouched by what it was sent.
    expect((await server.api('GET', '/readyz')).status).toBe(200);
    const order = await server.api('GET', `/orders/${references[0]}`, { token: m.token });
    expect(order.status).toBe(200);
    expect(order.body.metadata).toEqual({ k: 'v' });
  }, 300_000);
});
