import { z } from 'zod';
import { ZAddress, ZDateTime, ZDecimalOut, TX_ID_MAX, errors, merchantAuth } from './common';
import { EVM_NETWORKS, type EvmNetwork } from './network-table';
import { ZCreatedBy } from './order-shape';
import { ZChainId, ZEvmAddress } from './pay';
import { orderErrors, orderWriteErrors } from './shapes';

/** Payouts through the PayoutBatch contract each account deploys once per EVM network. */

export const ZEvmNetwork = z.enum(EVM_NETWORKS as [EvmNetwork, ...EvmNetwork[]]);
export const isEvmNetwork = (network: string): network is EvmNetwork =>
  (EVM_NETWORKS as readonly string[]).includes(network);

/** Call data of a payout transaction: pay() for 500 items is about 96,500 hex digits; a deployment about 2,000. */
export const ZPayoutCallData = z
  .string()
  .max(100_000)
  .regex(/^0x([0-9a-fA-F]{2})*$/);

export const ZPayoutBatchContract = z
  .object({
    network: ZEvmNetwork,
    status: z
      .enum(['NONE', 'VERIFIED'])
      .describe('VERIFIED: deployed by the paying wallet and its code checked on chain; NONE: not yet'),
    address: ZAddress.nullable().describe('The contract, read from the deployment receipt'),
    deployTxId: z.string().max(TX_ID_MAX).nullable(),
    deployedBy: ZAddress.nullable().describe('The wallet that deployed it (the paying wallet then)'),
    verifiedAt: ZDateTime.nullable(),
    reportedBy: ZCreatedBy.describe(
      'Who reported the deployment: `{memberId, email}`, `{apiKeyId}`, or null (none yet, or reported before this was kept)',
    ),
  })
  .describe("An account's PayoutBatch contract on one EVM network");
export type PayoutBatchContract = z.infer<typeof ZPayoutBatchContract>;

export const ZPayoutBatchDeployment = z.object({
  network: ZEvmNetwork,
  from: ZAddress.describe("The paying wallet (the account's first wallet on the network): it signs"),
  transaction: z
    .object({
      chainId: ZChainId,
      data: ZPayoutCallData.describe('The creation bytecode of PayoutBatch.sol (a transaction without `to`)'),
      value: z.literal('0'),
    })
    .describe('Unsigned; send it without `to`'),
  feeEstimate: ZDecimalOut.describe("In the network's native unit"),
});
export type PayoutBatchDeployment = z.infer<typeof ZPayoutBatchDeployment>;

export const ZEvmPayoutCall = z.object({
  chainId: ZChainId,
  to: ZEvmAddress.describe('The token contract (transfer, approve) or the batch contract (pay)'),
  data: ZPayoutCallData.describe(
    "ERC-20 transfer(to, amount) followed by the item's 32-byte tag; approve(batch, total); or the batch's pay(token, to[], amounts[], tags[])",
  ),
  value: z.literal('0'),
});

export const payoutBatchRoutes = {
  batchContracts: {
    method: 'GET',
    path: '/payouts/batch-contracts',
    summary: "The account's PayoutBatch contract on each EVM network that is on",
    description:
      'One entry per EVM network: VERIFIED with its address once a deployment by the paying wallet was reported and checked on chain, else NONE.',
    metadata: merchantAuth('payouts:read', 'payouts:read'),
    responses: { 200: z.object({ items: z.array(ZPayoutBatchContract).max(100) }), ...orderErrors },
  },
  deployBatchContract: {
    method: 'POST',
    path: '/payouts/batch-contracts',
    summary: 'The unsigned deployment of the PayoutBatch contract for the paying wallet',
    description:
      "The creation bytecode of the contract the project ships (server/chains/evm/payout-batch/PayoutBatch.sol), to send from the account's first wallet on the network, with its fee; then report the transaction with POST /payouts/batch-contracts/{network}. 409 without a wallet on the network.",
    metadata: merchantAuth('payouts:write', 'payouts:write'),
    body: z.object({ network: ZEvmNetwork }).strict(),
    responses: { 200: ZPayoutBatchDeployment, ...orderWriteErrors, ...errors('UPSTREAM_UNAVAILABLE') },
  },
  reportBatchContract: {
    method: 'POST',
    path: '/payouts/batch-contracts/:network',
    summary: 'Report the deployment of the PayoutBatch contract',
    description:
      "Recorded only as the chain says: the deployment final and successful, sent by the paying wallet, and the code at the address its receipt names exactly the artifact's runtime code; otherwise a 400 naming `body.txId` (another wallet's transaction, a contract with other code, no deployment at all). 409 while it is not final yet: report it again. A new deployment replaces the one recorded.",
    metadata: merchantAuth('payouts:write', 'payouts:write'),
    pathParams: z.object({ network: ZEvmNetwork }),
    body: z.object({ txId: z.string().trim().min(1).max(TX_ID_MAX) }).strict(),
    responses: { 200: ZPayoutBatchContract, ...orderWriteErrors, ...errors('UPSTREAM_UNAVAILABLE') },
  },
} as const;
