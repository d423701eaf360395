/**
 * Shapes several parts of the contract share, written once: the pages of a list, the per-order
 * lists, the path and header of order routes, and the error lists routes have in common.
 */
import { z } from 'zod';
import { ZReference, errors } from './common';

export const MAX_PER_PAGE = 50;
/** Page mode goes this deep at most (cursor mode has no such end). */
export const MAX_PAGE = 100000;

/** Opaque page cursors: base64url, as the API writes them. */
export const ZCursor = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]*$/, 'is not a cursor returned by this API');

/** The page size of every list. */
export const ZPerPage = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PER_PAGE)
  .optional()
  .describe('Items per page (default 20, max 50)');

/** The query of a list in cursor mode: `per_page` and `cursor` (described by the list). */
export const cursorQuery = (cursor: string) => ({
  per_page: ZPerPage,
  cursor: ZCursor.optional().describe(cursor),
});

const pageItems = <T extends z.ZodTypeAny>(item: T, items = 'Newest first') =>
  z.array(item).max(MAX_PER_PAGE).describe(items);
const ZPageSize = z.number().int().min(1).max(MAX_PER_PAGE);

/** Page mode: `{items, page, per_page, total}`, `total` counting the items of every page. */
export const numberedPage = <T extends z.ZodTypeAny>(item: T, text: { items?: string; total: string }) =>
  z.object({
    items: pageItems(item, text.items),
    page: z.number().int().min(1).max(MAX_PAGE),
    per_page: ZPageSize,
    total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe(text.total),
  });

/** Cursor mode: `{items, per_page, nextCursor}`, the same cost at any depth. */
export const cursorPage = <T extends z.ZodTypeAny>(
  item: T,
  text: { items?: string; nextCursor?: string } = {},
) =>
  z.object({
    items: pageItems(item, text.items),
    per_page: ZPageSize,
    nextCursor: ZCursor.nullable().describe(
      text.nextCursor ?? 'Pass as `cursor` for the next page; null on the last page',
    ),
  });

/** The most items a per-order list answers (oldest first): payments, refunds, deliveries, audit. */
export const MAX_ORDER_LIST_ITEMS = 1000;
/** A per-order list: `{items}`, oldest first, the first MAX_ORDER_LIST_ITEMS. */
export const orderList = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    items: z
      .array(item)
      .max(MAX_ORDER_LIST_ITEMS)
      .describe(`Oldest first; the first ${MAX_ORDER_LIST_ITEMS}`),
  });

export const ZReferenceParams = z.object({ reference: ZReference.describe('The order reference') });

export const ZIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('Same key and body within 24 h returns the first response; a different body is a 409'),
});

/** Any merchant route: no or a bad credential (401), an API key without the route's scope (403). */
export const merchantErrors = errors('UNAUTHENTICATED', 'FORBIDDEN');
/** A merchant route on one of its orders (or another thing its path names): 404 as well. */
export const orderErrors = errors('UNAUTHENTICATED', 'FORBIDDEN', 'NOT_FOUND');
/** A write on one of the merchant's orders: its body checked (400, 413), its state may refuse (409). */
export const orderWriteErrors = errors(
  'VALIDATION_ERROR',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
);
/** A public route on an order reference or a refund id: 404 for an unknown one. */
export const publicLookupErrors = errors('NOT_FOUND');
