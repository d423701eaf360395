import { type EventType } from '../../../contract';
import {
  txId,
  order,
  paidOrder,
  refundingOrder,
  refund,
  payment,
  pingEvent,
  subscription,
  periodOrder,
  subscriptionEvent,
  exampleMember,
  exampleInvitation,
  byMember,
  memberEvent,
  refundEventBody,
  paidEventOf,
} from './fixtures';

/** Webhook payload examples, one per event type, as the contract's event union parses them. */

export const WEBHOOK_EXAMPLES: Record<EventType, unknown> = {
  'order.created': {
    ...paidEventOf('order.created'),
    createdAt: order.createdAt,
    data: { order, ...byMember },
  },
  'order.confirming': {
    ...paidEventOf('order.confirming'),
    createdAt: '2026-11-22T10:02:52.000Z',
    data: { order: { ...order, status: 'CONFIRMING', updatedAt: '2026-11-22T10:02:52.000Z' } },
  },
  'order.paid': paidEventOf('order.paid'),
  'order.underpaid': {
    ...paidEventOf('order.underpaid'),
    data: {
      order: {
        ...paidOrder,
        status: 'UNDERPAID',
        amountReceived: '5.000000',
        amountRefundable: '5.000000',
        paidAt: null,
      },
      payment: { ...payment, amount: '5.000000' },
    },
  },
  'order.expired': {
    ...paidEventOf('order.expired'),
    createdAt: order.expiresAt,
    data: { order: { ...order, status: 'EXPIRED', updatedAt: order.expiresAt } },
  },
  'order.payment_rejected': {
    ...paidEventOf('order.payment_rejected'),
    createdAt: '2026-11-22T10:04:00.000Z',
    data: { order: { ...order, updatedAt: '2026-11-22T10:04:00.000Z' } },
  },
  'order.payment_claimed': {
    ...paidEventOf('order.payment_claimed'),
    createdAt: '2026-11-22T10:04:00.000Z',
    data: {
      order: { ...order, updatedAt: '2026-11-22T10:04:00.000Z' },
      claim: {
        txId: payment.txId,
        network: payment.network,
        token: payment.token,
        from: payment.from,
        amount: '19.200000',
        blockTime: payment.blockTime,
        reason:
          "the transaction does not name the order, 19.2 is neither the order's 20.0 nor the 20.0 due, and the report is not signed by the sending wallet: the merchant may attribute it",
        createdAt: '2026-11-22T10:03:30.000Z',
      },
    },
  },
  'refund.created': {
    ...paidEventOf('refund.created'),
    createdAt: refund.createdAt,
    data: { order: refundingOrder, refund: { ...refund, transaction: null }, ...byMember },
  },
  'refund.succeeded': {
    ...paidEventOf('refund.succeeded'),
    createdAt: '2026-11-22T11:05:00.000Z',
    data: {
      order: { ...refundingOrder, amountRefunded: '4.000000', updatedAt: '2026-11-22T11:05:00.000Z' },
      refund: { ...refundEventBody, updatedAt: '2026-11-22T11:05:00.000Z' },
    },
  },
  'refund.failed': {
    ...paidEventOf('refund.failed'),
    createdAt: refund.deadlineAt,
    data: {
      // The failed refund holds its 4 until its lateUntil: its transfer may still land.
      order: refundingOrder,
      refund: {
        ...refund,
        status: 'FAILED',
        transaction: null,
        failureReason: 'no verified refund transfer within 86400 s',
        lateUntil: '2026-11-24T11:00:00.000Z',
        updatedAt: refund.deadlineAt,
      },
    },
  },
  'subscription.created': subscriptionEvent('subscription.created', {
    subscription: { ...subscription, status: 'INCOMPLETE', latestOrderReference: null },
  }),
  'subscription.order_created': subscriptionEvent('subscription.order_created', { order: periodOrder }),
  'subscription.active': subscriptionEvent('subscription.active', {
    order: { ...periodOrder, status: 'PAID' },
  }),
  'subscription.past_due': subscriptionEvent('subscription.past_due', {
    subscription: { ...subscription, status: 'PAST_DUE', pastDueSince: subscription.updatedAt },
    order: { ...periodOrder, status: 'EXPIRED' },
  }),
  'subscription.paused': subscriptionEvent('subscription.paused', {
    subscription: { ...subscription, status: 'PAUSED', nextOrderAt: null },
  }),
  'subscription.resumed': subscriptionEvent('subscription.resumed', {}),
  'subscription.canceled': subscriptionEvent('subscription.canceled', {
    subscription: {
      ...subscription,
      status: 'CANCELED',
      nextOrderAt: null,
      canceledAt: subscription.updatedAt,
    },
  }),
  'member.invited': memberEvent('member.invited', { invitation: exampleInvitation }),
  'member.joined': memberEvent('member.joined', { member: { ...exampleMember } }),
  'member.role_changed': memberEvent('member.role_changed', {
    member: { ...exampleMember, role: 'finance' },
    previousRole: 'cashier',
  }),
  'member.removed': memberEvent('member.removed', { member: { ...exampleMember } }),
  ...payoutEventExamples(),
  ping: pingEvent,
};

/** The payout events' bodies: a batch of one item, paid and verified. */
function payoutEventExamples() {
  const at = '2026-11-22T11:00:00.000Z';
  const payout = {
    id: 'po_4f1c0d5e9a7b4c3d2e1f0a9b8c7d6e5f',
    status: 'COMPLETED',
    description: 'Affiliates, November',
    itemCount: 1,
    createdBy: '0b9a7c52-3f1e-4d6a-9c1b-2e8f4a6d5c3b',
    approvalsRequired: 1,
    approvals: [{ memberId: '0b9a7c52-3f1e-4d6a-9c1b-2e8f4a6d5c3b', at }],
    approvedAt: at,
    deadlineAt: '2026-11-23T11:00:00.000Z',
    createdAt: at,
    updatedAt: at,
  };
  const item = {
    id: 'pi_9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b',
    network: 'POLYGON',
    token: 'USDT',
    decimals: 6,
    to: '0x52908400098527886E0F7030069857D2E4169EE7',
    amount: '25.000000',
    reference: 'aff-1042',
    note: null,
    status: 'CONFIRMED',
    txId,
    failureReason: null,
    confirmedAt: at,
  };
  const event = (type: EventType, status: string, withItem = false) => ({
    ...paidEventOf(type),
    createdAt: at,
    data: { payout: { ...payout, status }, ...(withItem ? { item } : {}) },
  });
  return {
    'payout.created': event('payout.created', 'DRAFT'),
    'payout.approved': event('payout.approved', 'APPROVED'),
    'payout.completed': event('payout.completed', 'COMPLETED'),
    'payout.partial': event('payout.partial', 'PARTIAL'),
    'payout.failed': event('payout.failed', 'FAILED'),
    'payout.item_confirmed': event('payout.item_confirmed', 'SENDING', true),
    'payout.item_failed': {
      ...event('payout.item_failed', 'SENDING', true),
      data: {
        payout: { ...payout, status: 'SENDING' },
        item: {
          ...item,
          status: 'FAILED',
          confirmedAt: null,
          failureReason: 'sends 24.000000, not 25.000000',
        },
      },
    },
  };
}

/** An order.paid-like event body of another type (a fresh id per type). */

/** What @x402/express sends its facilitator: 0.01 USDC on Base, authorized by EIP-3009. */
