import {
  wallet,
  base,
  txId,
  order,
  payoutItem,
  payoutSummary,
  payout,
  approvedPayout,
  payoutTxId,
  paidOrder,
  paymentInfo,
  solanaTransaction,
  payer,
  refund,
  publicRefund,
  payment,
  subscription,
  periodOrder,
} from './fixtures';
import { x402Request, type OperationExamples } from './more-fixtures';

/** The API reference's examples of orders, payments, refunds, subscriptions, payouts, x402 and the sandbox, by operation. */
export const MONEY_OPERATION_EXAMPLES: Record<string, OperationExamples> = {
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
            purpose: 'pay',
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
};
