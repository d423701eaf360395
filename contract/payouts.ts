import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  ADDRESS_MAX,
  DESCRIPTION_MAX,
  ZAddress,
  ZDateTime,
  ZDecimalOut,
  ZNetwork,
  ZToken,
  ZTokenDecimals,
  ZTxId,
  TX_ID_MAX,
  errors,
  merchantAuth,
} from './common';
import { cursorPage, cursorQuery, orderErrors, orderWriteErrors } from './shapes';
import { ZBase64Transaction } from './pay';
import { payoutBatchRoutes, ZEvmPayoutCall } from './payout-batch';

const c = initContract();

/** Most items of one batch. */
export const PAYOUT_ITEMS_MAX = 500;
const REFERENCE_MAX = 100;
const NOTE_MAX = 500;

export const PAYOUT_STATUSES = [
  'DRAFT',
  'APPROVED',
  'SENDING',
  'COMPLETED',
  'PARTIAL',
  'FAILED',
  'CANCELED',
] as const;
export const ZPayoutStatus = z
  .enum(PAYOUT_STATUSES)
  .describe(
    'DRAFT (waiting for approval) -> APPROVED (its transactions can be fetched and sent) -> SENDING (one reported) -> COMPLETED (every item CONFIRMED) / PARTIAL (some CONFIRMED, some FAILED) / FAILED (every item FAILED); CANCELED from DRAFT or APPROVED',
  );
export type PayoutStatus = z.infer<typeof ZPayoutStatus>;

export const PAYOUT_ITEM_STATUSES = ['PENDING', 'SENT', 'CONFIRMED', 'FAILED'] as const;
export const ZPayoutItemStatus = z
  .enum(PAYOUT_ITEM_STATUSES)
  .describe(
    'PENDING -> SENT (a transaction was reported) -> CONFIRMED (its transfer verified and final) / FAILED (a final transaction that pays something else, or none by the deadline)',
  );
export type PayoutItemStatus = z.infer<typeof ZPayoutItemStatus>;

/** Payout ids are random: `po_` and 32 hex digits; items `pi_` and 32 hex digits. */
export const PAYOUT_ID_PATTERN = /^po_[0-9a-f]{32}$/;
export const PAYOUT_ITEM_ID_PATTERN = /^pi_[0-9a-f]{32}$/;
const ZPayoutId = z.string().max(35).regex(PAYOUT_ID_PATTERN);
const ZPayoutItemId = z.string().max(35).regex(PAYOUT_ITEM_ID_PATTERN);
export const ZPayoutParams = z.object({
  id: z
    .string()
    .max(35)
    .regex(PAYOUT_ID_PATTERN, 'must be a payout id (po_ and 32 hex digits)')
    .describe('The payout id (po_ and 32 hex digits)'),
});

/** An amount as a payout takes it: exact in the token's decimals (up to 18), checked by the server. */
const ZPayoutAmount = z
  .string()
  .max(60)
  .regex(/^(0|[1-9]\d{0,29})(\.\d{1,18})?$/, 'must be a decimal string, e.g. "12.5"')
  .describe(
    "Token units, at most as many decimal places as the token has on the network (18 for BSC's USDT)",
  );

export const ZPayoutItemInput = z
  .object({
    network: ZNetwork,
    token: ZToken,
    to: z.string().trim().min(1).max(ADDRESS_MAX).describe('The recipient, an address of that network'),
    amount: ZPayoutAmount,
    reference: z.string().trim().min(1).max(REFERENCE_MAX).optional().describe('Yours, kept with the item'),
    note: z.string().trim().min(1).max(NOTE_MAX).optional().describe('Yours, kept with the item'),
  })
  .strict();
export type PayoutItemInput = z.infer<typeof ZPayoutItemInput>;

export const ZCreatePayoutBody = z
  .object({
    items: z.array(ZPayoutItemInput).min(1).max(PAYOUT_ITEMS_MAX),
    description: z.string().trim().min(1).max(DESCRIPTION_MAX).optional(),
  })
  .strict();
export type CreatePayoutBody = z.infer<typeof ZCreatePayoutBody>;

/** The columns of a payout CSV, in this order in the header (reference and note may be left out). */
export const PAYOUT_CSV_COLUMNS = ['network', 'token', 'to', 'amount', 'reference', 'note'] as const;
/** Room for 500 rows with references and short notes; the request's own limit (100 kB) binds first. */
const PAYOUT_CSV_MAX = 100_000;

/** The columns of GET /payouts/{id}.csv, one row per item. */
export const PAYOUT_CSV_EXPORT_HEADER = [
  'item_id',
  'network',
  'token',
  'to',
  'amount',
  'reference',
  'note',
  'status',
  'tx_id',
  'failure_reason',
  'confirmed_at',
] as const;

