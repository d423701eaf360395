import type { z } from 'zod';
import type { ZOrderCursorPage, ZOrderPage } from '../contract';
import { listOrders } from '../server/orders/list-orders';
import { insertOrders, sqlCount } from './fixtures';
import { progress } from './lib/progress';
import { interleaved, sequential, timed, type Case, type Report } from './measure';
import { SIZES } from './settings';
import type { Ctx } from './stack';

type CursorPage = z.infer<typeof ZOrderCursorPage>;
type NumberedPage = z.infer<typeof ZOrderPage>;

type Listing = {
  byCursor(cursor: string): Promise<{ items: unknown[]; nextCursor?: string | null }>;
  byNumber(page: number): Promise<{ items: unknown[] }>;
};

/**
 * GET /users/me/orders over a merchant with SIZES.listingOrders orders: a cursor walk, then the
 * first and deep pages by cursor and by number, over HTTP and as the in-process service call.
 */
export async function benchListing(ctx: Ctx, report: Report, template: string): Promise<void> {
  progress('GET /users/me/orders');
  await addPastOrders(ctx, report, template);
  const http = listingOverHttp(ctx);
  for (let i = 0; i < SIZES.warmUp; i++) await http.byCursor('');
  // cursors[k - 1] fetches page k.
  const cursors = [''];
  report.rows.push(
    await sequential(`cursor walk, pages 1-${SIZES.cursorWalkPages}`, SIZES.cursorWalkPages, () =>
      nextCursorPage(http, cursors),
    ),
  );
  while (cursors.length < SIZES.deepPage) await nextCursorPage(http, cursors);

  const { cursorWalkPages, deepPage } = SIZES;
  const cases = [
    ...pageCases('GET', http, cursors, [1, cursorWalkPages, deepPage]),
    ...pageCases('listOrders()', await listingInProcess(ctx), cursors, [1, deepPage]),
  ];
  report.rows.push(...(await interleaved(cases, SIZES.pageRepeats)));
  report.notes.push(
    `listing: per_page ${SIZES.perPage}; the page rows are taken in turn, ${SIZES.pageRepeats} rounds; ` +
      'listOrders() is the same service call in-process (no HTTP, no response validation)',
  );
}

/** Past orders of `template`'s merchant, inserted in one statement, up to SIZES.listingOrders. */
async function addPastOrders(ctx: Ctx, report: Report, template: string): Promise<void> {
  const existing = await sqlCount(ctx, 'SELECT count(*)::int AS n FROM orders');
  const toInsert = Math.max(0, SIZES.listingOrders - existing);
  const insert = await timed(() =>
    insertOrders(ctx, { template, count: toInsert, status: 'EXPIRED', baseUnits: 1_000_000n }),
  );
  report.notes.push(
    `listing: ${toInsert} past orders added with one INSERT … SELECT generate_series, then ANALYZE (${insert.ms.toFixed(0)} ms); ` +
      `the merchant has ${existing + toInsert}`,
  );
}

/** The page cases of one way of listing: `cursorPages` by cursor, then the first and deep page by number. */
function pageCases(via: string, list: Listing, cursors: string[], cursorPages: number[]): Case[] {
  const byCursor = (page: number): Case => ({
    name: `${via} cursor page ${page}`,
    op: async () => expectFull((await list.byCursor(cursors[page - 1] ?? '')).items),
  });
  const byNumber = (page: number): Case => ({
    name: `${via} page=${page}`,
    op: async () => expectFull((await list.byNumber(page)).items),
  });
  return [...cursorPages.map(byCursor), byNumber(1), byNumber(SIZES.deepPage)];
}

function listingOverHttp(ctx: Ctx): Listing {
  const list = <T>(query: string) =>
    ctx.api.json<T>('GET', `/users/me/orders?per_page=${SIZES.perPage}&${query}`, { token: ctx.token });
  return {
    byCursor: (cursor) => list<CursorPage>(`cursor=${encodeURIComponent(cursor)}`),
    byNumber: (page) => list<NumberedPage>(`page=${page}`),
  };
}

/** The service call behind the route, in this process. */
async function listingInProcess(ctx: Ctx): Promise<Listing> {
  const merchant = await ctx.server.deps.db.models.Merchant.findByPk(ctx.merchantId);
  if (!merchant) throw new Error('the merchant is gone');
  const perPage = SIZES.perPage;
  return {
    byCursor: (cursor) => listOrders(ctx.server.deps, merchant, { per_page: perPage, cursor }),
    byNumber: (page) => listOrders(ctx.server.deps, merchant, { per_page: perPage, page }),
  };
}

/** Fetches the page after the last cursor known and keeps the cursor it returns. */
async function nextCursorPage(listing: Listing, cursors: string[]): Promise<void> {
  const page = await listing.byCursor(cursors[cursors.length - 1] ?? '');
  expectFull(page.items);
  if (!page.nextCursor) throw new Error(`the cursor walk ended at page ${cursors.length}`);
  cursors.push(page.nextCursor);
}

function expectFull(items: unknown[]): void {
  if (items.length !== SIZES.perPage)
    throw new Error(`a page has ${items.length} orders, not ${SIZES.perPage}`);
}
