import type { ClientInferRequest } from '@ts-rest/core';
import { byId, everyMatch, segment, success, type ClientContext, type Contract } from './core';
import type {
  CreatePayoutParams,
  ImportPayoutParams,
  ListAllPayoutsQuery,
  ListPayoutsQuery,
  Payout,
  PayoutBatchContract,
  PayoutBatchDeployment,
  PayoutPage,
  PayoutSummary,
  PayoutTransaction,
  ReportPayoutTxParams,
} from './types';

export interface PayoutBatchContractsApi {
  /** GET /payouts/batch-contracts: each EVM network's contract, VERIFIED with its address or NONE. */
  list(): Promise<PayoutBatchContract[]>;
  /** POST /payouts/batch-contracts: the unsigned deployment for your paying wallet on `network`. */
  deployment(network: PayoutBatchContract['network']): Promise<PayoutBatchDeployment>;
  /** Recorded only when the chain shows your paying wallet deployed PayoutBatch's exact code. */
  report(network: PayoutBatchContract['network'], txId: string): Promise<PayoutBatchContract>;
}

export interface PayoutsApi {
  /**
   * POST /payouts: a DRAFT batch of up to 500 transfers from your own wallets; every bad item is
   * named in the ValidationError (`body.items.N.field`). Never retried on an unknown outcome.
   */
  create(body: CreatePayoutParams): Promise<Payout>;
  /**
   * POST /payouts/import: the same batch from a CSV's text (header
   * `network,token,to,amount,reference,note`); every bad row is named `items.N.field`, N the
   * data row from 0. Never retried on an unknown outcome.
   */
  importCsv(csv: string, opts?: ImportPayoutParams): Promise<Payout>;
  /** GET /payouts: one page, newest first, without items; pass `nextCursor` back as `cursor`. */
  list(query?: ListPayoutsQuery): Promise<PayoutPage>;
  /** Every payout matching the filters, newest first, across cursor pages of 50. */
  listAll(query?: ListAllPayoutsQuery): AsyncGenerator<PayoutSummary, void, undefined>;
  /** GET /payouts/{id}: the batch with its items. */
  get(id: string): Promise<Payout>;
  /**
   * POST /payouts/{id}/approve: APPROVED once enough members approved (ConflictError for the
   * creator when the account asks for two, or when not DRAFT).
   */
  approve(id: string): Promise<Payout>;
  /** POST /payouts/{id}/cancel: a DRAFT or APPROVED batch (ConflictError once one was reported). */
  cancel(id: string): Promise<Payout>;
  /**
   * GET /payouts/{id}/transactions: the unsigned transactions for your paying wallets, with fees;
   * `batch: true` pays each EVM network with a verified PayoutBatch contract by approve + pay().
   */
  transactions(id: string, opts?: { batch?: boolean }): Promise<PayoutTransaction[]>;
  /** Your PayoutBatch contract per EVM network: list, the deployment to sign, its report. */
  batchContracts: PayoutBatchContractsApi;
  /** POST /payouts/{id}/transactions: report one you sent; the items it pays are verified on chain. */
  report(id: string, body: ReportPayoutTxParams): Promise<Payout>;
  /** GET /payouts/{id}.csv: the items with status, transaction and exact amounts, as CSV text. */
  csv(id: string): Promise<string>;
}

type ListPayoutsArgs = ClientInferRequest<Contract['payouts']['list']>['query'];

export function payoutsApi({ raw }: ClientContext): PayoutsApi {
  const list = async (query: ListPayoutsQuery = {}): Promise<PayoutPage> =>
    success(raw.payouts.list({ query: query satisfies ListPayoutsArgs }));
  return {
    async create(body: CreatePayoutParams): Promise<Payout> {
      return success(raw.payouts.create({ body }));
    },
    async importCsv(csv: string, opts: ImportPayoutParams = {}): Promise<Payout> {
      return success(raw.payouts.importCsv({ body: { ...opts, csv } }));
    },
    list,
    listAll(query: ListAllPayoutsQuery = {}): AsyncGenerator<PayoutSummary, void, undefined> {
      return everyMatch(list, query);
    },
    async get(id: string): Promise<Payout> {
      return success(raw.payouts.get(byId(id)));
    },
    async approve(id: string): Promise<Payout> {
      return success(raw.payouts.approve(byId(id)));
    },
    async cancel(id: string): Promise<Payout> {
      return success(raw.payouts.cancel(byId(id)));
    },
    async transactions(id: string, opts: { batch?: boolean } = {}): Promise<PayoutTransaction[]> {
      const query = opts.batch ? { batch: 'true' as const } : {};
      return (await success(raw.payouts.transactions({ ...byId(id), query }))).transactions;
    },
    batchContracts: {
      async list(): Promise<PayoutBatchContract[]> {
        return (await success(raw.payouts.batchContracts())).items;
      },
      async deployment(network: PayoutBatchContract['network']): Promise<PayoutBatchDeployment> {
        return success(raw.payouts.deployBatchContract({ body: { network } }));
      },
      async report(network: PayoutBatchContract['network'], txId: string): Promise<PayoutBatchContract> {
        return success(raw.payouts.reportBatchContract({ params: { network }, body: { txId } }));
      },
    },
    async report(id: string, body: ReportPayoutTxParams): Promise<Payout> {
      return success(raw.payouts.report({ ...byId(id), body }));
    },
    async csv(id: string): Promise<string> {
      // ts-rest reads `:id.csv` as one parameter named "id.csv": it is given the whole last segment.
      const params = { id: segment(id), 'id.csv': `${segment(id)}.csv` };
      return (await success(raw.payouts.exportCsv({ params }))) as string;
    },
  };
}