export const ZImportPayoutBody = z
  .object({
    csv: z
      .string()
      .min(1)
      .max(PAYOUT_CSV_MAX)
      .describe(
        `RFC 4180 text: a header \`${PAYOUT_CSV_COLUMNS.join(',')}\` (reference and note optional), then one item per row (at most ${PAYOUT_ITEMS_MAX}); quoted fields may hold commas, quotes ("") and line breaks`,
      ),
    description: z.string().trim().min(1).max(DESCRIPTION_MAX).optional(),
  })
  .strict();
export type ImportPayoutBody = z.infer<typeof ZImportPayoutBody>;

export const ZPayoutItem = z
  .object({
    id: ZPayoutItemId.describe('pi_…'),
    network: ZNetwork,
    token: ZToken,
    decimals: ZTokenDecimals.describe("The token's base-unit decimals on the network"),
    to: ZAddress,
    amount: ZDecimalOut,
    reference: z.string().max(REFERENCE_MAX).nullable(),
    note: z.string().max(NOTE_MAX).nullable(),
    status: ZPayoutItemStatus,
    txId: ZTxId.nullable().describe('The transaction reported (SENT) or verified (CONFIRMED)'),
    failureReason: z.string().max(500).nullable(),
    confirmedAt: ZDateTime.nullable(),
  })
  .describe('One transfer of a payout');
export type PayoutItem = z.infer<typeof ZPayoutItem>;

const ZPayoutApproval = z.object({
  memberId: z.string().uuid().max(36),
  at: ZDateTime,
});

export const ZPayoutSummary = z.object({
  id: ZPayoutId.describe('po_…'),
  status: ZPayoutStatus,
  description: z.string().max(DESCRIPTION_MAX).nullable(),
  itemCount: z.number().int().min(0).max(PAYOUT_ITEMS_MAX),
  createdBy: z.string().uuid().max(36).describe('The member who made it'),
  approvalsRequired: z.number().int().min(1).max(2),
  approvals: z.array(ZPayoutApproval).max(2).describe('Who approved it, and when'),
  approvedAt: ZDateTime.nullable(),
  deadlineAt: ZDateTime.nullable().describe('Items without a final transfer by then are FAILED'),
  createdAt: ZDateTime,
  updatedAt: ZDateTime,
});
export const ZPayout = ZPayoutSummary.extend({
  items: z.array(ZPayoutItem).max(PAYOUT_ITEMS_MAX),
}).describe("A batch of transfers from the merchant's own wallets");
export type Payout = z.infer<typeof ZPayout>;
export type PayoutSummary = z.infer<typeof ZPayoutSummary>;

export const ZPayoutPage = cursorPage(ZPayoutSummary).describe('A cursor page of payouts (without items)');

export const ZEvmPayoutTransaction = ZEvmPayoutCall;

export const ZPayoutTransaction = z.object({
  network: ZNetwork,
  from: ZAddress.describe('The paying wallet: the account’s first wallet on the network; it signs'),
  items: z
    .array(ZPayoutItemId)
    .min(1)
    .max(PAYOUT_ITEMS_MAX)
    .describe('The items it pays (an approve: those the pay() after it pays)'),
  purpose: z
    .enum(['pay', 'approve'])
    .describe(
      'approve: the allowance the batch contract call after it spends; send it first and wait for it (it pays nothing itself). pay: it pays its items',
    ),
  transaction: z
    .union([ZBase64Transaction, ZEvmPayoutTransaction])
    .describe('Solana: base64, the paying wallet the fee payer; EVM: {chainId, to, data, value}'),
  feeEstimate: ZDecimalOut.describe("What sending it costs, in the network's native unit (SOL, POL, BNB…)"),
});
export type PayoutTransaction = z.infer<typeof ZPayoutTransaction>;

export const ZReportPayoutTxBody = z
  .object({ network: ZNetwork, txId: z.string().trim().min(1).max(TX_ID_MAX) })
  .strict();

