import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ADDRESS_MAX, ZAddress, ZDateTime, ZNetwork, errors, merchantAuth } from './common';
import { merchantErrors } from './shapes';

const c = initContract();

/** Receiving wallets a merchant may have (409 beyond). */
export const MAX_WALLETS = 100;
const WALLET_NAME_MAX = 100;

export const ZWallet = z
  .object({
    wallet_id: z.string().max(36).uuid().describe("Pass as an order's merchantWalletId to choose it"),
    name: z.string().max(WALLET_NAME_MAX).nullable().describe("The merchant's label"),
    network: ZNetwork,
    public_address: ZAddress.describe(
      'The receiving address (Solana: owner public key; EVM: EIP-55 checksummed address)',
    ),
    created_at: ZDateTime,
  })
  .describe('A receiving wallet of the merchant');

export const ZCreateWalletBody = z
  .object({
    name: z.string().trim().min(1).max(WALLET_NAME_MAX).nullish().describe('A label of your own'),
    network: ZNetwork,
    public_address: z
      .string()
      .trim()
      .min(1)
      .max(ADDRESS_MAX)
      .describe(
        'Solana: base58 public key of the owner wallet; EVM: 0x address (EIP-55 checked when mixed case)',
      ),
  })
  .strict();

export const walletsContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/users/me/wallets',
      summary: "List the merchant's receiving wallets",
      description:
        "The wallets orders are paid into. An order without `merchantWalletId` uses the merchant's first wallet on its network.",
      metadata: merchantAuth('account:read', 'account:read'),
      responses: {
        200: z.object({ items: z.array(ZWallet).max(MAX_WALLETS) }),
        ...merchantErrors,
      },
    },
    create: {
      method: 'POST',
      path: '/users/me/wallets',
      summary: 'Add a receiving wallet',
      description: `The address is validated per network: a Solana base58 32-byte public key, or an EVM 0x address (EIP-55 checksum checked when mixed case, stored checksummed). 400 for an invalid address; 409 when the wallet is already registered, or when the merchant already has ${MAX_WALLETS} wallets (remove one first).`,
      metadata: merchantAuth('account:write', 'wallets:write'),
      body: ZCreateWalletBody,
      responses: {
        201: ZWallet,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    remove: {
      method: 'DELETE',
      path: '/users/me/wallets/:wallet_id',
      summary: 'Remove a wallet (refused while open orders use it)',
      description:
        'Past orders keep their wallet. 409 while an order that can still be paid uses it (not PAID, and not expired past the late-payment window); 404 for an unknown wallet or one of another merchant.',
      metadata: merchantAuth('account:write', 'wallets:write'),
      pathParams: z.object({ wallet_id: z.string().max(36).uuid().describe('The wallet to remove') }),
      body: c.noBody(),
      responses: {
        204: c.noBody(),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'),
      },
    },
  },
  { strictStatusCodes: true },
);
