import { initServer } from '@ts-rest/express';
import { payoutsContract } from '../../contract';
import type { Deps } from '../deps';
import { csvAnswer } from '../http/csv-answer';
import { callerOf, currentMerchant } from '../http/current-merchant';
import { approvePayout } from './approve-payout';
import { cancelPayout } from './cancel-payout';
import { createPayout } from './create-payout';
import { deployBatchContract } from './deploy-batch-contract';
import { exportPayout } from './export-payout';
import { findPayout } from './find-payout';
import { importPayout } from './import-payout';
import { listBatchContracts } from './list-batch-contracts';
import { listPayouts } from './list-payouts';
import { payoutTransactions } from './payout-transactions';
import { presentPayout } from './present-payout';
import { reportBatchContract } from './report-batch-contract';
import { reportPayoutTransaction } from './report-payout-transaction';

export function payoutsRouter(deps: Deps) {
  return initServer().router(payoutsContract, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await createPayout(deps, { merchant: currentMerchant(req), actor: callerOf(req), body }),
    }),
    importCsv: async ({ req, body }) => ({
      status: 201,
      body: await importPayout(deps, { merchant: currentMerchant(req), actor: callerOf(req), body }),
    }),
    list: async ({ req, query }) => ({
      status: 200,
      body: await listPayouts(deps, currentMerchant(req).id, query),
    }),
    // Before `get`, which would take `batch-contracts` for a payout id.
    batchContracts: async ({ req }) => ({
      status: 200,
      body: await listBatchContracts(deps, currentMerchant(req).id),
    }),
    deployBatchContract: async ({ req, body }) => ({
      status: 200,
      body: await deployBatchContract(deps, { merchantId: currentMerchant(req).id, network: body.network }),
    }),
    reportBatchContract: async ({ req, params, body }) => ({
      status: 200,
      body: await reportBatchContract(deps, {
        merchantId: currentMerchant(req).id,
        network: params.network,
        txId: body.txId,
      }),
    }),
    exportCsv: async ({ req, res, params }) =>
      csvAnswer(
        deps,
        res,
        `${params.id}.csv`,
        await exportPayout(deps, { merchantId: currentMerchant(req).id, id: params.id }),
      ),
    get: async ({ req, params }) => ({
      status: 200,
      body: await presentPayout(
        deps,
        await findPayout(deps, { id: params.id, merchantId: currentMerchant(req).id }),
      ),
    }),
    approve: async ({ req, params }) => ({
      status: 200,
      body: await approvePayout(deps, {
        merchantId: currentMerchant(req).id,
        id: params.id,
        actor: callerOf(req),
      }),
    }),
    cancel: async ({ req, params }) => ({
      status: 200,
      body: await cancelPayout(deps, {
        merchantId: currentMerchant(req).id,
        id: params.id,
        actor: callerOf(req),
      }),
    }),
    transactions: async ({ req, params, query }) => ({
      status: 200,
      body: await payoutTransactions(deps, {
        merchantId: currentMerchant(req).id,
        id: params.id,
        batch: query.batch === 'true',
      }),
    }),
    report: async ({ req, params, body }) => ({
      status: 200,
      body: await reportPayoutTransaction(deps, {
        merchantId: currentMerchant(req).id,
        id: params.id,
        network: body.network,
        txId: body.txId,
        actor: callerOf(req),
      }),
    }),
  });
}
