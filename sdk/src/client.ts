import {
  initClient,
  isAppRouteOtherResponse,
  type AppRoute,
  type ClientInferRequest,
  type SuccessfulHttpStatusCode,
} from '@ts-rest/core';
import type { z } from 'zod';
import {
  contract,
  MAX_PER_PAGE,
  type ZApiKey,
  type ZX402Payload,
  type ZX402Requirements,
  type ZX402SettleResponse,
  type ZX402Supported,
  type ZX402VerifyResponse,
  type ZApiKeyScope,
  type ZCreateApiKeyBody,
  type ZCreatedApiKey,
  type ZAuditEntry,
  type ZChangePasswordBody,
  type ZCreateRefundBody,
  type ZCreateOrderBody,
  type ZCreateWalletBody,
  type ZEmailDelivery,
  type ZCreateSubscriptionBody,
  type ZCreatePayoutBody,
  type ZImportPayoutBody,
  type ZPayout,
  type ZPayoutPage,
  type ZPayoutTransaction,
  type ZPayoutBatchContract,
  type ZPayoutBatchDeployment,
  type ZReportPayoutTxBody,
  type ZListSubscriptionsQuery,
  type ZSubscription,
  type ZSandboxInfo,
  type ZSandboxPayBody,
  type ZSandboxFaucetBody,
  type ZSandboxAdvanceBody,
  type ZEventPage,
  type ZListEventsQuery,
  type ZListOrdersQuery,
  type ZLoginBody,
  type ZAcceptInvitationBody,
  type ZInvitation,
  type ZInvitationPreview,
  type ZInviteBody,
  type ZMember,
  type Role,
  type ZLoginResponse,
  type ZLoginAnswer,
  type ZMfaBody,
  type ZTwoFactorStatus,
  type ZAccountPatch,
  type ZMessengerDelivery,
  type ZOrder,
  type ZOrderCursorPage,
  type ZOrderPage,
  type ZPayment,
  type ZAccount,
  type ZProfile,
  type ZRefund,
  type ZUnattributedPage,
  type ZUnattributedPayment,
  type ZUnattributedQuery,
  type ZUpdateAccountBody,
  type ZUpdateProfileBody,
  type ZWallet,
  type ZWebhookDelivery,
  type ZWebhookEvent,
  type ZWebhookSecret,
  type NetworkInfo,
} from '../../contract';
import { assertJsonObject, httpConfig, normalizeBaseUrl, send, type FetchLike } from './http';
import type { RetryMode, RetryOptions } from './retry';

type Contract = typeof contract;

/*
 * Public types come from the contract's schemas (z.infer for answers, z.input for request bodies).
 * Each method below is annotated with them, and its body returns what the ts-rest client infers for
 * the route: if a route's schema changes, this file stops compiling until the types follow.
 */
