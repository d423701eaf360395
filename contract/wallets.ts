import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZDateTime, ZNetwork, errors, merchantAuth } from './common';

const c = initContract();

export const ZWallet = z.object({
  wallet_id: z.string().uuid(),
  name: z.string().nullable(),
  network: ZNetwork,
  public_address: z.string(),
  created_at: ZDateTime,
});

export const ZCreateWalletBody = z
  .object({
    name: z.string().trim().min(1).max(100).nullish(),
    network: ZNetwork,
    public_address: z
      .string()
      .trim()
      .min(1)
      .max(100)
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
      metadata: merchantAuth,
      responses: { 200: z.object({ items: z.array(ZWallet) }), ...errors('UNAUTHENTICATED') },
    },
    create: {
      method: 'POST',
      path: '/users/me/wallets',
      summary: 'Add a receiving wallet',
      metadata: merchantAuth,
      body: ZCreateWalletBody,
      responses: {
        201: ZWallet,
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'CONFLICT', 'PAYLOAD_TOO_LARGE'),
      },
    },
    remove: {
      method: 'DELETE',
      path: '/users/me/wallets/:wallet_id',
      summary: 'Remove a wallet (refused while open orders use it)',
      metadata: merchantAuth,
      pathParams: z.object({ wallet_id: z.string().uuid() }),
      body: c.noBody(),
      responses: {
        204: c.noBody(),
        ...errors('VALIDATION_ERROR', 'UNAUTHENTICATED', 'NOT_FOUND', 'CONFLICT'),
      },
    },
  },
  { strictStatusCodes: true },
);
