import {
  wallet,
  txId,
  order,
  account,
  paidOrder,
  profile,
  walletItem,
  paidEvent,
  webhookDelivery,
  messengerDelivery,
  createdEvent,
  payer,
  pingEvent,
  PING_MESSENGER_TEXT,
  exampleMember,
  loginAnswer,
  exampleInvitation,
  byMember,
} from './fixtures';
import { dashboardSession, apiKeyItem, totpSecret, mfaToken, type OperationExamples } from './more-fixtures';

/** The API reference's examples of sign-in, the account, its people, keys, settings, deliveries and events, by operation. */
export const ACCOUNT_OPERATION_EXAMPLES: Record<string, OperationExamples> = {
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
  'networks.list': {
    responses: {
      200: {
        items: [
          {
            network: 'SOLANA',
            name: 'Solana',
            kind: 'solana',
            chainId: null,
            walletChain: 'solana:mainnet',
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
            walletChain: null,
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
  'health.healthz': { responses: { 200: { status: 'ok' } } },
  'health.readyz': {
    responses: {
      200: { status: 'ok', database: 'ok' },
      503: { status: 'unavailable', database: 'unreachable' },
    },
  },
};