export type LoginBody = z.input<typeof ZLoginBody>;
export type LoginResponse = z.infer<typeof ZLoginResponse>;
export type Member = z.infer<typeof ZMember>;
export type Invitation = z.infer<typeof ZInvitation>;
export type InvitationPreview = z.infer<typeof ZInvitationPreview>;
export type InviteParams = z.input<typeof ZInviteBody>;
export type AcceptInvitationParams = z.input<typeof ZAcceptInvitationBody>;
/** What POST /auth/login answers: the token, `{mfaRequired, mfaToken}` or `{twoFactorSetupRequired, setupToken}`. */
export type LoginAnswer = z.infer<typeof ZLoginAnswer>;
export type LoginMfaBody = z.input<typeof ZMfaBody>;
export type TwoFactorStatus = z.infer<typeof ZTwoFactorStatus>;
export type TwoFactorEnrolment = { otpauthUrl: string; secret: string };
export type AccountPatch = z.input<typeof ZAccountPatch>;
export type CreateOrderParams = z.input<typeof ZCreateOrderBody>;
export type Order = z.infer<typeof ZOrder>;
/** One way to pay an order (its network, token, wallet, amount and links): `order.paymentOptions`. */
export type PaymentOption = Order['paymentOptions'][number];
export type ListOrdersQuery = z.input<typeof ZListOrdersQuery>;
export type OrderPage = z.infer<typeof ZOrderPage>;
export type OrderCursorPage = z.infer<typeof ZOrderCursorPage>;
/** Filters of listAll(): cursor and page size are driven by the iterator. */
export type ListAllOrdersQuery = Omit<ListOrdersQuery, 'page' | 'cursor' | 'per_page'>;
export type AuditEntry = z.infer<typeof ZAuditEntry>;
export type AuditList = { items: AuditEntry[] };
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export type WebhookDeliveryList = { items: WebhookDelivery[] };
export type MessengerDelivery = z.infer<typeof ZMessengerDelivery>;
export type MessengerDeliveryList = { items: MessengerDelivery[] };
/** An e-mail to an order's customer: its kind, address, subject, status and attempts. */
export type EmailDelivery = z.infer<typeof ZEmailDelivery>;
export type EmailDeliveryList = { items: EmailDelivery[] };
export type Profile = z.infer<typeof ZProfile>;
export type Account = z.infer<typeof ZAccount>;
export type UpdateAccountParams = z.input<typeof ZUpdateAccountBody>;
export type UpdateProfileParams = z.input<typeof ZUpdateProfileBody>;
export type ChangePasswordParams = z.input<typeof ZChangePasswordBody>;
export type WebhookSecret = z.infer<typeof ZWebhookSecret>;
export type Wallet = z.infer<typeof ZWallet>;
export type WalletList = { items: Wallet[] };
export type CreateWalletParams = z.input<typeof ZCreateWalletBody>;
export type Payment = z.infer<typeof ZPayment>;
export type PaymentList = { items: Payment[] };
export type Refund = z.infer<typeof ZRefund>;
export type RefundList = { items: Refund[] };
export type CreateRefundParams = z.input<typeof ZCreateRefundBody>;
export type ApiKey = z.infer<typeof ZApiKey>;
export type ApiKeyList = { items: ApiKey[] };
export type CreatedApiKey = z.infer<typeof ZCreatedApiKey>;
export type CreateApiKeyParams = z.input<typeof ZCreateApiKeyBody>;
export type ApiKeyScope = z.infer<typeof ZApiKeyScope>;
/** An event exactly as its webhook carries it (GET /events/{id}, the items of GET /events). */
export type WebhookEventBody = z.infer<typeof ZWebhookEvent>;
export type ListEventsQuery = z.input<typeof ZListEventsQuery>;
export type EventPage = z.infer<typeof ZEventPage>;
/** Filters of events.listAll(): cursor and page size are driven by the iterator. */
export type UnattributedPayment = z.infer<typeof ZUnattributedPayment>;
export type UnattributedPage = z.infer<typeof ZUnattributedPage>;
export type UnattributedQuery = z.input<typeof ZUnattributedQuery>;
export type ListAllEventsQuery = Omit<ListEventsQuery, 'cursor' | 'per_page'>;
/** A subscription: an order every period (made by the service, paid by the customer). */
export type Subscription = z.infer<typeof ZSubscription>;
/** The sandbox's local chains and the sandbox merchant's wallet keys (GET /sandbox). */
export type SandboxInfo = z.infer<typeof ZSandboxInfo>;
export type SandboxPayParams = z.input<typeof ZSandboxPayBody>;
export type SandboxFaucetParams = z.input<typeof ZSandboxFaucetBody>;
export type SandboxAdvanceParams = z.input<typeof ZSandboxAdvanceBody>;
export type SubscriptionStatus = Subscription['status'];
export type CreateSubscriptionParams = z.input<typeof ZCreateSubscriptionBody>;
export type ListSubscriptionsQuery = z.input<typeof ZListSubscriptionsQuery>;
export type SubscriptionPage = { items: Subscription[]; per_page: number; nextCursor: string | null };
/** Filters of subscriptions.listAll(): cursor and page size are driven by the iterator. */
export type ListAllSubscriptionsQuery = Omit<ListSubscriptionsQuery, 'cursor' | 'per_page'>;
/** A batch of transfers from the merchant's own wallets, with its items (GET /payouts/{id}). */
export type Payout = z.infer<typeof ZPayout>;
export type PayoutItem = Payout['items'][number];
/** A page of payouts, newest first, without their items (GET /payouts). */
export type PayoutPage = z.infer<typeof ZPayoutPage>;
export type PayoutSummary = PayoutPage['items'][number];
export type CreatePayoutParams = z.input<typeof ZCreatePayoutBody>;
export type ImportPayoutParams = Omit<z.input<typeof ZImportPayoutBody>, 'csv'>;
/** One unsigned transaction of a payout, for its paying wallet to sign (GET /payouts/{id}/transactions). */
export type PayoutTransaction = z.infer<typeof ZPayoutTransaction>;
export type ReportPayoutTxParams = z.input<typeof ZReportPayoutTxBody>;
/** Your PayoutBatch contract on one EVM network (GET /payouts/batch-contracts). */
export type PayoutBatchContract = z.infer<typeof ZPayoutBatchContract>;
/** The unsigned deployment of PayoutBatch for your paying wallet (POST /payouts/batch-contracts). */
export type PayoutBatchDeployment = z.infer<typeof ZPayoutBatchDeployment>;
export type ListPayoutsQuery = { status?: Payout['status']; cursor?: string; per_page?: number };
/** Filters of payouts.listAll(): cursor and page size are driven by the iterator. */
export type ListAllPayoutsQuery = Omit<ListPayoutsQuery, 'cursor' | 'per_page'>;
/** The page size and cursor of a subscription's orders (GET /subscriptions/{id}/orders). */
export type CursorQuery = { per_page?: number; cursor?: string };

