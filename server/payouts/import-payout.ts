import {
  PAYOUT_CSV_COLUMNS,
  PAYOUT_ITEMS_MAX,
  ZPayoutItemInput,
  type ImportPayoutBody,
  type Payout as PayoutBody,
  type PayoutItemInput,
} from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError, zodDetails, type ErrorDetail } from '../errors';
import { CsvSyntaxError, parseCsv } from '../lib/parse-csv';
import { createPayout } from './create-payout';
import type { PayoutActor } from './payout-audit';

type Column = (typeof PAYOUT_CSV_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['network', 'token', 'to', 'amount'];
const PREFIX = 'items';

/**
 * POST /payouts/import: a CSV's data rows become the items of one batch made as POST /payouts makes
 * it. Each row is first given the shape of an item (the contract's own item schema), then the rows
 * that have it are checked against the chains by createPayout; every problem of either kind is in one
 * 400, named `items.N.field` with N the data row (from 0), so a merchant fixes the file once.
 */
export async function importPayout(
  deps: Deps,
  input: { merchant: MerchantRow; actor: NonNullable<PayoutActor>; body: ImportPayoutBody },
): Promise<PayoutBody> {
  const [header = [], ...rows] = readCsv(input.body.csv);
  const columns = columnsOf(header);
  if (rows.length === 0) throw csvProblem('has no data rows under its header');
  if (rows.length > PAYOUT_ITEMS_MAX)
    throw csvProblem(`has ${rows.length} data rows: at most ${PAYOUT_ITEMS_MAX} make a batch`);
  const problems: ErrorDetail[] = [];
  const items: PayoutItemInput[] = [];
  const positions: number[] = [];
  rows.forEach((row, n) => {
    if (row.length > columns.length)
      return problems.push({
        path: `${PREFIX}.${n}`,
        message: `has ${row.length} fields, the header ${columns.length}`,
      });
    const missing = REQUIRED.filter((column) => (row[columns.indexOf(column)] ?? '') === '');
    for (const column of missing) problems.push({ path: `${PREFIX}.${n}.${column}`, message: 'is missing' });
    if (missing.length > 0) return;
    // An empty optional field is no value, as an absent JSON field is.
    const fields = columns.flatMap((column, i) => (row[i] ? [[column, row[i]] as const] : []));
    const item = ZPayoutItemInput.safeParse(Object.fromEntries(fields));
    if (!item.success) return problems.push(...zodDetails(item.error, `${PREFIX}.${n}`));
    items.push(item.data);
    positions.push(n);
  });
  return createPayout(deps, {
    merchant: input.merchant,
    actor: input.actor,
    body: { items, description: input.body.description },
    paths: { prefix: PREFIX, positions, problems },
  });
}

function readCsv(text: string): string[][] {
  try {
    return parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw csvProblem(`cannot be read: ${error.message}`);
    throw error;
  }
}

/** The header's columns: the known ones, each once, the required ones all there (any order). */
function columnsOf(header: readonly string[]): Column[] {
  const names = header.map((name) => name.trim().toLowerCase());
  const unknown = names.filter((name) => !(PAYOUT_CSV_COLUMNS as readonly string[]).includes(name));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  const absent = REQUIRED.filter((column) => !names.includes(column));
  if (unknown.length > 0 || twice.length > 0 || absent.length > 0)
    throw csvProblem(
      `needs the header ${PAYOUT_CSV_COLUMNS.join(',')} (reference and note may be left out)${
        unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''
      }${twice.length > 0 ? `; twice: ${twice.join(', ')}` : ''}${
        absent.length > 0 ? `; missing: ${absent.join(', ')}` : ''
      }`,
    );
  return names as Column[];
}

const csvProblem = (message: string) => ApiError.validation(`The CSV ${message}`, [{ path: 'csv', message }]);
