import type { z } from 'zod';
import type {
  Network,
  ZAcceptInvitationBody,
  ZAccount,
  ZAccountPatch,
  ZApiKey,
  ZApiKeyScope,
  ZAuditEntry,
  ZChangePasswordBody,
  ZCreateApiKeyBody,
  ZCreateOrderBody,
  ZCreatePayoutBody,
  ZCreateRefundBody,
  ZCreateSubscriptionBody,
  ZCreateWalletBody,
  ZCreatedApiKey,
  ZEmailDelivery,
  ZEventPage,
  ZImportPayoutBody,
  ZInvitation,
  ZInvitationPreview,
  ZInviteBody,
  ZListEventsQuery,
  ZListOrdersQuery,
  ZListSubscriptionsQuery,
  ZLoginAnswer,
  ZLoginBody,
  ZLoginResponse,
  ZMember,
  ZMessengerDelivery,
  ZMfaBody,
  ZOrder,
  ZOrderCursorPage,
  ZOrderPage,
  ZPayment,
  ZPayout,
  ZPayoutBatchContract,
  ZPayoutBatchDeployment,
  ZPayoutPage,
  ZPayoutTransaction,
  ZProfile,
  ZRefund,
  ZReportPayoutTxBody,
  ZSandboxAdvanceBody,
  ZSandboxFaucetBody,
  ZSandboxInfo,
  ZSandboxPayBody,
  ZSubscription,
  ZTwoFactorStatus,
  ZUnattributedPage,
  ZUnattributedPayment,
  ZUnattributedQuery,
  ZUpdateAccountBody,
  ZUpdateProfileBody,
  ZWallet,
  ZWebhookDelivery,
  ZWebhookEvent,
  ZWebhookSecret,
  ZX402Payload,
  ZX402Requirements,
  ZX402SettleResponse,
  ZX402Supported,
  ZX402VerifyResponse,
} from '../../../contract';
import type { FetchLike } from '../http';
import type { RetryOptions } from '../retry';

/*
 * Public types come from the contract's schemas (z.infer for answers, z.input for request bodies).
 * Each client method is annotated with them, and its body returns what the ts-rest client infers for
 * the route: if a route's schema changes, the client stops compiling until the types follow.
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
/** What POST /sandbox/advance answers: each local chain's block number (or slot) after it. */
export type SandboxAdvanceResult = {
  networks: { network: Network; blockNumber?: number | undefined; slot?: number | undefined }[];
};
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