export type ClientOptions = {
  /** Where the service runs, e.g. `https://pay.example.com` (no trailing path). */
  baseUrl: string;
  /** A merchant JWT from `auth.login()`; optional when you log in with this client. */
  token?: string;
  /**
   * An API key (`sk_…`, from `apiKeys.create()` or the dashboard): the credential of a server
   * integration. It opens the routes its scopes allow; give either this or `token`.
   */
  apiKey?: string;
  /** Your own fetch (default: the global one). */
  fetch?: FetchLike;
  /** Retries after the first attempt on network errors, 429 and 5xx (default 2); 0 turns them off. */
  maxRetries?: number;
  /** Per attempt, in ms (default 30 000). */
  timeoutMs?: number;
  /** Backoff tuning: base 300 ms, cap 5 s, Retry-After honoured up to 60 s. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
};

export type RequestOptions = {
  /** `Idempotency-Key` of a creation: the same key and body within 24 h give the same order or refund. */
  idempotencyKey?: string;
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

/** x402 v2's shapes as the facilitator routes take and give them (@x402/core's types, structurally). */
export type X402PaymentPayload = z.infer<typeof ZX402Payload>;
export type X402Requirements = z.infer<typeof ZX402Requirements>;
/** @x402/core's FacilitatorClient, structurally: what x402ResourceServer takes. */
export type X402FacilitatorClient = {
  verify(
    payload: X402PaymentPayload,
    requirements: X402Requirements,
  ): Promise<z.infer<typeof ZX402VerifyResponse>>;
  settle(
    payload: X402PaymentPayload,
    requirements: X402Requirements,
  ): Promise<z.infer<typeof ZX402SettleResponse>>;
  getSupported(): Promise<z.infer<typeof ZX402Supported>>;
};

function newIdempotencyKey(): string {
  const crypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (typeof crypto?.randomUUID !== 'function')
    throw new TypeError('globalThis.crypto.randomUUID is missing: pass options.idempotencyKey yourself');
  return crypto.randomUUID();
}

const success = async <T extends { status: number; body: unknown }>(
  pending: Promise<T>,
): Promise<Extract<T, { status: SuccessfulHttpStatusCode }>['body']> => (await pending).body;

/** A path parameter, percent-encoded; an empty one would silently name another route. */
function segment(value: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`a path parameter must be a non-empty string, got ${JSON.stringify(value)}`);
  return encodeURIComponent(value);
}

