import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ZReference, isCalendarDate, merchantAuth } from './common';
import { cursorPage, cursorQuery, merchantErrors, orderErrors } from './shapes';
import { EVENT_SCOPES_NOTE, ZEventId, ZEventType, ZWebhookEvent } from './events';

const c = initContract();

/** A bound of the creation-time range: an ISO-8601 time with its offset (`Z` or `+02:00`). */
const ZTimeBound = z
  .string()
  .max(40)
  .datetime({ offset: true, message: 'must be an ISO-8601 time, e.g. 2026-11-22T10:00:00Z' })
  .refine((v) => isCalendarDate(v, 1970), 'must be a date of the calendar, from 1970');

export const ZListEventsQuery = z.object({
  ...cursorQuery("The previous page's nextCursor (with the same filters); empty or absent: the first page"),
  type: ZEventType.optional().describe(
    'Only events of this type; a 403 for a type the API key is not shown (`subscription.*` without subscriptions:read)',
  ),
  order: ZReference.optional().describe('Only the events of this order (its reference)'),
  created_gte: ZTimeBound.optional().describe('Only events created at or after this time'),
  created_lt: ZTimeBound.optional().describe('Only events created before this time'),
  ending_before: ZEventId.optional().describe(
    'Catch up after an event: only the events created after this one (the last id your receiver processed). The page holds the `per_page` events right after it, still newest first; its `nextCursor` goes on toward newer events. Not with a non-empty `cursor`',
  ),
});
export type ListEventsQuery = z.infer<typeof ZListEventsQuery>;

export const ZEventPage = cursorPage(ZWebhookEvent, {
  items: 'Each event exactly as its webhook carries it, newest first',
  nextCursor:
    'Pass as `cursor` (with the same filters) for the next page: older events, or newer ones after `ending_before`; null on the last page',
}).describe("A page of the merchant's events");

export const ZEventIdParams = z.object({ id: ZEventId.describe('The event id (evt_…)') });

export const eventLogContract = c.router(
  {
    list: {
      method: 'GET',
      path: '/events',
      summary: 'List every event emitted for the merchant, newest first',
      description:
        "Every event of the merchant (order, refund and subscription events, test pings) the credential is shown, each exactly as its webhook carries it (the same `id`, `type`, `apiVersion`, `createdAt` and `data`), whether or not a webhook was delivered. Events are kept at least 30 days (EVENT_RETENTION_DAYS), then deleted with their delivery records.\n\nPages are newest first and cost the same at any depth: pass each answer's `nextCursor` back as `cursor`, with the same filters, until it is null. Filter with `type`, `order` (a reference) and the creation time range `created_gte` / `created_lt`.\n\nA receiver that was down catches up with `ending_before=<the last event id it processed>`: the answer holds the events right after that one (still newest first: process them from last to first), and its `nextCursor` leads on to newer events until it is null. An `ending_before` that names no event of the merchant (unknown, or deleted after the retention period) is a 400: what came after it cannot be told exactly. So is a cursor this API did not return, a non-empty cursor with `ending_before`, and `per_page` over 50.\n\n" +
        EVENT_SCOPES_NOTE +
        ' Without subscriptions:read the query leaves them out, so pages and cursors hold only the events shown; a `type` of theirs is a 403 FORBIDDEN, as a route of a scope the key lacks; `ending_before` may still name one (the last event a receiver processed), as a place in time.',
      metadata: merchantAuth('orders:read', 'events:read'),
      query: ZListEventsQuery,
      responses: { 200: ZEventPage, ...merchantErrors },
    },
    get: {
      method: 'GET',
      path: '/events/:id',
      summary: 'Get one event, exactly as its webhook carries it',
      description:
        "The event's body as its webhook carries it (and as it was signed), whether or not it was delivered. 404 for an unknown id, another merchant's event, or one deleted after the retention period (EVENT_RETENTION_DAYS, at least 30 days). 403 FORBIDDEN for an event the API key is not shown, as a route of a scope it lacks. " +
        EVENT_SCOPES_NOTE,
      metadata: merchantAuth('orders:read', 'events:read'),
      pathParams: ZEventIdParams,
      responses: {
        200: ZWebhookEvent,
        ...orderErrors,
      },
    },
  },
  { strictStatusCodes: true },
);
