import { ROLE_PERMISSIONS } from '../../../contract';

/** The x402, session and key examples, and the shape of one operation's examples. */

export const x402Requirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '10000',
  payTo: '0x52908400098527886E0F7030069857D2E4169EE7',
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
};
export const x402Request = {
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

export const dashboardSession = {
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

export const apiKeyItem = {
  id: '0f6d6a8e-3c1b-4d2a-9b7e-5a4c3d2e1f00',
  name: 'shop backend',
  scopes: ['orders:write', 'orders:read'],
  last4: 'aN2o',
  createdAt: '2026-11-24T12:00:00.000Z',
  lastUsedAt: null,
};

export const totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
export const mfaToken = 'q3Vx9mK2pL8nR4tY7wZ1aB5cD6eF0gH3iJ2kL9mN4oP';
