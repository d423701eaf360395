import type { OpenAPIObject } from 'openapi3-ts';
import { OPEN_CORS_PATHS } from '../http/cors';
import { UNLIMITED_PATHS } from '../http/rate-limit-headers';

type Json = Record<string, unknown>;

const counted =
  'Absent only when the request was refused before any limit counted it: a body that is not JSON or is over 100 KB, and on merchant routes a missing or invalid credential (401) or an API key without the scope (403).';

/** The response headers the service sends, defined once under `components.headers`. */
export const RESPONSE_HEADERS: Record<string, Json> = {
  'RateLimit-Limit': {
    description: `The quota of the window this request counted against: API_RATE_LIMIT_PER_SECOND per merchant on merchant routes, PUBLIC_RATE_LIMIT_PER_MINUTE per client address on public routes, LOGIN_RATE_LIMIT_MAX failed logins per client and e-mail on POST /auth/login, REFUND_ADDRESS_RATE_LIMIT_MAX per client address on the refund address form. Where several limits count a request, the one with the fewest requests left. ${counted}`,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'RateLimit-Remaining': {
    description: `Requests left in the window after this one, as far as the answering instance knows (instances share the counters; with several, another may have spent some since). ${counted}`,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
  'RateLimit-Reset': {
    description: `Seconds until the window ends and the quota is whole again (rounded up). ${counted}`,
    schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
  },
  'Retry-After': {
    description:
      'Seconds to wait before trying again: on a 429, the end of the refusing window (or, for reported transactions, the next check); on a 503, until the database may be back',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 2147483647 },
  },
  'Access-Control-Allow-Origin': {
    description:
      'Payer-facing routes (/pay, /checkout) answer browsers on any origin: they take no credentials. Merchant routes send no CORS headers: they are for servers, and browsers on other origins may not read them',
    schema: { type: 'string', enum: ['*'] },
  },
};

const header = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** Whether the answers of a path are counted by a rate limit (server/app.ts: all but the probes). */
export const isRateLimited = (path: string) => !(UNLIMITED_PATHS as readonly string[]).includes(path);
/** Whether the answers of a path carry open CORS headers (server/app.ts mounts openCors there). */
export const hasOpenCors = (path: string) =>
  OPEN_CORS_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Documents the headers of every answer: RateLimit-Limit, -Remaining and -Reset on the successes
 * and client errors of rate-limited routes (and their 429s), Retry-After on 429 and 503 answers,
 * and Access-Control-Allow-Origin on the payer-facing routes, whatever the answer.
 */
export function documentResponseHeaders(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>))
    for (const operation of Object.values(item))
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        const headers: Json = { ...(response.headers as Json | undefined) };
        if (isRateLimited(path) && /^[24]/.test(status))
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
            headers[name] = header(name);
        if (isRateLimited(path) && (status === '429' || status === '503'))
          headers['Retry-After'] = header('Retry-After');
        if (hasOpenCors(path)) headers['Access-Control-Allow-Origin'] = header('Access-Control-Allow-Origin');
        if (Object.keys(headers).length) response.headers = headers;
      }
  document.components = { ...document.components, headers: RESPONSE_HEADERS };
}