/** Every item of a cursor-paginated list, walking its pages (read by cursor, '' first) to the last. */
async function* everyItem<T>(
  read: (cursor: string) => Promise<{ items: T[]; nextCursor: string | null }>,
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
 * The merchant API client: one method per merchant route of the contract; each returns the success
 * body and throws a typed StablepayError (ValidationError, AuthenticationError, ...) otherwise.
 */
export function createClient(options: ClientOptions) {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const http = httpConfig(options);
  if (options.token !== undefined && options.apiKey !== undefined)
    throw new TypeError('give either options.token or options.apiKey, not both');
  let token = options.token ?? options.apiKey;

  const raw = initClient(contract, {
    baseUrl,
    throwOnUnknownStatus: false,
    api: async ({ route, path, method, headers, body }) => {
      const all: Record<string, string> = { accept: 'application/json', ...headers };
      const isMerchantRoute = (route.metadata as { auth?: string } | undefined)?.auth === 'merchant';
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

  type ListArgs = ClientInferRequest<Contract['orders']['list']>['query'];

  async function list(query: ListOrdersQuery & { cursor: string }): Promise<OrderCursorPage>;
  async function list(query?: ListOrdersQuery & { cursor?: undefined }): Promise<OrderPage>;
  async function list(query?: ListOrdersQuery): Promise<OrderPage | OrderCursorPage>;
  async function list(query: ListOrdersQuery = {}): Promise<OrderPage | OrderCursorPage> {
    return success(raw.orders.list({ query: query satisfies ListArgs }));
  }

  async function* listAll(query: ListAllOrdersQuery = {}): AsyncGenerator<Order, void, undefined> {
    // Paging is the iterator's own: a page, cursor or per_page slipped in (from JS) is dropped.
    const { page: _page, cursor: _cursor, per_page: _perPage, ...filters } = query as ListOrdersQuery;
    yield* everyItem((cursor) => list({ ...filters, cursor, per_page: MAX_PER_PAGE }));
  }

  async function listUnattributed(query: UnattributedQuery = {}): Promise<UnattributedPage> {
    return success(raw.claims.unattributed({ query }));
  }

  async function* listAllUnattributed(): AsyncGenerator<UnattributedPayment, void, undefined> {
    yield* everyItem((cursor) => listUnattributed({ cursor, per_page: MAX_PER_PAGE }));
  }

  type ListSubscriptionsArgs = ClientInferRequest<Contract['subscriptions']['list']>['query'];

  async function listSubscriptions(query: ListSubscriptionsQuery = {}): Promise<SubscriptionPage> {
    return success(raw.subscriptions.list({ query: query satisfies ListSubscriptionsArgs }));
  }

  async function* listAllSubscriptions(
    query: ListAllSubscriptionsQuery = {},
  ): AsyncGenerator<Subscription, void, undefined> {
    // Paging is the iterator's own: a cursor or per_page slipped in (from JS) is dropped.
    const { cursor: _cursor, per_page: _perPage, ...filters } = query as ListSubscriptionsQuery;
    yield* everyItem((cursor) => listSubscriptions({ ...filters, cursor, per_page: MAX_PER_PAGE }));
  }

  const subscriptionParams = (id: string) => ({ params: { id: segment(id) } });

  type ListPayoutsArgs = ClientInferRequest<Contract['payouts']['list']>['query'];

  async function listPayouts(query: ListPayoutsQuery = {}): Promise<PayoutPage> {
    return success(raw.payouts.list({ query: query satisfies ListPayoutsArgs }));
  }

  async function* listAllPayouts(
    query: ListAllPayoutsQuery = {},
  ): AsyncGenerator<PayoutSummary, void, undefined> {
    // Paging is the iterator's own: a cursor or per_page slipped in (from JS) is dropped.
    const { cursor: _cursor, per_page: _perPage, ...filters } = query as ListPayoutsQuery;
    yield* everyItem((cursor) => listPayouts({ ...filters, cursor, per_page: MAX_PER_PAGE }));
  }

  const payoutParams = (id: string) => ({ params: { id: segment(id) } });

  type ListEventsArgs = ClientInferRequest<Contract['events']['list']>['query'];

  async function listEvents(query: ListEventsQuery = {}): Promise<EventPage> {
    return success(raw.events.list({ query: query satisfies ListEventsArgs }));
  }

  async function* listAllEvents(
    query: ListAllEventsQuery = {},
  ): AsyncGenerator<WebhookEventBody, void, undefined> {
    // Paging is the iterator's own: a cursor or per_page slipped in (from JS) is dropped.
    const { cursor: _cursor, per_page: _perPage, ...filters } = query as ListEventsQuery;
    const { ending_before: after, ...rest } = filters;
    // After ending_before the pages walk toward newer events: each is reversed, so a backlog comes
    // oldest first, the order to process it in. The cursor carries the place and the direction.
    let page = await listEvents({ ...filters, per_page: MAX_PER_PAGE });
    for (;;) {
      yield* after === undefined ? page.items : [...page.items].reverse();
      if (page.nextCursor === null) return;
      page = await listEvents({ ...rest, cursor: page.nextCursor, per_page: MAX_PER_PAGE });
    }
  }

  return {
    /** The token sent on merchant routes (set by the options, setToken() or the first login()). */
    get token(): string | undefined {
      return token;
    },
    setToken(next: string | undefined): void {
      token = next;
    },

    auth: {
      /**
       * POST /auth/login. The client keeps the token for later calls when it has none yet. A member
       * with two-factor gets `{mfaRequired, mfaToken}` (then loginMfa()); in an account requiring
       * it, a member without gets `{twoFactorSetupRequired, setupToken}` (twoFactor.enroll() and
       * confirm() with it, then log in again).
       */
      async login(body: LoginBody): Promise<LoginAnswer> {
        const result = await success(raw.auth.login({ body }));
        if ('token' in result) token ??= result.token;
        return result;
      },
      /** POST /auth/login/mfa: the mfaToken and a code (TOTP or recovery); the token is kept as login()'s. */
      async loginMfa(body: LoginMfaBody): Promise<LoginResponse> {
        const result = await success(raw.twoFactor.loginMfa({ body }));
        token ??= result.token;
        return result;
      },
    },

    twoFactor: {
      /** GET /auth/two-factor: whether the member uses it, its recovery codes left, whether the account requires it. */
      async status(): Promise<TwoFactorStatus> {
        return success(raw.twoFactor.status());
      },
      /** POST /auth/two-factor/enroll: a new secret and its otpauth:// URI (for a QR code). */
      async enroll(): Promise<TwoFactorEnrolment> {
        return success(raw.twoFactor.enroll());
      },
      /** POST /auth/two-factor/confirm: a first code turns it on; the 10 recovery codes, shown once. */
      async confirm(code: string): Promise<{ recoveryCodes: string[] }> {
        return success(raw.twoFactor.confirm({ body: { code } }));
      },
      /** POST /auth/two-factor/disable, with a code (TOTP or recovery). */
      async disable(code: string): Promise<void> {
        await success(raw.twoFactor.disable({ body: { code } }));
      },
    },

    apiKeys: {
      /** POST /users/me/api-keys (login token only): the answer holds the secret, shown this once. */
      async create(body: CreateApiKeyParams): Promise<CreatedApiKey> {
        return success(raw.apiKeys.create({ body }));
      },
      /** GET /users/me/api-keys (login token only): the keys in use, without their secrets. */
      async list(): Promise<ApiKeyList> {
        return success(raw.apiKeys.list());
      },
      /** DELETE /users/me/api-keys/{id} (login token only): refused everywhere from then on. */
      async revoke(id: string): Promise<void> {
        await success(raw.apiKeys.revoke({ params: { id: segment(id) } }));
      },
    },

    members: {
      /** GET /members: the account's members. */
      async list(): Promise<Member[]> {
        return (await success(raw.members.list())).items;
      },
      /** GET /members/invitations (members:write). */
      async listInvitations(): Promise<Invitation[]> {
        return (await success(raw.members.listInvitations())).items;
      },
      /** POST /members/invitations (members:write): `link` only when the server has no SMTP. */
      async invite(body: InviteParams): Promise<Invitation> {
        return success(raw.members.invite({ body }));
      },
      /** DELETE /members/invitations/{id} (members:write): the link stops working. */
      async revokeInvitation(id: string): Promise<void> {
        await success(raw.members.revokeInvitation({ params: { id: segment(id) } }));
      },
      /** GET /members/invitations/accept/{token} (public): what the link offers. */
      async showInvitation(invitationToken: string): Promise<InvitationPreview> {
        return success(raw.members.showInvitation({ params: { token: segment(invitationToken) } }));
      },
      /** POST /members/invitations/accept/{token} (public): the new member's login token, kept when the client has none. */
      async acceptInvitation(invitationToken: string, body: AcceptInvitationParams): Promise<LoginResponse> {
        const result = await success(
          raw.members.acceptInvitation({ params: { token: segment(invitationToken) }, body }),
        );
        token ??= result.token;
        return result;
      },
      /** PATCH /members/{id} (members:write; an owner's role needs ownership:write). */
      async changeRole(id: string, role: Role): Promise<Member> {
        return success(raw.members.changeRole({ params: { id: segment(id) }, body: { role } }));
      },
      /** DELETE /members/{id} (members:write): its tokens, sessions and keys stop. */
      async remove(id: string): Promise<void> {
        await success(raw.members.remove({ params: { id: segment(id) } }));
      },
      /** POST /members/transfer-ownership (the owner): you become an admin and must sign in again. */
      async transferOwnership(memberId: string): Promise<Member[]> {
        return (await success(raw.members.transferOwnership({ body: { memberId } }))).items;
      },
    },

    orders: {
      /**
       * POST /orders. Always sends an Idempotency-Key (yours, or a random UUID), the same one on
       * every retry, so a retried creation never makes a second order.
       */
      async create(body: CreateOrderParams, opts: RequestOptions = {}): Promise<Order> {
        const key = opts.idempotencyKey ?? newIdempotencyKey();
        return success(raw.orders.create({ body, headers: { 'idempotency-key': key } }));
      },
      /** GET /orders/{reference}. */
      async get(reference: string): Promise<Order> {
        return success(raw.orders.get({ params: { reference: segment(reference) } }));
      },
      /** GET /users/me/orders: page mode ({items, page, per_page, total}), or cursor mode with `cursor`. */
      list,
      /** Every order matching the filters, newest first, across cursor pages of 50. */
      listAll,
      /**
       * POST /orders/{reference}/submit-tx: attribute a transfer to the order (your word; still
       * verified on chain: the right token, to the order's wallet, final, credited to no other order).
       */
      async submitTx(
        reference: string,
        txId: string,
        opts: { network?: Order['network'] } = {},
      ): Promise<Order> {
        // `network`: the transaction's, one of the order's payment options' (default: told by the txId's form).
        return success(
          raw.orders.submitTx({ params: { reference: segment(reference) }, body: { txId, ...opts } }),
        );
      },
      /** GET /orders/{reference}/payments: the ledger of credited transfers (txId, from, amount, matchedBy). */
      async payments(reference: string): Promise<PaymentList> {
        return success(raw.refunds.payments({ params: { reference: segment(reference) } }));
      },
      refunds: {
        /**
         * POST /orders/{reference}/refunds: refund all (no amount) or part of what the order
         * received, to `to` or to the address the payer gives on `refundUrl`. Always sends an
         * Idempotency-Key (yours, or a random UUID), the same on every retry. Sign and send it with
         * `sendRefund` from `@stablepay/sdk/refunds`, or open `payUrl` in the receiving wallet.
         */
        async create(
          reference: string,
          body: CreateRefundParams = {},
          opts: RequestOptions = {},
        ): Promise<Refund> {
          const key = opts.idempotencyKey ?? newIdempotencyKey();
          return success(
            raw.refunds.create({
              params: { reference: segment(reference) },
              body,
              headers: { 'idempotency-key': key },
            }),
          );
        },
        /** GET /orders/{reference}/refunds: oldest first; pending ones carry a fresh transaction. */
        async list(reference: string): Promise<RefundList> {
          return success(raw.refunds.list({ params: { reference: segment(reference) } }));
        },
        /**
         * POST /orders/{reference}/refunds/{id}/approve: your word that the address the payer gave
         * without proof (status AWAITING_APPROVAL) is the payer's. The refund becomes PENDING, with
         * its transaction. Anyone who knows a refund id can give an address: approve only one you
         * have checked with the payer.
         */
        async approve(reference: string, refundId: string): Promise<Refund> {
          return success(
            raw.refunds.approve({ params: { reference: segment(reference), id: segment(refundId) } }),
          );
        },
      },
      /** GET /orders/{reference}/audit: the order's timeline, oldest first. */
      async audit(reference: string): Promise<AuditList> {
        return success(raw.deliveries.audit({ params: { reference: segment(reference) } }));
      },
      /** GET /orders/{reference}/webhook-deliveries. */
      async webhookDeliveries(reference: string): Promise<WebhookDeliveryList> {
        return success(raw.deliveries.webhookDeliveries({ params: { reference: segment(reference) } }));
      },
      /** GET /orders/{reference}/messenger-deliveries. */
      async messengerDeliveries(reference: string): Promise<MessengerDeliveryList> {
        return success(raw.deliveries.messengerDeliveries({ params: { reference: segment(reference) } }));
      },
      /**
       * GET /orders/{reference}/email-deliveries: the e-mails to the order's customer (its receipt,
       * a subscription's order and reminder) and how sending them went; empty when the server sends
       * no e-mail.
       */
      async emailDeliveries(reference: string): Promise<EmailDeliveryList> {
        return success(raw.emails.emailDeliveries({ params: { reference: segment(reference) } }));
      },
      /** POST /orders/{reference}/webhook-deliveries/{id}/redeliver: send that event again now. */
      async redeliverWebhook(reference: string, deliveryId: string): Promise<WebhookDelivery> {
        return success(
          raw.deliveries.redeliverWebhook({
            params: { reference: segment(reference), id: segment(deliveryId) },
          }),
        );
      },
    },

    account: {
      /** GET /account: the account's name and point-of-sale settings (currency, tips). */
      async get(): Promise<Account> {
        return success(raw.account.get());
      },
      /**
       * PATCH /account: `name`, `currency` (BRL, EUR or a token), `tipPercentages` (empty: none),
       * `requireTwoFactor` (owner only); only those given change.
       */
      async update(body: UpdateAccountParams): Promise<Account> {
        return success(raw.account.update({ body }));
      },
    },
    profile: {
      /** GET /users/me. */
      async get(): Promise<Profile> {
        return success(raw.profile.get());
      },
      /** PATCH /users/me: only the fields given change; null clears one. */
      async update(body: UpdateProfileParams): Promise<Profile> {
        return success(raw.profile.update({ body }));
      },
      /** POST /users/me/password (never retried on 5xx or network errors). Tokens issued before stop working. */
      async changePassword(body: ChangePasswordParams): Promise<void> {
        await raw.profile.changePassword({ body });
      },
      /** POST /users/me/webhook-secret: the new secret, shown only this once (never retried on 5xx). */
      async rotateWebhookSecret(): Promise<WebhookSecret> {
        return success(raw.profile.rotateWebhookSecret());
      },
      /**
       * POST /users/me/webhook-test: a signed `ping` event to your webhook URL now; the attempt,
       * failed or not (ConflictError without a URL or secret, or at API version 2025-01-01).
       */
      async sendTestWebhook(): Promise<WebhookDelivery> {
        return success(raw.profile.sendTestWebhook());
      },
      /** POST /users/me/messenger-test: a `ping` message to your messenger chat now; the attempt. */
      async sendTestMessage(): Promise<MessengerDelivery> {
        return success(raw.profile.sendTestMessage());
      },
    },

    events: {
      /**
       * GET /events: one page of the merchant's events, newest first, each exactly as its webhook
       * carries it; pass `nextCursor` back as `cursor` (same filters) until it is null. With
       * `ending_before` (the last event id you processed): the events right after it, and a
       * `nextCursor` toward newer ones.
       */
      list: listEvents,
      /**
       * Every event matching the filters across cursor pages of 50: newest first; with
       * `ending_before`, the events after that one, oldest first (catching up after downtime).
       */
      listAll: listAllEvents,
      /** GET /events/{id}: one event, exactly as its webhook carries it. */
      async get(id: string): Promise<WebhookEventBody> {
        return success(raw.events.get({ params: { id: segment(id) } }));
      },
    },

    unattributedPayments: {
      /**
       * GET /users/me/unattributed-payments: one page of the transfers to your wallets that
       * credited no order, newest first; pass `nextCursor` back as `cursor` until it is null.
       * Attribute one with orders.submitTx(reference, txId).
       */
      list: listUnattributed,
      /** Every unattributed transfer across cursor pages of 50, newest first. */
      listAll: listAllUnattributed,
    },

    subscriptions: {
      /**
       * POST /subscriptions: an order every period, made by the service and sent to the customer
       * (nothing is pulled from a wallet). Always sends an Idempotency-Key (yours, or a random
       * UUID), the same on every retry.
       */
      async create(body: CreateSubscriptionParams, opts: RequestOptions = {}): Promise<Subscription> {
        const key = opts.idempotencyKey ?? newIdempotencyKey();
        return success(raw.subscriptions.create({ body, headers: { 'idempotency-key': key } }));
      },
      /**
       * GET /subscriptions: one page, newest first (filters `status`, `customer_email` in any
       * case); pass `nextCursor` back as `cursor` (same filters) until it is null.
       */
      list: listSubscriptions,
      /** Every subscription matching the filters, newest first, across cursor pages of 50. */
      listAll: listAllSubscriptions,
      /** GET /subscriptions/{id}. */
      async get(id: string): Promise<Subscription> {
        return success(raw.subscriptions.get(subscriptionParams(id)));
      },
      /** GET /subscriptions/{id}/orders: one page of its orders (one or more a period), newest first. */
      async orders(id: string, query: CursorQuery = {}): Promise<OrderCursorPage> {
        return success(raw.subscriptions.orders({ ...subscriptionParams(id), query }));
      },
      /**
       * POST /subscriptions/{id}/cancel: CANCELED now, or with `atPeriodEnd` no order after the
       * current period (ConflictError when already CANCELED; never retried on an unknown outcome).
       */
      async cancel(id: string, opts: { atPeriodEnd?: boolean } = {}): Promise<Subscription> {
        return success(raw.subscriptions.cancel({ ...subscriptionParams(id), body: opts }));
      },
      /** POST /subscriptions/{id}/pause: no orders until resumed (ConflictError when PAUSED or CANCELED). */
      async pause(id: string): Promise<Subscription> {
        return success(raw.subscriptions.pause(subscriptionParams(id)));
      },
      /** POST /subscriptions/{id}/resume: orders again, the current period's at once when none is open. */
      async resume(id: string): Promise<Subscription> {
        return success(raw.subscriptions.resume(subscriptionParams(id)));
      },
    },

    payouts: {
      /**
       * POST /payouts: a DRAFT batch of up to 500 transfers from your own wallets; every bad item is
       * named in the ValidationError (`body.items.N.field`). Never retried on an unknown outcome.
       */
      async create(body: CreatePayoutParams): Promise<Payout> {
        return success(raw.payouts.create({ body }));
      },
      /**
       * POST /payouts/import: the same batch from a CSV's text (header
       * `network,token,to,amount,reference,note`); every bad row is named `items.N.field`, N the
       * data row from 0. Never retried on an unknown outcome.
       */
      async importCsv(csv: string, opts: ImportPayoutParams = {}): Promise<Payout> {
        return success(raw.payouts.importCsv({ body: { ...opts, csv } }));
      },
      /** GET /payouts: one page, newest first, without items; pass `nextCursor` back as `cursor`. */
      list: listPayouts,
      /** Every payout matching the filters, newest first, across cursor pages of 50. */
      listAll: listAllPayouts,
      /** GET /payouts/{id}: the batch with its items. */
      async get(id: string): Promise<Payout> {
        return success(raw.payouts.get(payoutParams(id)));
      },
      /**
       * POST /payouts/{id}/approve: APPROVED once enough members approved (ConflictError for the
       * creator when the account asks for two, or when not DRAFT).
       */
      async approve(id: string): Promise<Payout> {
        return success(raw.payouts.approve(payoutParams(id)));
      },
      /** POST /payouts/{id}/cancel: a DRAFT or APPROVED batch (ConflictError once one was reported). */
      async cancel(id: string): Promise<Payout> {
        return success(raw.payouts.cancel(payoutParams(id)));
      },
      /**
       * GET /payouts/{id}/transactions: the unsigned transactions for your paying wallets, with fees;
       * `batch: true` pays each EVM network with a verified PayoutBatch contract by approve + pay().
       */
      async transactions(id: string, opts: { batch?: boolean } = {}): Promise<PayoutTransaction[]> {
        const query = opts.batch ? { batch: 'true' as const } : {};
        return (await success(raw.payouts.transactions({ ...payoutParams(id), query }))).transactions;
      },
      /** Your PayoutBatch contract per EVM network: list, the deployment to sign, its report. */
      batchContracts: {
        async list(): Promise<PayoutBatchContract[]> {
          return (await success(raw.payouts.batchContracts())).items;
        },
        async deployment(network: PayoutBatchContract['network']): Promise<PayoutBatchDeployment> {
          return success(raw.payouts.deployBatchContract({ body: { network } }));
        },
        /** Recorded only when the chain shows your paying wallet deployed PayoutBatch's exact code. */
        async report(network: PayoutBatchContract['network'], txId: string): Promise<PayoutBatchContract> {
          return success(raw.payouts.reportBatchContract({ params: { network }, body: { txId } }));
        },
      },
      /** POST /payouts/{id}/transactions: report one you sent; the items it pays are verified on chain. */
      async report(id: string, body: ReportPayoutTxParams): Promise<Payout> {
        return success(raw.payouts.report({ ...payoutParams(id), body }));
      },
      /** GET /payouts/{id}.csv: the items with status, transaction and exact amounts, as CSV text. */
      async csv(id: string): Promise<string> {
        // ts-rest reads `:id.csv` as one parameter named "id.csv": it is given the whole last segment.
        const params = { id: segment(id), 'id.csv': `${segment(id)}.csv` };
        return (await success(raw.payouts.exportCsv({ params }))) as string;
      },
    },

    x402: {
      /**
       * A facilitator client for @x402/express (or any x402 v2 resource server): `verify`,
       * `settle` and `getSupported` on this service's /x402 routes with this client's API key
       * (scope `x402:settle`). Pass it to `new x402ResourceServer(...)`. A settle is never retried
       * (presented again, a payment answers `already_settled`).
       */
      facilitator(): X402FacilitatorClient {
        const request = (paymentPayload: X402PaymentPayload, paymentRequirements: X402Requirements) => ({
          body: { x402Version: paymentPayload.x402Version, paymentPayload, paymentRequirements },
        });
        return {
          verify: (payload, requirements) => success(raw.x402.verify(request(payload, requirements))),
          settle: (payload, requirements) => success(raw.x402.settle(request(payload, requirements))),
          getSupported: () => success(raw.x402.supported()),
        };
      },
    },

    /**
     * Only on an instance started with `npm run sandbox` (every route is a NotFoundError elsewhere):
     * real transfers on its local chains, no real money.
     */
    sandbox: {
      /** GET /sandbox: each local chain's RPC URL, chain id and tokens, and the merchant's wallet keys. */
      async info(): Promise<SandboxInfo> {
        return success(raw.sandbox.info());
      },
      /**
       * POST /sandbox/orders/{reference}/pay: a real transfer from a funded sandbox payer (default
       * what is still due, tagged, unreported). Never retried on an unknown outcome: it moves money.
       */
      async pay(reference: string, body: SandboxPayParams = {}): Promise<{ txId: string }> {
        return success(raw.sandbox.pay({ params: { reference: segment(reference) }, body }));
      },
      /** POST /sandbox/faucet: test tokens and gas to any address. */
      async faucet(body: SandboxFaucetParams): Promise<{ txIds: string[] }> {
        return success(raw.sandbox.faucet({ body }));
      },
      /** POST /sandbox/advance: mine blocks and move the chains' clocks and the service's. */
      async advance(body: SandboxAdvanceParams = {}) {
        return success(raw.sandbox.advance({ body }));
      },
      /** POST /sandbox/refunds/{id}/send: sign and send a PENDING refund with the sandbox merchant's key. */
      async sendRefund(refundId: string): Promise<{ txId: string }> {
        return success(raw.sandbox.sendRefund({ params: { id: segment(refundId) } }));
      },
      /**
       * POST /sandbox/payouts/{id}/send: sign, send and report an APPROVED payout's transactions with
       * the sandbox merchant's keys (fund its wallets first). Never retried on an unknown outcome.
       */
      async sendPayout(payoutId: string): Promise<{ txIds: string[] }> {
        return success(raw.sandbox.sendPayout({ params: { id: segment(payoutId) } }));
      },
    },

    wallets: {
      /** GET /users/me/wallets. */
      async list(): Promise<WalletList> {
        return success(raw.wallets.list());
      },
      /** POST /users/me/wallets. */
      async create(body: CreateWalletParams): Promise<Wallet> {
        return success(raw.wallets.create({ body }));
      },
      /** DELETE /users/me/wallets/{wallet_id} (refused with a ConflictError while open orders use it). */
      async remove(walletId: string): Promise<void> {
        await raw.wallets.remove({ params: { wallet_id: segment(walletId) } });
      },
    },

    networks: {
      /**
       * GET /networks (public): the networks this service takes payments on, each with its chain
       * id, confirmations, explorer and tokens (mint or contract, decimals).
       */
      async list(): Promise<NetworkInfo[]> {
        return (await success(raw.networks.list())).items;
      },
    },
  };
}

export type StablepayClient = ReturnType<typeof createClient>;
