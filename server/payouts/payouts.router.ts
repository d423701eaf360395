import { initServer } from '@ts-rest/express';
import { payoutsContract } from '../../contract';
import type { Deps } from '../deps';
import { csvAnswer } from '../http/csv-answer';
import { callerOf, currentMerchant, ownRow } from '../http/current-merchant';
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
  const ok = <T>(body: T) => ({ status: 200 as const, body });
  /** The caller's payout `id`, and who acts on it. */
  const actOn = (req: { user?: Express.User }, id: string) => ({ ...ownRow(req, id), actor: callerOf(req) });
  return initServer().router(payoutsContract, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await createPayout(deps, { merchant: currentMerchant(req), actor: callerOf(req), body }),
    }),
    importCsv: async ({ req, body }) => ({
      status: 201,
      body: await importPayout(deps, { merchant: currentMerchant(req), actor: callerOf(req), body }),
    }),
    list: async ({ req, query }) => ok(await listPayouts(deps, currentMerchant(req).id, query)),
    // Before `get`, which would take `batch-contracts` for a payout id.
    batchContracts: async ({ req }) => ok(await listBatchContracts(deps, currentMerchant(req).id)),
    deployBatchContract: async ({ req, body }) =>
      ok(await deployBatchContract(deps, { merchantId: currentMerchant(req).id, network: body.network })),
    reportBatchContract: async ({ req, params, body }) =>
      ok(
        await reportBatchContract(deps, {
          merchantId: currentMerchant(req).id,
          network: params.network,
          txId: body.txId,
          by: callerOf(req),
        }),
      ),
    exportCsv: async ({ req, res, params }) =>
      csvAnswer(deps, res, `${params.id}.csv`, await exportPayout(deps, ownRow(req, params.id))),
    get: async ({ req, params }) =>
      ok(await presentPayout(deps, await findPayout(deps, ownRow(req, params.id)))),
    approve: async ({ req, params }) => ok(await approvePayout(deps, actOn(req, params.id))),
    cancel: async ({ req, params }) => ok(await cancelPayout(deps, actOn(req, params.id))),
    transactions: async ({ req, params, query }) =>
      ok(await payoutTransactions(deps, { ...ownRow(req, params.id), batch: query.batch === 'true' })),
    report: async ({ req, params, body }) =>
      ok(
        await reportPayoutTransaction(deps, {
          ...actOn(req, params.id),
          network: body.network,
          txId: body.txId,
        }),
      ),
  });
}
