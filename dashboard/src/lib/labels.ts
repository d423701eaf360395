import type {
  PayoutItemStatus,
  PayoutStatus,
  RefundStatus,
  SubscriptionInterval,
  SubscriptionStatus,
} from '../../../contract';
import { EVM_NETWORK_TABLE, EVM_NETWORKS, TRON_NETWORK_TABLE } from '../../../contract/network-table';
import type { AuditKind, EventType, NetworkInfo } from '../../../contract';
import type { MessageKey } from '../i18n';

/** Names of the API's enums in words (message keys), so every page says them the same way. */
export const ORDER_STATUS_KEYS: Record<string, MessageKey> = {
  PENDING: 'statusPENDING',
  CONFIRMING: 'statusCONFIRMING',
  PAID: 'statusPAID',
  UNDERPAID: 'statusUNDERPAID',
  EXPIRED: 'statusEXPIRED',
};
export const REFUND_STATUS_KEYS: Record<RefundStatus, MessageKey> = {
  AWAITING_ADDRESS: 'refundAWAITING_ADDRESS',
  AWAITING_APPROVAL: 'refundAWAITING_APPROVAL',
  PENDING: 'refundPENDING',
  SUCCEEDED: 'refundSUCCEEDED',
  FAILED: 'refundFAILED',
};
/** Networks in words, from the contract's table (also those the service has turned off). */
export const NETWORK_NAMES: Record<string, string> = {
  SOLANA: 'Solana',
  ...Object.fromEntries(EVM_NETWORKS.map((n) => [n, EVM_NETWORK_TABLE[n].name])),
  TRON: TRON_NETWORK_TABLE.name,
};
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;

/** What an address looks like on each kind of network (GET /networks says a network's kind). */
export const ADDRESS_HINT_KEYS: Record<NetworkInfo['kind'], MessageKey> = {
  solana: 'solanaAddressHint',
  evm: 'evmAddressHint',
  tron: 'tronAddressHint',
};

/** Each kind of timeline entry in words: a kind the contract adds without a label here does not compile. */
export const AUDIT_KEYS: Record<AuditKind, MessageKey> = {
  'order.created': 'auditOrderCreated',
  'status.changed': 'auditStatusChanged',
  'tx.submitted': 'auditTxSubmitted',
  'tx_request.issued': 'auditTxRequestIssued',
  'payment.verified': 'auditPaymentVerified',
  'payment.rejected': 'auditPaymentRejected',
  'payment.claimed': 'auditPaymentClaimed',
  'refund.created': 'auditRefundCreated',
  'refund.address_set': 'auditRefundAddressSet',
  'refund.approved': 'auditRefundApproved',
  'refund.succeeded': 'auditRefundSucceeded',
  'refund.failed': 'auditRefundFailed',
  'refund.transaction_rejected': 'auditRefundTransactionRejected',
  'webhook.delivered': 'auditWebhookDelivered',
  'webhook.failed': 'auditWebhookFailed',
  'webhook.gave_up': 'auditWebhookGaveUp',
  'messenger.delivered': 'auditMessengerDelivered',
  'messenger.failed': 'auditMessengerFailed',
  'messenger.gave_up': 'auditMessengerGaveUp',
};

/** Each event type in words (the delivery records show both): likewise typed by the contract. */
export const EVENT_TYPE_KEYS: Record<EventType, MessageKey> = {
  'order.created': 'eventOrderCreated',
  'order.confirming': 'eventOrderConfirming',
  'order.paid': 'eventOrderPaid',
  'order.underpaid': 'eventOrderUnderpaid',
  'order.expired': 'eventOrderExpired',
  'order.payment_rejected': 'eventOrderPaymentRejected',
  'order.payment_claimed': 'eventOrderPaymentClaimed',
  'refund.created': 'eventRefundCreated',
  'refund.succeeded': 'eventRefundSucceeded',
  'refund.failed': 'eventRefundFailed',
  'subscription.created': 'eventSubscriptionCreated',
  'subscription.order_created': 'eventSubscriptionOrderCreated',
  'subscription.active': 'eventSubscriptionActive',
  'subscription.past_due': 'eventSubscriptionPastDue',
  'subscription.paused': 'eventSubscriptionPaused',
  'subscription.resumed': 'eventSubscriptionResumed',
  'subscription.canceled': 'eventSubscriptionCanceled',
  'member.invited': 'eventMemberInvited',
  'member.joined': 'eventMemberJoined',
  'member.role_changed': 'eventMemberRoleChanged',
  'member.removed': 'eventMemberRemoved',
  'payout.created': 'eventPayoutCreated',
  'payout.approved': 'eventPayoutApproved',
  'payout.completed': 'eventPayoutCompleted',
  'payout.partial': 'eventPayoutPartial',
  'payout.failed': 'eventPayoutFailed',
  'payout.item_confirmed': 'eventPayoutItemConfirmed',
  'payout.item_failed': 'eventPayoutItemFailed',
  ping: 'eventPing',
};

export const SUBSCRIPTION_STATUS_KEYS: Record<SubscriptionStatus, MessageKey> = {
  INCOMPLETE: 'subStatusINCOMPLETE',
  TRIALING: 'subStatusTRIALING',
  ACTIVE: 'subStatusACTIVE',
  PAST_DUE: 'subStatusPAST_DUE',
  PAUSED: 'subStatusPAUSED',
  CANCELED: 'subStatusCANCELED',
};

export const PAYOUT_STATUS_KEYS: Record<PayoutStatus, MessageKey> = {
  DRAFT: 'payoutDRAFT',
  APPROVED: 'payoutAPPROVED',
  SENDING: 'payoutSENDING',
  COMPLETED: 'payoutCOMPLETED',
  PARTIAL: 'payoutPARTIAL',
  FAILED: 'payoutFAILED',
  CANCELED: 'payoutCANCELED',
};
export const PAYOUT_ITEM_STATUS_KEYS: Record<PayoutItemStatus, MessageKey> = {
  PENDING: 'payoutItemPENDING',
  SENT: 'payoutItemSENT',
  CONFIRMED: 'payoutItemCONFIRMED',
  FAILED: 'payoutItemFAILED',
};

/** A period's length in words: "every month", "every 3 months" (one key for one unit, one for more). */
export const INTERVAL_KEYS: Record<
  SubscriptionInterval,
  { one: MessageKey; many: MessageKey; unit: MessageKey }
> = {
  day: { one: 'everyDay', many: 'everyNDays', unit: 'unitDay' },
  week: { one: 'everyWeek', many: 'everyNWeeks', unit: 'unitWeek' },
  month: { one: 'everyMonth', many: 'everyNMonths', unit: 'unitMonth' },
  year: { one: 'everyYear', many: 'everyNYears', unit: 'unitYear' },
};
