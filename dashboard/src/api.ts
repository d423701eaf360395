/**
 * The dashboard's only way to the service: ts-rest's client of the contract the server implements
 * (contract/), so a request or an answer that drifts from the API fails to type-check. Same-origin
 * fetches carry the session cookie (httpOnly: no script here can read it); every POST, PATCH and
 * DELETE also carries the session's CSRF token, kept in this module's memory only.
 */
import { initClient, tsRestFetchApi } from '@ts-rest/core';
import { contract, type ErrorBody } from '../../contract';

let csrfToken: string | null = null;
let onSessionEnded: (() => void) | undefined;

/** The CSRF token of the current session (from POST or GET /dashboard/session), or null. */
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

/** Called when any answer says the session is over (401), except the sign-in's own. */
export function onUnauthenticated(handler: (() => void) | undefined) {
  onSessionEnded = handler;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SIGN_IN_ROUTES = new Set<unknown>([
  contract.dashboard.signIn,
  contract.dashboard.signInMfa,
  contract.dashboard.session,
]);

export const api = initClient(contract, {
  baseUrl: '',
  credentials: 'same-origin',
  throwOnUnknownStatus: false,
  api: async (args) => {
    const headers: Record<string, string> = { ...args.headers };
    if (UNSAFE.has(args.method.toUpperCase()) && csrfToken) headers['x-csrf-token'] = csrfToken;
    let response;
    try {
      response = await tsRestFetchApi({ ...args, headers });
    } catch (error) {
      throw new ApiFailure(0, 'NETWORK', error instanceof Error ? error.message : String(error));
    }
    // The sign-in's own steps (and the enrolment a setup token opens) say 401 without a session to end.
    const signingIn =
      SIGN_IN_ROUTES.has(args.route) || (args.headers.authorization ?? '').startsWith('Bearer setup_');
    if (response.status === 401 && !signingIn) onSessionEnded?.();
    return response;
  },
});

/** A request that did not get the answer it wanted: the API's error body, in a form pages can show. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    /** The API's error code, or NETWORK when no answer came at all. */
    readonly code: string,
    message: string,
    readonly details: { path: string; message: string }[] = [],
    /** Seconds to wait, from Retry-After (429, 503). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

type Answer = { status: number; body: unknown; headers: Headers };

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' &&
  body !== null &&
  'error' in body &&
  typeof (body as ErrorBody).error?.message === 'string';

/** The failure an unwanted answer stands for. */
export function failureOf(answer: Answer): ApiFailure {
  const retry = Number(answer.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : null;
  if (isErrorBody(answer.body)) {
    const { code, message, details } = answer.body.error;
    return new ApiFailure(answer.status, code, message, details ?? [], retryAfter);
  }
  return new ApiFailure(answer.status, `HTTP_${answer.status}`, `HTTP ${answer.status}`, [], retryAfter);
}

/**
 * The body of an answer with one of the wanted statuses; any other answer throws its ApiFailure.
 * `ok(await api.orders.get(...), 200)` is the order, typed from the contract.
 */
export function ok<A extends Answer, S extends A['status']>(
  answer: A,
  ...wanted: S[]
): Extract<A, { status: S }>['body'] {
  if ((wanted as number[]).includes(answer.status)) return answer.body as Extract<A, { status: S }>['body'];
  throw failureOf(answer);
}

/** A key for Idempotency-Key: one per intended action, so a retried click cannot create twice. */
export const newIdempotencyKey = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
