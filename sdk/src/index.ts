/**
 * @stablepay/sdk: the merchant API client (typed from the service's contract), webhook
 * verification, and errors. Payer helpers for browsers live at @stablepay/sdk/payer.
 */
export { createClient } from './client';
export type {
  ApiKey,
  ApiKeyList,
  ApiKeyScope,
  CreateApiKeyParams,
  CreatedApiKey,
  AuditEntry,
  AuditList,
  ChangePasswordParams,
  ClientOptions,
  CreateOrderParams,
  CreateRefundParams,
  CreateSubscriptionParams,
  SandboxAdvanceParams,
  SandboxFaucetParams,
  SandboxInfo,
  SandboxPayParams,
  CreateWalletParams,
  EmailDelivery,
  EmailDeliveryList,
  CursorQuery,
  EventPage,
  ListAllEventsQuery,
  ListEventsQuery,
  ListAllOrdersQuery,
  ListAllSubscriptionsQuery,
  ListSubscriptionsQuery,
  ListOrdersQuery,
  LoginBody,
  LoginResponse,
  MessengerDelivery,
  MessengerDeliveryList,
  Order,
  PaymentOption,
  OrderCursorPage,
  OrderPage,
  Payment,
  PaymentList,
  Profile,
  Refund,
  RefundList,
  RequestOptions,
  StablepayClient,
  Subscription,
  SubscriptionPage,
  SubscriptionStatus,
  UpdateProfileParams,
  Wallet,
  UnattributedPage,
  UnattributedPayment,
  UnattributedQuery,
  WalletList,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEventBody,
  WebhookSecret,
} from './client';

export {
  AuthenticationError,
  ForbiddenError,
  ConflictError,
  errorFromResponse,
  EvmChainNotAddedError,
  EvmPaymentError,
  EvmRequestRejectedError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  RefundSendError,
  RateLimitError,
  SolanaPaymentError,
  StablepayConnectionError,
  StablepayError,
  UpstreamUnavailableError,
  ValidationError,
  WebhookSignatureVerificationError,
} from './errors';
export type {
  ErrorDetail,
  SdkErrorCode,
  StablepayErrorCode,
  StablepayErrorInit,
  WebhookVerificationReason,
} from './errors';

export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  generateTestHeader,
  isSubscriptionEvent,
  SIGNATURE_HEADER,
  webhooks,
} from './webhooks';
export type {
  ConstructEventParams,
  GenerateTestHeaderParams,
  OrderEvent,
  PingEvent,
  RefundEvent,
  SubscriptionEvent,
  WebhookEvent,
} from './webhooks';

// parsePayUrl, PayUrlError and the pay link types: the module exports nothing else.
export * from './pay-url';

export type { FetchLike } from './http';
export type { RetryOptions } from './retry';

/** Names and values shared with the service, from its contract. */
export {
  API_KEY_SCOPES,
  API_VERSIONS,
  ErrorCode,
  EVENT_TYPES,
  EVM_NETWORKS,
  EVM_NETWORK_TABLE,
  LATEST_API_VERSION,
  NETWORKS,
  ORDER_STATUSES,
  REFUND_STATUSES,
  SUBSCRIPTION_EVENT_TYPES,
  SUBSCRIPTION_INTERVALS,
  SUBSCRIPTION_STATUSES,
  TOKENS,
  claimProofMessage,
  refundAddressProofMessage,
} from '../../contract';
export type {
  ApiVersion,
  EventType,
  EvmNetwork,
  Network,
  NetworkInfo,
  OrderEventType,
  OrderStatus,
  RefundEventType,
  RefundStatus,
  SubscriptionEventType,
  SubscriptionInterval,
  Token,
} from '../../contract';
