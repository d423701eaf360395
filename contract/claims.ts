import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZAddress, ZDateTime, ZDecimalOut, ZNetwork, ZToken, ZTxId, merchantAuth } from './common';
import { ZPayment } from './refunds';
import { cursorPage, cursorQuery, merchantErrors } from './shapes';

const c = initContract();

/**
 * A transfer a payer reported for an order that the evidence does not carry: no tag, not the exact
 * amount, no signature by the sending wallet. It credits nothing; the merchant may attribute it
 * (POST /orders/{reference}/submit-tx).
 */
// The ledger entry's fields a report has too (txId and amount described anew below).
const REPORTED = {
  txId: true,
  network: true,
  token: true,
  from: true,
  amount: true,
  blockTime: true,
} as const;
export const ZClaimedTransfer = ZPayment.pick(REPORTED)
  .extend({
    txId: ZTxId.describe('The reported transaction'),
    amount: ZDecimalOut.describe('What the transfer sent to the order’s receiving wallet'),
    reason: z.string().max(1000).describe('Why it was not credited, for people'),
    createdAt: ZDateTime.describe('When the payer reported it'),
  })
  .describe('A reported transfer recorded unproven: it credits nothing until the merchant attributes it');
export type ClaimedTransfer = z.infer<typeof ZClaimedTransfer>;

export const ZUnattributedPayment = z
  .object({
    txId: ZTxId.describe('Attribute it with POST /orders/{reference}/submit-tx {"txId"}'),
    network: ZNetwork,
    token: ZToken,
    to: ZAddress.describe('Your receiving wallet it arrived at'),
    from: ZAddress.nullable().describe("The sender's wallet (null when the chain does not say)"),
    amount: ZDecimalOut,
    blockTime: ZDateTime.nullable().describe('When the block holding it was produced'),
    createdAt: ZDateTime.describe('When the service found it'),
  })
  .describe('A final transfer to one of your wallets that credited no order');
export type UnattributedPayment = z.infer<typeof ZUnattributedPayment>;

export const ZUnattributedPage = cursorPage(ZUnattributedPayment);

export const ZUnattributedQuery = z.object(
  cursorQuery("The previous page's nextCursor; empty or absent: the first page"),
);

export const claimsContract = c.router(
  {
    unattributed: {
      method: 'GET',
      path: '/users/me/unattributed-payments',
      summary: 'Transfers to your wallets that credited no order',
      description:
        'Final transfers of a watched token to one of your receiving wallets that no order took: no tag, no open order\'s exact amount, no proven report. Nothing that arrives is ignored: attribute one to an order with POST /orders/{reference}/submit-tx {"txId"} (it then leaves this list), or refund it from your wallet yourself. Newest first; pages cost the same at any depth (pass `nextCursor` back as `cursor`).',
      metadata: merchantAuth('orders:read', 'events:read'),
      query: ZUnattributedQuery,
      responses: {
        200: ZUnattributedPage,
        ...merchantErrors,
      },
    },
  },
  { strictStatusCodes: true },
);
