import type { ClientInferRequest } from '@ts-rest/core';
import { MAX_PER_PAGE } from '../../../contract';
import { byId, success, type ClientContext, type Contract } from './core';
import type { EventPage, ListAllEventsQuery, ListEventsQuery, WebhookEventBody } from './types';

export interface EventsApi {
  /**
   * GET /events: one page of the merchant's events, newest first, each exactly as its webhook
   * carries it; pass `nextCursor` back as `cursor` (same filters) until it is null. With
   * `ending_before` (the last event id you processed): the events right after it, and a
   * `nextCursor` toward newer ones.
   */
  list(query?: ListEventsQuery): Promise<EventPage>;
  /**
   * Every event matching the filters across cursor pages of 50: newest first; with
   * `ending_before`, the events after that one, oldest first (catching up after downtime).
   */
  listAll(query?: ListAllEventsQuery): AsyncGenerator<WebhookEventBody, void, undefined>;
  /** GET /events/{id}: one event, exactly as its webhook carries it. */
  get(id: string): Promise<WebhookEventBody>;
}

type ListEventsArgs = ClientInferRequest<Contract['events']['list']>['query'];

export function eventsApi({ raw }: ClientContext): EventsApi {
  async function list(query: ListEventsQuery = {}): Promise<EventPage> {
    return success(raw.events.list({ query: query satisfies ListEventsArgs }));
  }

  async function* listAll(query: ListAllEventsQuery = {}): AsyncGenerator<WebhookEventBody, void, undefined> {
    // Paging is the iterator's own: a cursor or per_page slipped in (from JS) is dropped.
    const { cursor: _cursor, per_page: _perPage, ...filters } = query as ListEventsQuery;
    const { ending_before: after, ...rest } = filters;
    // After ending_before the pages walk toward newer events: each is reversed, so a backlog comes
    // oldest first, the order to process it in. The cursor carries the place and the direction.
    let page = await list({ ...filters, per_page: MAX_PER_PAGE });
    for (;;) {
      yield* after === undefined ? page.items : [...page.items].reverse();
      if (page.nextCursor === null) return;
      page = await list({ ...rest, cursor: page.nextCursor, per_page: MAX_PER_PAGE });
    }
  }

  return {
    list,
    listAll,
    async get(id: string): Promise<WebhookEventBody> {
      return success(raw.events.get(byId(id)));
    },
  };
}
