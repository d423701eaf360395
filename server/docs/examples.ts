import {
  ErrorCode,
  LATEST_API_VERSION,
  ROLE_PERMISSIONS,
  ZPaymentInfo,
  errorStatus,
  type ErrorCode as Code,
  type EventType,
} from '../../contract';

/**
 * Examples for the API reference, by operation (`<router>.<route>`). A test parses each one with
 * the contract's own schema, so they cannot drift from what the API really sends.
 */
const reference = '7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX';
const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const usdt = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
const base = 'https://pay.example.com';
const payUrl = `solana:${wallet}?amount=9.504754&spl-token=${usdt}&reference=${reference}&label=Loja%20Azul&message=Order%20%231001`;
const txId = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

const polygonWallet = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db';
const polygonUsdt = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const polygonPayUrl = `ethereum:${polygonUsdt}@137/transfer?address=${polygonWallet}&uint256=9504754`;

const order = {
  reference,
  status: 'PENDING',
  network: 'SOLANA',
  token: 'USDT',
  decimals: 6,
  amount: '9.504754',
  amountReceived: '0.000000',
  amountRefunded: '0.000000',
  amountRefundable: '0.000000',
  amountUnique: true,
  tokenMintOrContract: usdt,
  recipient: wallet,
  quoteCurrency: 'BRL',
  quoteAmount: '49.90',
  quotedAt: '2026-11-22T10:00:00.000Z',
  fxRate: '5.25',
  fxRateLabel: '1 USDT = 5.250000 BRL',
  fxSource: 'coinbase',
  payUrl,
  qrData: payUrl,
  qrImageUrl: `${base}/pay/${reference}/qr.svg`,
  checkoutUrl: `${base}/checkout/${reference}`,
  txRequestUrl: `solana:${base}/pay/tx-request/${reference}`,
  expiresAt: '2026-11-22T10:15:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  txId: null,
  paidAt: null,
  paidLate: false,
  webhookUrl: null,
  returnUrl: 'https://shop.example.com/orders/1001',
  messengerChatId: null,
  merchantWalletId: '3f1c2a8e-5b7d-4c1e-9a2f-6d8b0e4c7a15',
  description: 'Order #1001',
  metadata: { cartId: 'cart_1001' },
  paymentOptions: [
    {
      network: 'SOLANA',
      token: 'USDT',
      tokenMintOrContract: usdt,
      decimals: 6,
      recipient: wallet,
      amount: '9.504754',
      amountUnique: true,
      amountDue: '9.504754',
      payUrl,
      qrData: payUrl,
      qrImageUrl: `${base}/pay/${reference}/qr.svg`,
      txRequestUrl: `solana:${base}/pay/tx-request/${reference}`,
    },
    {
      network: 'POLYGON',
      token: 'USDT',
      tokenMintOrContract: polygonUsdt,
      decimals: 6,
      recipient: polygonWallet,
      amount: '9.504754',
      amountUnique: true,
      amountDue: '9.504754',
      payUrl: polygonPayUrl,
      qrData: polygonPayUrl,
      qrImageUrl: `${base}/pay/${reference}/qr.svg?network=POLYGON&token=USDT`,
      txRequestUrl: null,
    },
  ],
  paidWith: null,
  subscriptionId: null,
  period: null,
  customerEmail: 'ana@example.com',
  customerLanguage: 'pt-BR',
  source: 'api',
  createdBy: { memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01', email: 'shop@example.com' },
  kind: 'order',
  resource: null,
  payer: null,
};
const account = {
  id: '8f14e45f-ceea-4e7a-9b0d-3c5a2e6f1d47',
  name: 'Loja Azul',
  currency: 'USDT',
  tipPercentages: [],
  requireTwoFactor: false,
  payoutApprovals: 1,
};
const payoutItem = {
  id: 'pi_3f2a9c1d7e5b4a60b8c2d9e1f0a7b6c5',
  network: 'POLYGON',
  token: 'USDT',
  decimals: 6,
  to: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  amount: '125.50',
  reference: 'affiliate-0042',
  note: 'November commission',
  status: 'PENDING',
  txId: null,
  failureReason: null,
  confirmedAt: null,
};
const payoutSummary = {
  id: 'po_9b8a7c6d5e4f30211a2b3c4d5e6f7a8b',
  status: 'DRAFT',
  description: 'Affiliates, November',
  itemCount: 1,
  createdBy: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01',
  approvalsRequired: 1,
  approvals: [],
  approvedAt: null,
  deadlineAt: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:00.000Z',
};
const payout = { ...payoutSummary, items: [payoutItem] };
const approvedPayout = {
  ...payout,
  status: 'APPROVED',
  approvals: [{ memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01', at: '2026-11-29T10:05:00.000Z' }],
  approvedAt: '2026-11-29T10:05:00.000Z',
  deadlineAt: '2026-11-30T10:05:00.000Z',
};
const payoutTxId = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const paidOrder = {
  ...order,
  paymentOptions: order.paymentOptions.map((o) => ({ ...o, amountDue: '0.000000' })),
  paidWith: { network: 'SOLANA', token: 'USDT' },
  status: 'PAID',
  amountReceived: '9.504754',
  amountRefundable: '9.504754',
  txId,
  paidAt: '2026-11-22T10:03:12.000Z',
  updatedAt: '2026-11-22T10:03:14.000Z',
};

// The payment page's view of the same order: the contract picks what a payer may see.
const paymentInfo = ZPaymentInfo.parse({ ...order, amountDue: '9.504754', merchantName: 'Loja Azul' });

const profile = {
  id: 'b1b106de-3172-436a-8ee4-1a0ed2c948b1',
  email: 'shop@example.com',
  full_name: 'Loja Azul',
  phone: '+55 11 91234-5678',
  webhook_url: 'https://shop.example.com/webhooks/stablepay',
  messenger_chat_id: '-1001234567890',
  messenger_bot_token_set: true,
  webhook_secret_set: true,
  webhook_api_version: LATEST_API_VERSION,
  underpayment_tolerance_bps: 50,
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-20T17:30:00.000Z',
};

const walletItem = {
  wallet_id: order.merchantWalletId,
  name: 'main',
  network: 'SOLANA',
  public_address: wallet,
  created_at: '2026-11-01T09:05:00.000Z',
};

/** Events as GET /events answers them: each exactly as its webhook carried it. */
const paidEvent = {
  id: 'evt_4f0c9b8e2d7a4c61b3e5f2a1d0c9b8e7',
  type: 'order.paid',
  apiVersion: LATEST_API_VERSION,
  createdAt: paidOrder.updatedAt,
  data: { order: paidOrder },
};
const eventBody = JSON.stringify(paidEvent);
const webhookDelivery = {
  id: '42',
  eventId: 'evt_4f0c9b8e2d7a4c61b3e5f2a1d0c9b8e7',
  eventType: 'order.paid',
  url: profile.webhook_url,
  attempt: 1,
  requestBody: eventBody,
  responseStatus: 200,
  responseBody: 'ok',
  error: null,
  durationMs: 84,
  createdAt: '2026-11-22T10:03:15.000Z',
  nextRetryAt: null,
};
const messengerDelivery = {
  id: '17',
  eventType: 'order.paid',
  chatId: '-1001234567890',
  text: `✅ Payment received\n9.504754 USDT on SOLANA\n(49.90 BRL)\nStatus: PAID\nReference: ${reference}\nCheckout: ${order.checkoutUrl}`,
  status: 'SENT',
  responseStatus: 200,
  responseBody: '{"ok":true,"result":{"message_id":381}}',
  error: null,
  attempt: 1,
  durationMs: 212,
  createdAt: '2026-11-22T10:03:15.000Z',
};

const createdEvent = {
  id: 'evt_0b6e1d3c5a7f49e28c1d4b6a8e0f2c3d',
  type: 'order.created',
  apiVersion: LATEST_API_VERSION,
  createdAt: order.createdAt,
  data: { order },
};

const solanaTransaction = {
  network: 'SOLANA',
  reference,
  amount: '9.504754',
  message: 'Order #1001',
  transaction:
    'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
};

const payer = 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg';
const refundId = 'rf_9c1f4b2a7d3e4f5a8b6c0d1e2f3a4b5c';
const refundTag = 'FkPqgq8hM4G1m3m6sBdQzWcYvXkPnLtR2aJ9yUe5oHbT';
const refundPayUrl = `solana:${base}/pay/refunds/${refundId}/tx-request`;
/** The paid order once a refund of 4 holds part of it. */
const refundingOrder = { ...paidOrder, amountRefundable: '5.504754' };
const refund = {
  id: refundId,
  orderReference: reference,
  status: 'PENDING',
  network: 'SOLANA',
  token: 'USDT',
  amount: '4.000000',
  decimals: 6,
  from: wallet,
  to: payer,
  reason: 'Item out of stock',
  tag: refundTag,
  refundUrl: `${base}/refund/${refundId}`,
  payUrl: refundPayUrl,
  qrData: refundPayUrl,
  transaction: { transaction: solanaTransaction.transaction },
  txId: null,
  late: false,
  failureReason: null,
  deadlineAt: '2026-11-23T11:00:00.000Z',
  lateUntil: null,
  createdAt: '2026-11-22T11:00:00.000Z',
  updatedAt: '2026-11-22T11:00:00.000Z',
};
const publicRefund = {
  id: refundId,
  status: 'AWAITING_ADDRESS',
  network: 'SOLANA',
  token: 'USDT',
  amount: '4.000000',
  to: null,
  merchantName: 'Loja Azul',
  orderReference: reference,
  addressFormat: 'must be a Solana public key (base58, 32 bytes)',
  txId: null,
  deadlineAt: '2026-11-23T11:00:00.000Z',
};

/** The credited transfer an order.paid event carries. */
const payment = {
  txId,
  network: 'SOLANA',
  token: 'USDT',
  from: payer,
  amount: '9.504754',
  matchedBy: 'tag',
  blockTime: '2026-11-22T10:03:12.000Z',
  createdAt: '2026-11-22T10:03:13.000Z',
};

/** A test delivery's event (POST /users/me/webhook-test). */
const pingEvent = {
  id: 'evt_9d2e4f6a8b0c4d1e3f5a7b9c1d3e5f70',
  type: 'ping',
  apiVersion: LATEST_API_VERSION,
  createdAt: '2026-11-24T09:00:00.000Z',
  data: {
    message:
      'A test delivery from stablepay: when its signature verifies, this endpoint is ready for events.',
  },
};
const PING_MESSENGER_TEXT =
  "A test message from stablepay: this chat receives the merchant's order and refund events.";

/** A monthly subscription, ACTIVE, in its second period. */
const subscription = {
  id: 'sub_5f0c2d8e6a4b1c3d9e7f0a21',
  status: 'ACTIVE',
  customer: { email: 'ana@example.com', name: 'Ana', reference: 'cus_1042', language: 'pt-BR' },
  interval: 'month',
  intervalCount: 1,
  amount: '9.900000',
  quoteCurrency: null,
  quoteAmount: null,
  network: 'SOLANA',
  token: 'USDT',
  decimals: 6,
  paymentOptions: 'all',
  description: 'Plano mensal',
  metadata: null,
  webhookUrl: null,
  trialDays: 0,
  trialEnd: null,
  dueDays: 7,
  currentPeriodStart: '2026-12-31T10:00:00.000Z',
  currentPeriodEnd: '2027-01-31T10:00:00.000Z',
  nextOrderAt: '2027-01-31T10:00:00.000Z',
  latestOrderReference: reference,
  manageUrl: `${base}/subscriptions/manage/3q2-Xx8m1cVZp0O6k4tWf5bHn9RyJdLaUeGsTiQoPzE`,
  cancelAtPeriodEnd: false,
  pastDueSince: null,
  canceledAt: null,
  createdAt: '2026-11-30T10:00:00.000Z',
  updatedAt: '2026-12-31T10:05:00.000Z',
};
const periodOrder = {
  ...order,
  subscriptionId: subscription.id,
  period: { index: 1, start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
};
const subscriptionEvent = (type: EventType, data: Record<string, unknown>) => ({
  ...paidEventOf(type),
  createdAt: subscription.updatedAt,
  data: { subscription, ...data },
});

const exampleMember = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  email: 'cashier@example.com',
  name: 'Bia Lima',
  role: 'cashier',
  createdAt: '2026-11-23T09:00:00.000Z',
};
const loginAnswer = {
  token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ2ZXIiOjB9.c2lnbmF0dXJl',
  tokenType: 'Bearer',
  expiresAt: '2026-11-29T10:00:00.000Z',
};
const exampleInvitation = {
  id: '9b2f1c3a-4d5e-4f60-8a7b-1c2d3e4f5a6b',
  email: 'cashier@example.com',
  role: 'cashier',
  status: 'PENDING',
  expiresAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
};
/** Who did it, as an audit entry or event a person causes names it. */
const byMember = {
  actor: 'member',
  memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01',
  memberEmail: 'shop@example.com',
} as const;
const memberEvent = (type: EventType, data: Record<string, unknown>) => ({
  ...paidEventOf(type),
  createdAt: '2026-11-23T09:00:00.000Z',
  data: { ...data, ...byMember },
});

/** The body of each event type's webhook, as `x-webhooks` in openapi.json shows it. */
const refundEventBody = { ...refund, status: 'SUCCEEDED', transaction: null, txId };
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
function paidEventOf(type: EventType) {
  const id = `evt_${Buffer.from(type).toString('hex').padEnd(32, '0').slice(0, 32)}`;
  return {
    id,
    type,
    apiVersion: LATEST_API_VERSION,
    createdAt: paidOrder.updatedAt,
    data: { order: paidOrder, payment } as Record<string, unknown>,
  };
}

/** What @x402/express sends its facilitator: 0.01 USDC on Base, authorized by EIP-3009. */
const x402Requirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '10000',
  payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
};
const x402Request = {
  x402Version: 2,
  paymentPayload: {
    x402Version: 2,
    resource: { url: 'https://api.example.com/weather', mimeType: 'application/json' },
    accepted: x402Requirements,
    payload: {
      signature: `0x${'2d'.repeat(65)}`,
      authorization: {
        from: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
        to: '0x52908400098527886E0F7030069857D2E4169EE7',
        value: '10000',
        validAfter: '1764400000',
        validBefore: '1764400660',
        nonce: `0x${'7f'.repeat(32)}`,
      },
    },
  },
  paymentRequirements: x402Requirements,
};

export type OperationExamples = { request?: unknown; responses: Record<number, unknown> };

const dashboardSession = {
  merchant: {
    id: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01',
    email: 'shop@example.com',
    full_name: 'Loja Exemplo',
  },
  member: {
    id: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01',
    email: 'shop@example.com',
    name: 'Ana Souza',
    role: 'owner',
  },
  permissions: [...ROLE_PERMISSIONS.owner],
  csrfToken: 'Qm9vdHN0cmFwIHRoZSBjc3JmIHRva2VuIGZvciB0aGUgc2Vzc2lvbg',
  idleTimeoutSeconds: 43200,
};

const apiKeyItem = {
  id: '0f6d6a8e-3c1b-4d2a-9b7e-5a4c3d2e1f00',
  name: 'shop backend',
  scopes: ['orders:write', 'orders:read'],
  last4: 'aN2o',
  createdAt: '2026-11-24T12:00:00.000Z',
  lastUsedAt: null,
};

const totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const mfaToken = 'q3Vx9mK2pL8nR4tY7wZ1aB5cD6eF0gH3iJ2kL9mN4oP';

export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  'auth.login': {
    request: { email: 'shop@example.com', password: 'correct horse battery staple' },
    responses: { 200: loginAnswer },
  },
  'twoFactor.status': {
    responses: {
      200: { enabled: true, enabledAt: '2026-11-24T12:00:00.000Z', recoveryCodesLeft: 9, required: false },
    },
  },
  'twoFactor.enroll': {
    responses: {
      200: {
        otpauthUrl: `otpauth://totp/stablepay:shop%40example.com?secret=${totpSecret}&issuer=stablepay`,
        secret: totpSecret,
      },
    },
  },
  'twoFactor.confirm': {
    request: { code: '492039' },
    responses: {
      200: {
        recoveryCodes: [
          'K7M2Q-9XH4T',
          'P3W8R-2ZC6N',
          'H5J9V-4TQ7B',
          'X2N6D-8KR3M',
          'C9T4F-6WP2J',
          'R8B3H-5MX9Q',
          'V4Q7K-3NJ8W',
          'M6Z2P-9RT5C',
          'T3X8J-7HB4V',
          'W5C9N-2QK6R',
        ],
      },
    },
  },
  'twoFactor.disable': { request: { code: '492039' }, responses: {} },
  'twoFactor.loginMfa': {
    request: { mfaToken, code: '492039' },
    responses: {
      200: {
        token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ2ZXIiOjB9.c2lnbmF0dXJl',
        tokenType: 'Bearer',
        expiresAt: '2026-11-29T10:00:00.000Z',
      },
    },
  },
  'orders.create': {
    request: {
      network: 'SOLANA',
      token: 'USDT',
      quoteCurrency: 'BRL',
      quoteAmount: '49.90',
      paymentOptions: [{ network: 'POLYGON', token: 'USDT' }],
      description: 'Order #1001',
      metadata: { cartId: 'cart_1001' },
      customerEmail: 'ana@example.com',
      customerLanguage: 'pt-BR',
    },
    responses: { 201: order },
  },
  'orders.list': {
    responses: { 200: { items: [paidOrder], per_page: 20, nextCursor: 'eyJ2IjoxLCJpZCI6IjEyMyJ9' } },
  },
  'orders.get': { responses: { 200: paidOrder } },
  'orders.submitTx': { request: { txId }, responses: { 202: { ...order, status: 'CONFIRMING' } } },
  'deliveries.webhookDeliveries': { responses: { 200: { items: [webhookDelivery] } } },
  'deliveries.recentWebhookDeliveries': {
    responses: { 200: { items: [{ ...webhookDelivery, orderReference: paidOrder.reference }] } },
  },
  'dashboard.signIn': {
    request: { email: 'shop@example.com', password: 'correct horse battery staple' },
    responses: { 200: dashboardSession },
  },
  'dashboard.signInMfa': { request: { mfaToken, code: '492039' }, responses: { 200: dashboardSession } },
  'dashboard.session': { responses: { 200: dashboardSession } },
  'dashboard.signOut': { responses: {} },
  'dashboard.mySales': {
    responses: {
      200: {
        memberId: '8d2e4f6a-1b3c-4d5e-9f70-2a4b6c8d0e1f',
        email: 'cashier@example.com',
        name: 'Bia',
        ordersCreated: 64,
        ordersPaid: 61,
        received: [{ token: 'USDT', amount: '1183.42' }],
        receivedFiat: [{ currency: 'BRL', amount: '6120.50' }],
      },
    },
  },
  'dashboard.summary': {
    responses: {
      200: {
        from: '2026-11-23',
        to: '2026-11-24',
        timeZone: 'America/Sao_Paulo',
        received: [{ network: 'SOLANA', token: 'USDT', amount: '19.04762' }],
        receivedFiat: [{ currency: 'BRL', amount: '100.00' }],
        ordersCreated: 3,
        ordersPaid: 1,
        byStatus: { PENDING: 1, CONFIRMING: 0, PAID: 1, UNDERPAID: 0, EXPIRED: 1 },
        days: [
          { date: '2026-11-23', ordersCreated: 1, ordersPaid: 0, received: [], receivedFiat: [] },
          {
            date: '2026-11-24',
            ordersCreated: 2,
            ordersPaid: 1,
            received: [{ network: 'SOLANA', token: 'USDT', amount: '19.04762' }],
            receivedFiat: [{ currency: 'BRL', amount: '100.00' }],
          },
        ],
      },
    },
  },
  'deliveries.redeliverWebhook': { responses: { 200: { ...webhookDelivery, id: '57', attempt: 2 } } },
  'deliveries.messengerDeliveries': { responses: { 200: { items: [messengerDelivery] } } },
  'deliveries.telegramDeliveries': { responses: { 200: { items: [messengerDelivery] } } },
  'emails.emailDeliveries': {
    responses: {
      200: {
        items: [
          {
            id: 'em_4f0c8e2a9b1d47c6a3e5f7b9d1c3e5a7',
            kind: 'receipt',
            to: 'ana@example.com',
            subject: 'Recibo: 9.504754 USDT pagos a Loja Exemplo',
            status: 'SENT',
            attempt: 1,
            error: null,
            createdAt: '2026-11-22T10:03:15.000Z',
          },
        ],
      },
    },
  },
  'deliveries.audit': {
    responses: {
      200: {
        items: [
          {
            id: '1',
            type: 'order.created',
            actor: 'member',
            data: {
              memberId: byMember.memberId,
              memberEmail: byMember.memberEmail,
              status: 'PENDING',
              amount: '9.504754',
            },
            createdAt: order.createdAt,
          },
          {
            id: '2',
            type: 'tx_request.issued',
            actor: 'payer',
            data: { account: 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg' },
            createdAt: '2026-11-22T10:02:40.000Z',
          },
          {
            id: '3',
            type: 'tx.submitted',
            actor: 'payer',
            data: { txId },
            createdAt: '2026-11-22T10:02:52.000Z',
          },
          {
            id: '4',
            type: 'payment.verified',
            actor: 'system',
            data: { txId, amount: '9.504754', matchedBy: 'reference' },
            createdAt: '2026-11-22T10:03:14.000Z',
          },
          {
            id: '5',
            type: 'status.changed',
            actor: 'system',
            data: { from: 'CONFIRMING', to: 'PAID', reason: 'paid in full' },
            createdAt: '2026-11-22T10:03:14.000Z',
          },
        ],
      },
    },
  },
  'events.list': {
    responses: {
      200: {
        items: [paidEvent, createdEvent],
        per_page: 2,
        nextCursor:
          'eyJ2IjoxLCJkIjoibyIsImF0IjoiMjAyNi0xMS0yMlQxMDowMDowMC4wMDAwMDBaIiwiaWQiOiJldnRfMGI2ZTFkM2M1YTdmNDllMjhjMWQ0YjZhOGUwZjJjM2QifQ',
      },
    },
  },
  'events.get': { responses: { 200: paidEvent } },
  'claims.unattributed': {
    responses: {
      200: {
        items: [
          {
            txId,
            network: 'SOLANA',
            token: 'USDT',
            to: wallet,
            from: payer,
            amount: '19.200000',
            blockTime: '2026-11-22T10:03:10.000Z',
            createdAt: '2026-11-22T10:03:12.000Z',
          },
        ],
        per_page: 20,
        nextCursor: null,
      },
    },
  },
  'payouts.create': {
    request: {
      items: [
        {
          network: 'POLYGON',
          token: 'USDT',
          to: payoutItem.to,
          amount: '125.50',
          reference: 'affiliate-0042',
        },
      ],
      description: 'Affiliates, November',
    },
    responses: { 201: payout },
  },
  'payouts.importCsv': {
    request: {
      csv: `network,token,to,amount,reference,note\n${payoutItem.network},${payoutItem.token},${payoutItem.to},125.50,affiliate-0042,"November, 2026"\n`,
      description: 'Affiliates, November',
    },
    responses: { 201: payout },
  },
  'payouts.list': { responses: { 200: { items: [payoutSummary], per_page: 20, nextCursor: null } } },
  'payouts.get': { responses: { 200: payout } },
  'payouts.approve': { responses: { 200: approvedPayout } },
  'payouts.cancel': { responses: { 200: { ...payout, status: 'CANCELED' } } },
  'payouts.transactions': {
    responses: {
      200: {
        transactions: [
          {
            network: 'POLYGON',
            from: '0x52908400098527886E0F7030069857D2E4169EE7',
            items: [payoutItem.id],
            transaction: {
              chainId: 137,
              to: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
              data: '0xa9059cbb0000000000000000000000008ba1f109551bd432803012645ac136ddd64dba7200000000000000000000000000000000000000000000000000000000077b00b0',
              value: '0',
            },
            feeEstimate: '0.004200',
          },
        ],
      },
    },
  },
  'payouts.report': {
    request: { network: 'POLYGON', txId: payoutTxId },
    responses: {
      200: {
        ...approvedPayout,
        status: 'SENDING',
        items: [{ ...payoutItem, status: 'SENT', txId: payoutTxId }],
      },
    },
  },
  'account.get': { responses: { 200: account } },
  'account.update': {
    request: { currency: 'BRL', tipPercentages: [10, 15, 20] },
    responses: { 200: { ...account, currency: 'BRL', tipPercentages: [10, 15, 20] } },
  },
  'profile.get': { responses: { 200: profile } },
  'profile.update': {
    request: { webhook_url: profile.webhook_url, messenger_chat_id: profile.messenger_chat_id },
    responses: { 200: profile },
  },
  'profile.changePassword': {
    request: {
      current_password: 'correct horse battery staple',
      new_password: 'a new and longer passphrase',
    },
    responses: {},
  },
  'profile.sendTestWebhook': {
    responses: {
      200: {
        ...webhookDelivery,
        id: '58',
        eventId: pingEvent.id,
        eventType: 'ping',
        requestBody: JSON.stringify(pingEvent),
        durationMs: 61,
        createdAt: pingEvent.createdAt,
      },
    },
  },
  'profile.sendTestMessage': {
    responses: {
      200: {
        ...messengerDelivery,
        id: '18',
        eventType: 'ping',
        text: `🔔 Test message from stablepay\n${PING_MESSENGER_TEXT}`,
        responseBody: '{"ok":true,"result":{"message_id":382}}',
        createdAt: pingEvent.createdAt,
      },
    },
  },
  'profile.rotateWebhookSecret': {
    responses: {
      200: {
        webhook_secret: 'whsec_Q2x9cE5vRkR2a2tXc0NuV0ZrR2dYbWt2Y2Jx',
        previous_secret_expires_at: '2026-11-23T10:00:00.000Z',
      },
    },
  },
  'apiKeys.create': {
    request: { name: 'shop backend', scopes: ['orders:write', 'orders:read'] },
    responses: {
      201: { ...apiKeyItem, secret: 'sk_3q2-7wLxQe0Vb9n4uJt8ZkR5sYc1mHdA6pFgWl0aN2o', last4: 'aN2o' },
    },
  },
  'apiKeys.list': {
    responses: { 200: { items: [{ ...apiKeyItem, lastUsedAt: '2026-11-24T12:41:07.000Z' }] } },
  },
  'apiKeys.revoke': { responses: {} },
  'members.list': {
    responses: {
      200: {
        items: [
          { ...exampleMember, ...dashboardSession.member, createdAt: '2026-11-20T09:00:00.000Z' },
          exampleMember,
        ],
      },
    },
  },
  'members.listInvitations': { responses: { 200: { items: [exampleInvitation] } } },
  'members.invite': {
    request: { email: 'cashier@example.com', role: 'cashier', language: 'pt-BR' },
    responses: {
      201: {
        ...exampleInvitation,
        link: 'https://pay.example.com/dashboard/invite/Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgcmVhbCB0b2tl',
      },
    },
  },
  'members.revokeInvitation': { responses: {} },
  'members.showInvitation': {
    responses: {
      200: {
        accountName: 'Loja Exemplo',
        email: 'cashier@example.com',
        role: 'cashier',
        expiresAt: exampleInvitation.expiresAt,
      },
    },
  },
  'members.acceptInvitation': {
    request: { name: 'Bia Lima', password: 'a long and private passphrase' },
    responses: { 201: loginAnswer },
  },
  'members.changeRole': {
    request: { role: 'finance' },
    responses: { 200: { ...exampleMember, role: 'finance' } },
  },
  'members.remove': { responses: {} },
  'members.transferOwnership': {
    request: { memberId: exampleMember.id },
    responses: {
      200: {
        items: [
          { ...dashboardSession.member, role: 'admin', createdAt: '2026-11-20T09:00:00.000Z' },
          { ...exampleMember, role: 'owner' },
        ],
      },
    },
  },
  'wallets.list': { responses: { 200: { items: [walletItem] } } },
  'wallets.create': {
    request: { name: 'main', network: 'SOLANA', public_address: wallet },
    responses: { 201: walletItem },
  },
  'wallets.remove': { responses: {} },
  'pay.txRequest': {
    responses: {
      200: solanaTransaction,
    },
  },
  'pay.txRequestPost': {
    request: { account: 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg' },
    responses: {
      200: solanaTransaction,
    },
  },
  'pay.submitTx': {
    request: {
      txId,
      signature: '3yZe7d5xZbWEXWzZk7K9FjjKDkHxRWSE7JDaqKRUeCdzVhwFpzGfYcEn7tbsL2uj2VxRg5EEWMKXkqydEaqYH9s2',
    },
    responses: { 202: { ...paymentInfo, status: 'CONFIRMING' } },
  },
  'pay.info': { responses: { 200: paymentInfo } },
  'refunds.payments': {
    responses: {
      200: {
        items: [payment],
      },
    },
  },
  'subscriptions.create': {
    request: {
      customer: { email: 'ana@example.com', name: 'Ana', reference: 'cus_1042', language: 'pt-BR' },
      interval: 'month',
      amount: '9.90',
      network: 'SOLANA',
      token: 'USDT',
      paymentOptions: 'all',
      description: 'Plano mensal',
    },
    responses: {
      201: {
        ...subscription,
        status: 'INCOMPLETE',
        currentPeriodStart: subscription.createdAt,
        currentPeriodEnd: '2026-12-31T10:00:00.000Z',
        nextOrderAt: '2026-12-31T10:00:00.000Z',
        updatedAt: subscription.createdAt,
      },
    },
  },
  'subscriptions.list': { responses: { 200: { items: [subscription], per_page: 20, nextCursor: null } } },
  'subscriptions.get': { responses: { 200: subscription } },
  'subscriptions.orders': { responses: { 200: { items: [periodOrder], per_page: 20, nextCursor: null } } },
  'subscriptions.cancel': {
    request: { atPeriodEnd: true },
    responses: { 200: { ...subscription, cancelAtPeriodEnd: true, nextOrderAt: null } },
  },
  'subscriptions.pause': { responses: { 200: { ...subscription, status: 'PAUSED', nextOrderAt: null } } },
  'subscriptions.resume': { responses: { 200: subscription } },
  'refunds.create': {
    request: { amount: '4', reason: 'Item out of stock', to: payer },
    responses: { 201: refund },
  },
  'refunds.list': { responses: { 200: { items: [refund] } } },
  'refunds.info': { responses: { 200: publicRefund } },
  'refunds.setAddress': {
    request: {
      address: payer,
      signature: '4SF5vGp4buZDtbYXZMV1kS8XKdR2A3PExiwiicbXZQEa57nnSHp52CCax3RkHqafxD32nwkdLLzJxwz5FrtL8od4',
    },
    responses: { 200: { ...publicRefund, status: 'PENDING', to: payer } },
  },
  'refunds.approve': {
    responses: { 200: refund },
  },
  'refunds.txRequest': {
    responses: { 200: { label: 'Loja Azul refund', icon: `${base}/pay/icon.svg` } },
  },
  'refunds.txRequestPost': {
    request: { account: wallet },
    responses: { 200: { transaction: solanaTransaction.transaction, message: 'Refund 4 USDT' } },
  },
  'sandbox.info': {
    responses: {
      200: {
        chains: [
          {
            network: 'SOLANA',
            kind: 'solana',
            rpcUrl: 'http://127.0.0.1:8899',
            chainId: null,
            tokens: [
              { symbol: 'USDT', contract: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr', decimals: 6 },
            ],
            wallet: {
              address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
              privateKey:
                '4wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw4gZ5KGVS1Ut7Ju2hXDVCVPGZhCTAXbZmJHwnUg2NAVxVK',
            },
          },
          {
            network: 'POLYGON',
            kind: 'evm',
            rpcUrl: 'http://127.0.0.1:8545',
            chainId: 137,
            tokens: [{ symbol: 'USDT', contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 }],
            wallet: {
              address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
              privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
            },
          },
        ],
      },
    },
  },
  'sandbox.pay': { request: { amount: '4', tagged: true, report: false }, responses: { 200: { txId } } },
  'sandbox.checkoutPay': { request: { network: 'SOLANA', token: 'USDT' }, responses: { 200: { txId } } },
  'sandbox.faucet': {
    request: { network: 'POLYGON', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '100' },
    responses: {
      200: { txIds: ['0x9c1b7f0d3c4a2e6f8b5d1a7c3e9f0b2d4a6c8e0f1b3d5f7a9c1e3b5d7f9a1c3e'] },
    },
  },
  'sandbox.advance': {
    request: { blocks: 10, seconds: 3600 },
    responses: {
      200: {
        networks: [
          { network: 'SOLANA', slot: 1234 },
          { network: 'POLYGON', blockNumber: 567 },
        ],
      },
    },
  },
  'sandbox.sendRefund': { responses: { 200: { txId } } },
  'sandbox.sendPayout': { responses: { 200: { txIds: [payoutTxId] } } },
  'networks.list': {
    responses: {
      200: {
        items: [
          {
            network: 'SOLANA',
            name: 'Solana',
            kind: 'solana',
            chainId: null,
            confirmations: null,
            commitment: 'finalized',
            explorer: { name: 'Solana Explorer', txUrl: 'https://explorer.solana.com/tx/{tx}' },
            tokens: [
              { symbol: 'USDT', contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
            ],
          },
          {
            network: 'BSC',
            name: 'BNB Smart Chain',
            kind: 'evm',
            chainId: 56,
            confirmations: 15,
            commitment: null,
            explorer: { name: 'BscScan', txUrl: 'https://bscscan.com/tx/{tx}' },
            tokens: [
              { symbol: 'USDT', contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
            ],
          },
        ],
        sandbox: false,
      },
    },
  },
  'x402.supported': {
    responses: {
      200: {
        kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
        extensions: [],
        signers: { 'eip155:*': ['0x6C3ea9036406852006290770BEdFcAbA0e23A0e8'] },
      },
    },
  },
  'x402.verify': {
    request: x402Request,
    responses: { 200: { isValid: true, payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66' } },
  },
  'x402.settle': {
    request: x402Request,
    responses: {
      200: {
        success: true,
        transaction: '0x3b1f0a9ad0c6a6e2a4f5c8d0b8e7f1a2c3d4e5f60718293a4b5c6d7e8f901234',
        network: 'eip155:8453',
        payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
      },
    },
  },
  'x402.gasKeys': {
    responses: {
      200: {
        warnBelowSettlements: 100,
        gasKeys: [
          {
            network: 'BASE',
            caip2: 'eip155:8453',
            address: '0x6C3ea9036406852006290770BEdFcAbA0e23A0e8',
            coin: 'ETH',
            balance: '0.004210',
            settlementsLeft: 42,
            low: true,
          },
        ],
        notConfigured: [],
      },
    },
  },
  'health.healthz': { responses: { 200: { status: 'ok' } } },
  'health.readyz': {
    responses: {
      200: { status: 'ok', database: 'ok' },
      503: { status: 'unavailable', database: 'unreachable' },
    },
  },
};

const ERROR_EXAMPLES: Record<Code, { message: string; details?: { path: string; message: string }[] }> = {
  VALIDATION_ERROR: {
    message: 'body.amount: must be a decimal string with at most 6 decimal places, e.g. "12.5"',
    details: [
      { path: 'body.amount', message: 'must be a decimal string with at most 6 decimal places, e.g. "12.5"' },
    ],
  },
  UNAUTHENTICATED: { message: 'Invalid token' },
  FORBIDDEN: { message: 'This API key lacks the scope orders:write' },
  NOT_CONFIGURED: { message: 'x402 on EVM networks is not configured: set X402_EVM_PRIVATE_KEY' },
  NOT_FOUND: { message: 'Order not found' },
  CONFLICT: { message: 'This transaction was already submitted for another order' },
  GONE: { message: 'This invitation was already used' },
  PAYLOAD_TOO_LARGE: { message: 'Request body is larger than 100 KB' },
  RATE_LIMITED: { message: 'Too many requests: slow down' },
  INTERNAL_ERROR: { message: 'Internal server error' },
  UPSTREAM_UNAVAILABLE: { message: 'Solana RPC unavailable: getLatestBlockhash failed (timed out)' },
};

/** The error body example for an HTTP status of the error table (503: the database is unreachable). */
export function errorExample(status: number) {
  if (status === 503)
    return {
      error: {
        code: ErrorCode.UPSTREAM_UNAVAILABLE,
        message:
          'The database cannot be reached right now: try again shortly. An order or refund being created may or may not have been: repeat the request with the same Idempotency-Key and it is created once',
      },
    };
  const code = (Object.keys(errorStatus) as Code[]).find((c) => errorStatus[c] === status);
  if (!code) return undefined;
  return { error: { code: ErrorCode[code], ...ERROR_EXAMPLES[code] } };
}