export const payoutsContract = c.router(
  {
    create: {
      method: 'POST',
      path: '/payouts',
      summary: "Make a batch of transfers from the merchant's own wallets (DRAFT)",
      description: `Up to ${PAYOUT_ITEMS_MAX} items. Each is checked: an address of its network, its token on there, an amount above zero exact in the token's decimals; every bad one is named in the 400 (\`body.items.N.field\`). The batch is DRAFT until approved.`,
      metadata: merchantAuth('payouts:write', 'payouts:write'),
      body: ZCreatePayoutBody,
      responses: { 201: ZPayout, ...orderWriteErrors },
    },
    importCsv: {
      method: 'POST',
      path: '/payouts/import',
      summary: 'Make a batch from a CSV (DRAFT), as POST /payouts does',
      description: `The CSV text in \`csv\` (the dashboard's upload sends a file's text). Each data row is an item, checked as POST /payouts checks one; every bad one is named in the 400 as \`items.N.field\`, N counting data rows from 0 (a row short of fields names each missing one); a header or quoting that cannot be read is named \`csv\`. The batch is DRAFT until approved.`,
      metadata: merchantAuth('payouts:write', 'payouts:write'),
      body: ZImportPayoutBody,
      responses: { 201: ZPayout, ...orderWriteErrors },
    },
    list: {
      method: 'GET',
      path: '/payouts',
      summary: 'List payouts, newest first (cursor pages)',
      description:
        'Cursor pages (`per_page` up to 50, `cursor` from the previous `nextCursor`), without items.',
      metadata: merchantAuth('payouts:read', 'payouts:read'),
      query: z.object({
        ...cursorQuery('Empty or absent to start, then the previous nextCursor'),
        status: ZPayoutStatus.optional(),
      }),
      responses: { 200: ZPayoutPage, ...errors('VALIDATION_ERROR'), ...orderErrors },
    },
    // Before `get`, which would take `batch-contracts` for an id (and refuse it).
    ...payoutBatchRoutes,
    // Before `get`: its path would take `po_….csv` for an id (and refuse it).
    exportCsv: {
      method: 'GET',
      path: '/payouts/:id.csv',
      summary: "CSV of a payout's items: status, transaction, exact amounts",
      description: `One row per item in the batch's order: \`${PAYOUT_CSV_EXPORT_HEADER.join(',')}\`; amounts as decimal strings in the token's decimals, times in ISO 8601 (UTC). The item's own text (reference, note) that a spreadsheet would run as a formula is prefixed with an apostrophe.`,
      metadata: merchantAuth('payouts:read', 'payouts:read'),
      pathParams: ZPayoutParams,
      responses: {
        200: c.otherResponse({
          contentType: 'text/csv; charset=utf-8',
          body: z.string().max(PAYOUT_ITEMS_MAX * 2_000),
        }),
        ...orderErrors,
      },
    },
    get: {
      method: 'GET',
      path: '/payouts/:id',
      summary: 'One payout with its items',
      description: "404 for an unknown one or another account's.",
      metadata: merchantAuth('payouts:read', 'payouts:read'),
      pathParams: ZPayoutParams,
      responses: { 200: ZPayout, ...orderErrors },
    },
    approve: {
      method: 'POST',
      path: '/payouts/:id/approve',
      summary: 'Approve a DRAFT payout',
      description:
        'By a member with payouts:approve. When the account asks for two approvals (`payoutApprovals: 2`), the creator and another member: the creator approving alone, or anyone twice, is a 409. APPROVED once enough members approved; its deadline runs from then.',
      metadata: merchantAuth('payouts:approve', 'payouts:approve'),
      pathParams: ZPayoutParams,
      body: c.noBody(),
      responses: { 200: ZPayout, ...orderWriteErrors },
    },
    cancel: {
      method: 'POST',
      path: '/payouts/:id/cancel',
      summary: 'Cancel a DRAFT or APPROVED payout',
      description: '409 once a transaction was reported (SENDING) or it is settled.',
      metadata: merchantAuth('payouts:write', 'payouts:write'),
      pathParams: ZPayoutParams,
      body: c.noBody(),
      responses: { 200: ZPayout, ...orderWriteErrors },
    },
    transactions: {
      method: 'GET',
      path: '/payouts/:id/transactions',
      summary: 'The unsigned transactions that pay an APPROVED payout',
      description:
        "For the paying wallet of each network (the account's first wallet there): Solana, as few transactions as the size limit allows (several transfers each, creating a recipient's missing token account, the paying wallet the fee payer); EVM, one ERC-20 transfer per item, or with `batch=true` and a verified PayoutBatch contract on the network an approve of the contract for each token's total and one pay() for all its items (sign and send them in order, the approve mined first). Each with its fee estimate. 409 unless APPROVED (or SENDING, for the items not yet sent).",
      metadata: merchantAuth('payouts:read', 'payouts:read'),
      pathParams: ZPayoutParams,
      query: z.object({
        batch: z
          .enum(['true', 'false'])
          .optional()
          .describe(
            "true: on each EVM network where the account's PayoutBatch contract is VERIFIED, an approve and one pay() per token instead of one transfer per item",
          ),
      }),
      responses: {
        200: z.object({ transactions: z.array(ZPayoutTransaction).max(PAYOUT_ITEMS_MAX) }),
        ...orderWriteErrors,
        ...errors('UPSTREAM_UNAVAILABLE'),
      },
    },
    report: {
      method: 'POST',
      path: '/payouts/:id/transactions',
      summary: 'Report a transaction sent for a payout',
      description:
        'The items on that network not yet confirmed become SENT with it; the verifier reads it on chain: each item it pays exactly (token, from the paying wallet, to, amount) is CONFIRMED once final, the others FAILED when it is final and pays them otherwise. 409 unless APPROVED or SENDING.',
      metadata: merchantAuth('payouts:write', 'payouts:write'),
      pathParams: ZPayoutParams,
      body: ZReportPayoutTxBody,
      responses: { 200: ZPayout, ...orderWriteErrors },
    },
  },
  { strictStatusCodes: true },
);
