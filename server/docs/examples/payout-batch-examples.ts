import type { OperationExamples } from './more-fixtures';

const contract = {
  network: 'POLYGON',
  status: 'VERIFIED',
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  deployTxId: '0x3c1f6e1e0b8d6f1a6a9f2f4d1f0b7b0e7c1a9d2e4f6b8a0c2e4f6a8b0c2d4e6f',
  deployedBy: '0x52908400098527886E0F7030069857D2E4169EE7',
  verifiedAt: '2026-11-29T14:05:00.000Z',
  reportedBy: { memberId: '6f1c2b9e-8a4d-4f3b-9c2e-1d5a7b3c9e01', email: 'shop@example.com' },
} as const;

/** Examples of the PayoutBatch contract routes (contract/payout-batch.ts). */
export const PAYOUT_BATCH_EXAMPLES: Record<string, OperationExamples> = {
  'payouts.batchContracts': {
    responses: {
      200: {
        items: [
          contract,
          {
            network: 'BSC',
            status: 'NONE',
            address: null,
            deployTxId: null,
            deployedBy: null,
            verifiedAt: null,
            reportedBy: null,
          },
        ],
      },
    },
  },
  'payouts.deployBatchContract': {
    request: { network: 'POLYGON' },
    responses: {
      200: {
        network: 'POLYGON',
        from: contract.deployedBy,
        // The whole creation bytecode of PayoutBatch.sol, shortened here.
        transaction: { chainId: 137, data: '0x6080604052348015600e575f5ffd5b50', value: '0' },
        feeEstimate: '0.009120',
      },
    },
  },
  'payouts.reportBatchContract': {
    request: { txId: contract.deployTxId },
    responses: { 200: contract },
  },
};
