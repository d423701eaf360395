import { LATEST_API_VERSION, ZPaymentInfo, type EventType } from '../../../contract';

/** The objects the API reference's examples are made of: one order, refund, payout, subscription, member, as the API answers them. */
export const reference = '7Z3x7x5iYhPE7vJv2PUs4bUE9N7K1V3i8GsMoqYpT1rX';
export const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
export const usdt = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
export const base = 'https://pay.example.com';
export const payUrl = `solana:${wallet}?amount=9.504754&spl-token=${usdt}&reference=${reference}&label=Loja%20Azul&message=Order%20%231001`;
export const txId =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

export const polygonWallet = '0x4B20993Bc481177ec7E8f571ceCaE8A9e22C02db';
export const polygonUsdt = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
export const polygonPayUrl = `ethereum:${polygonUsdt}@137/transfer?address=${polygonWallet}&uint256=9504754`;

export const order = {
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
export const account = {
  id: '8f14e45f-ceea-4e7a-9b0d-3c5a2e6f1d47',
  name: 'Loja Azul',
  currency: 'USDT',
  tipPercentages: [],
  requireTwoFactor: false,
  payoutApprovals: 1,
};
export const payoutItem = {
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
export const payoutSummary = {
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
export const payout = { ...payoutSummary, items: [payoutItem] };
export const approvedPayout = {
  ...payout,
  status: 'APPROVED',
  approvals: [{ memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01', at: '2026-11-29T10:05:00.000Z' }],
  approvedAt: '2026-11-29T10:05:00.000Z',
  deadlineAt: '2026-11-30T10:05:00.000Z',
};
export const payoutTxId = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
export const paidOrder = {
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
export const paymentInfo = ZPaymentInfo.parse({ ...order, amountDue: '9.504754', merchantName: 'Loja Azul' });

export const profile = {
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

export const walletItem = {
  wallet_id: order.merchantWalletId,
  name: 'main',
  network: 'SOLANA',
  public_address: wallet,
  created_at: '2026-11-01T09:05:00.000Z',
};

/** Events as GET /events answers them: each exactly as its webhook carried it. */
export const paidEvent = {
  id: 'evt_4f0c9b8e2d7a4c61b3e5f2a1d0c9b8e7',
  type: 'order.paid',
  apiVersion: LATEST_API_VERSION,
  createdAt: paidOrder.updatedAt,
  data: { order: paidOrder },
};
export const eventBody = JSON.stringify(paidEvent);
export const webhookDelivery = {
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
export const messengerDelivery = {
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

export const createdEvent = {
  id: 'evt_0b6e1d3c5a7f49e28c1d4b6a8e0f2c3d',
  type: 'order.created',
  apiVersion: LATEST_API_VERSION,
  createdAt: order.createdAt,
  data: { order },
};

export const solanaTransaction = {
  network: 'SOLANA',
  reference,
  amount: '9.504754',
  message: 'Order #1001',
  transaction:
    'AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==',
};

export const payer = 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg';
export const refundId = 'rf_9c1f4b2a7d3e4f5a8b6c0d1e2f3a4b5c';
export const refundTag = 'FkPqgq8hM4G1m3m6sBdQzWcYvXkPnLtR2aJ9yUe5oHbT';
export const refundPayUrl = `solana:${base}/pay/refunds/${refundId}/tx-request`;
/** The paid order once a refund of 4 holds part of it. */
export const refundingOrder = { ...paidOrder, amountRefundable: '5.504754' };
export const refund = {
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
export const publicRefund = {
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
export const payment = {
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
export const pingEvent = {
  id: 'evt_9d2e4f6a8b0c4d1e3f5a7b9c1d3e5f70',
  type: 'ping',
  apiVersion: LATEST_API_VERSION,
  createdAt: '2026-11-24T09:00:00.000Z',
  data: {
    message:
      'A test delivery from stablepay: when its signature verifies, this endpoint is ready for events.',
  },
};
export const PING_MESSENGER_TEXT =
  "A test message from stablepay: this chat receives the merchant's order and refund events.";

/** A monthly subscription, ACTIVE, in its second period. */
export const subscription = {
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
export const periodOrder = {
  ...order,
  subscriptionId: subscription.id,
  period: { index: 1, start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
};
export const subscriptionEvent = (type: EventType, data: Record<string, unknown>) => ({
  ...paidEventOf(type),
  createdAt: subscription.updatedAt,
  data: { subscription, ...data },
});

export const exampleMember = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  email: 'cashier@example.com',
  name: 'Bia Lima',
  role: 'cashier',
  createdAt: '2026-11-23T09:00:00.000Z',
};
export const loginAnswer = {
  token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ2ZXIiOjB9.c2lnbmF0dXJl',
  tokenType: 'Bearer',
  expiresAt: '2026-11-29T10:00:00.000Z',
};
export const exampleInvitation = {
  id: '9b2f1c3a-4d5e-4f60-8a7b-1c2d3e4f5a6b',
  email: 'cashier@example.com',
  role: 'cashier',
  status: 'PENDING',
  expiresAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
};
/** Who did it, as an audit entry or event a person causes names it. */
export const byMember = {
  actor: 'member',
  memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01',
  memberEmail: 'shop@example.com',
} as const;
export const memberEvent = (type: EventType, data: Record<string, unknown>) => ({
  ...paidEventOf(type),
  createdAt: '2026-11-23T09:00:00.000Z',
  data: { ...data, ...byMember },
});

/** The body of each event type's webhook, as `x-webhooks` in openapi.json shows it. */
export const refundEventBody = { ...refund, status: 'SUCCEEDED', transaction: null, txId };

/** An event's envelope around the paid order and its payment. */
export function paidEventOf(type: EventType) {
  const id = `evt_${Buffer.from(type).toString('hex').padEnd(32, '0').slice(0, 32)}`;
  return {
    id,
    type,
    apiVersion: LATEST_API_VERSION,
    createdAt: paidOrder.updatedAt,
    data: { order: paidOrder, payment } as Record<string, unknown>,
  };
}
