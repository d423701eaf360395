/**
 * @stablepay/sdk: the merchant API client (typed from the service's contract), webhook
 * verification, and errors. Payer helpers for browsers live at @stablepay/sdk/payer.
 */
export { createClient } from './client';
export type {
  AuditEntry,
  AuditList,
  ChangePasswordParams,
  ClientOptions,
  CreateOrderParams,
  CreateRefundParams,
  CreateWalletParams,
  ListAllOrdersQuery,
  ListOrdersQuery,
  LoginBody,
  LoginResponse,
  MessengerDelivery,
  MessengerDeliveryList,
  Order,
  OrderCursorPage,
  OrderPage,
  Payment,
  PaymentList,
  Profile,
  Refund,
  RefundList,
  RequestOptions,
  StablepayClient,
  UpdateProfileParams,
  Wallet,
  WalletList,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookSecret,
} from './client';

export {
  AuthenticationError,
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
  SIGNATURE_HEADER,
  webhooks,
} from './webhooks';
export type { ConstructEventParams, GenerateTestHeaderParams, WebhookEvent } from './webhooks';

export { parsePayUrl, PayUrlError } from './pay-url';
export type {
  EvmTransferRequest,
  ParsePayUrlOptions,
  PayUrl,
  SolanaTransactionRequest,
  SolanaTransferRequest,
} from './pay-url';

export type { FetchLike } from './http';
export type { RetryOptions } from './retry';

/** Names and values shared with the service, from its contract. */
export { ErrorCode, EVENT_TYPES, NETWORKS, ORDER_STATUSES, REFUND_STATUSES, TOKENS } from '../../contract';
export type { EventType, Network, OrderStatus, RefundStatus, Token } from '../../contract';
