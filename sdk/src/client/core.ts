import {
  initClient,
  isAppRouteOtherResponse,
  type AppRoute,
  type InitClientReturn,
  type ApiFetcher,
  type SuccessfulHttpStatusCode,
} from '@ts-rest/core';
import { contract, MAX_PER_PAGE } from '../../../contract';
import { assertJsonObject, httpConfig, normalizeBaseUrl, send } from '../http';
import type { RetryMode } from '../retry';
import type { ClientOptions } from './types';

export type Contract = typeof contract;
type RawClientArgs = { baseUrl: string; throwOnUnknownStatus: false; api: ApiFetcher };
/** The ts-rest client of the contract, answers as they come (status and body). */
export type RawClient = InitClientReturn<Contract, RawClientArgs>;

/** What each namespace of the client works with. */
export type ClientContext = {
  raw: RawClient;
  /** Keeps the token a login gave when the client has none yet. */
  keepToken(next: string): void;
};

/** Routes that must not run twice when the first attempt's outcome is unknown (5xx, no answer). */
const UNSAFE_ROUTES: ReadonlySet<AppRoute> = new Set<AppRoute>([
  contract.profile.changePassword,
  contract.apiKeys.create,
  contract.members.invite,
  contract.members.acceptInvitation,
  contract.members.revokeInvitation,
  contract.members.remove,
  contract.members.transferOwnership,
  contract.profile.rotateWebhookSecret,
  contract.profile.sendTestWebhook,
  contract.profile.sendTestMessage,
  contract.wallets.create,
  contract.wallets.remove,
  contract.deliveries.redeliverWebhook,
  // State changes that answer 409 when repeated: a retry of one that went through would fail.
  contract.subscriptions.cancel,
  contract.subscriptions.pause,
  contract.subscriptions.resume,
  // A code is accepted once, an mfaToken gives one token: a retry of one that went through fails.
  contract.twoFactor.enroll,
  contract.twoFactor.confirm,
  contract.twoFactor.disable,
  contract.twoFactor.loginMfa,
  // Settled once: a retry of one that went through answers already_settled.
  contract.x402.settle,
  // A retry of a batch made would make a second one; approving or canceling twice is a 409.
  contract.payouts.create,
  contract.payouts.importCsv,
  contract.payouts.approve,
  contract.payouts.cancel,
  // It moves money (a second attempt after one that went through is a 409).
  contract.sandbox.sendPayout,
]);

/** Routes whose success is a file, not a JSON object (a payout's CSV). */
const isFileRoute = (route: AppRoute) => {
  const ok = (route.responses as Record<number, unknown>)[200];
  return ok !== undefined && isAppRouteOtherResponse(ok as never);
};

/** The raw client: merchant routes carry the token `currentToken()` gives at the time of the call. */
export function createRawClient(options: ClientOptions, currentToken: () => string | undefined): RawClient {
  const http = httpConfig(options);
  return initClient(contract, {
    baseUrl: normalizeBaseUrl(options.baseUrl),
    throwOnUnknownStatus: false,
    api: async ({ route, path, method, headers, body }) => {
      const all: Record<string, string> = { accept: 'application/json', ...headers };
      const isMerchantRoute = (route.metadata as { auth?: string } | undefined)?.auth === 'merchant';
      const token = currentToken();
      if (isMerchantRoute && token) all.authorization = `Bearer ${token}`;
      const retry: RetryMode = UNSAFE_ROUTES.has(route) ? 'unsafe' : 'idempotent';
      const res = await send(http, {
        method,
        url: path,
        headers: all,
        body: typeof body === 'string' ? body : undefined,
        retry,
      });
      if (res.status !== 204 && !isFileRoute(route)) assertJsonObject(res, method, path);
      return res;
    },
  });
}

/** The Idempotency-Key header of a creation: the caller's key, or a random UUID. */
export function idempotencyHeaders(idempotencyKey: string | undefined): { 'idempotency-key': string } {
  return { 'idempotency-key': idempotencyKey ?? newIdempotencyKey() };
}

function newIdempotencyKey(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID !== 'function')
    throw new TypeError('globalThis.crypto.randomUUID is missing: pass options.idempotencyKey yourself');
  return crypto.randomUUID();
}

export const success = async <T extends { status: number; body: unknown }>(
  pending: Promise<T>,
): Promise<Extract<T, { status: SuccessfulHttpStatusCode }>['body']> => (await pending).body;

/** A path parameter, percent-encoded; an empty one would silently name another route. */
export function segment(value: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`a path parameter must be a non-empty string, got ${JSON.stringify(value)}`);
  return encodeURIComponent(value);
}

/** The path parameters `{ id }` of a route on one resource. */
export const byId = (id: string): { params: { id: string } } => ({ params: { id: segment(id) } });

/** The path parameters `{ reference }` of a route on one order. */
export const byReference = (reference: string): { params: { reference: string } } => ({
  params: { reference: segment(reference) },
});

type CursorPage<T> = { items: T[]; nextCursor: string | null };

/** Every item of a cursor-paginated list, walking its pages (read by cursor, '' first) to the last. */
export async function* everyItem<T>(
  read: (cursor: string) => Promise<CursorPage<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor = '';
  for (;;) {
    const page = await read(cursor);
    yield* page.items;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}

/**
 * Every item matching a list's filters, across pages of MAX_PER_PAGE. Paging is the iterator's own:
 * a cursor or per_page slipped in (from JS) is dropped.
 */
export function everyMatch<Q extends { cursor?: string; per_page?: number }, T>(
  list: (query: Q) => Promise<CursorPage<T>>,
  query: Omit<Q, 'cursor' | 'per_page'>,
): AsyncGenerator<T, void, undefined> {
  const { cursor: _cursor, per_page: _perPage, ...filters } = query as Q;
  return everyItem((cursor) => list({ ...filters, cursor, per_page: MAX_PER_PAGE } as Q));
}
