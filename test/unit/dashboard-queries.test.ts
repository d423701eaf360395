import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ORDER_EVENT_TYPES, REFUND_EVENT_TYPES, type WebhookEventBody } from '../../contract';
import { applyEvents, keysChangedBy } from '../../dashboard/src/lib/event-refresh';
import { changedByWrite, keys, type OrdersQuery } from '../../dashboard/src/lib/query-keys';

/**
 * The dashboard's query layer: which cached reads an event or a write refreshes. A real TanStack
 * Query cache, seeded with what the pages would have read; `isInvalidated` tells what is read again
 * (at once where a page shows it).
 */

const A = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const B = 'BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

const orderOf = (reference: string, status: string, updatedAt: string) => ({
  reference,
  status,
  updatedAt,
  amount: '10',
  amountReceived: status === 'PAID' ? '10' : '0',
});

function event(
  type: WebhookEventBody['type'],
  order: ReturnType<typeof orderOf>,
  extra: Record<string, unknown> = {},
): WebhookEventBody {
  return {
    id: `evt_${Math.random().toString(36).slice(2)}`,
    type,
    apiVersion: '2026-11-27',
    createdAt: order.updatedAt,
    data: { order, ...extra },
  } as unknown as WebhookEventBody;
}

const page1: OrdersQuery = { per_page: 20, cursor: '' };
const page2: OrdersQuery = { per_page: 20, cursor: 'abc' };

/** A cache holding every part of orders A and B, two list pages, the summary and the unattributed list. */
function seeded() {
  const client = new QueryClient();
  for (const reference of [A, B])
    for (const key of [
      keys.order(reference),
      keys.payments(reference),
      keys.refunds(reference),
      keys.audit(reference),
      keys.webhookDeliveries(reference),
      keys.messengerDeliveries(reference),
    ])
      client.setQueryData(key, []);
  const rows = [
    orderOf(A, 'PENDING', '2026-11-22T10:00:00.000Z'),
    orderOf(B, 'PENDING', '2026-11-22T10:00:00.000Z'),
  ];
  client.setQueryData(keys.orderList(page1), { items: rows, nextCursor: 'abc' });
  client.setQueryData(keys.orderList(page2), { items: [], nextCursor: null });
  client.setQueryData(keys.summary({ from: '2026-10-24', to: '2026-11-22', timeZone: 'UTC' }), {});
  client.setQueryData(keys.unattributed, {
    pages: [{ items: [{ network: 'POLYGON', txId: '0xattributed' }], nextCursor: null }],
    pageParams: [''],
  });
  client.setQueryData(keys.recentDeliveries, []);
  return client;
}

/** The seeded keys an operation left invalidated, as readable strings. */
function invalidated(client: QueryClient) {
  return client
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => JSON.stringify(query.queryKey))
    .sort();
}
const names = (...list: QueryKey[]) => list.map((key) => JSON.stringify(key)).sort();

describe('the live events refresh what their type changes', () => {
  it("order.paid: that order, its payments and timeline, and the summary; the lists' row without a request", () => {
    const client = seeded();
    applyEvents(client, [event('order.paid', orderOf(A, 'PAID', '2026-11-22T10:05:00.000Z'))]);
    expect(invalidated(client)).toEqual(
      names(
        keys.order(A),
        keys.payments(A),
        keys.audit(A),
        keys.summary({ from: '2026-10-24', to: '2026-11-22', timeZone: 'UTC' }),
      ),
    );
    // The row takes the order the event carries; the other row and the list's key stay.
    const list = client.getQueryData<{ items: { reference: string; status: string }[] }>(
      keys.orderList(page1),
    );
    expect(list!.items.map((o) => [o.reference, o.status])).toEqual([
      [A, 'PAID'],
      [B, 'PENDING'],
    ]);
  });

  it('refund events: the order (what it can still refund), its refunds and timeline; never its payments', () => {
    for (const type of ['refund.created', 'refund.succeeded', 'refund.failed'] as const) {
      const client = seeded();
      applyEvents(client, [event(type, orderOf(B, 'PAID', '2026-11-22T11:00:00.000Z'), { refund: {} })]);
      expect(invalidated(client), type).toEqual(names(keys.order(B), keys.refunds(B), keys.audit(B)));
    }
  });

  it('a report without proof changes the timeline only; deliveries follow the timeline, not the events', () => {
    expect(
      keysChangedBy(event('order.payment_claimed', orderOf(A, 'PENDING', '2026-11-22T10:01:00.000Z'))),
    ).toEqual([keys.audit(A)]);
    const every = [...ORDER_EVENT_TYPES, ...REFUND_EVENT_TYPES].flatMap((type) =>
      keysChangedBy(event(type, orderOf(A, 'PAID', '2026-11-22T10:01:00.000Z'))),
    );
    expect(names(...every)).not.toContain(JSON.stringify(keys.webhookDeliveries(A)));
    expect(names(...every)).not.toContain(JSON.stringify(keys.messengerDeliveries(A)));
  });

  it("payout events, an item's too: that payout and the payouts lists, nothing of the orders", () => {
    const client = seeded();
    client.setQueryData(keys.payout('po_a'), {});
    client.setQueryData(keys.payout('po_b'), {});
    client.setQueryData(keys.payoutList(''), {});
    const payoutEvent = (type: WebhookEventBody['type']) =>
      ({
        id: 'evt_p',
        type,
        apiVersion: '2026-12-03',
        data: { payout: { id: 'po_a' } },
      }) as unknown as WebhookEventBody;
    for (const type of ['payout.approved', 'payout.item_confirmed', 'payout.completed'] as const) {
      expect(names(...keysChangedBy(payoutEvent(type))), type).toEqual(
        names(keys.payout('po_a'), keys.payoutLists),
      );
    }
    applyEvents(client, [payoutEvent('payout.item_confirmed')]);
    expect(invalidated(client)).toEqual(names(keys.payout('po_a'), keys.payoutList('')));
  });

  it('reads each changed key once for a batch, however many of its events changed it', () => {
    const client = seeded();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    applyEvents(client, [
      event('order.confirming', orderOf(A, 'CONFIRMING', '2026-11-22T10:04:00.000Z')),
      event('order.paid', orderOf(A, 'PAID', '2026-11-22T10:05:00.000Z')),
      event('refund.created', orderOf(A, 'PAID', '2026-11-22T10:06:00.000Z'), { refund: {} }),
    ]);
    const asked = invalidate.mock.calls.map(([filters]) => JSON.stringify(filters!.queryKey));
    expect(asked.sort()).toEqual(
      names(keys.order(A), keys.payments(A), keys.audit(A), keys.refunds(A), keys.summaries),
    );
    // The row takes the newest state the batch carries.
    const list = client.getQueryData<{ items: { status: string; updatedAt: string }[] }>(
      keys.orderList(page1),
    );
    expect(list!.items[0]).toMatchObject({ status: 'PAID', updatedAt: '2026-11-22T10:06:00.000Z' });
  });

  it("a new order refreshes the lists' first pages, where it shows up, and not the pages after them", () => {
    const client = seeded();
    applyEvents(client, [event('order.created', orderOf(B, 'PENDING', '2026-11-22T12:00:00.000Z'))]);
    const state = (query: OrdersQuery) => client.getQueryState(keys.orderList(query))!.isInvalidated;
    expect([state(page1), state(page2)]).toEqual([true, false]);
  });

  it('a credited transfer that the unattributed list shows refreshes that list (it leaves it); another does not', () => {
    const credited = (txId: string) =>
      event('order.underpaid', orderOf(A, 'UNDERPAID', '2026-11-22T10:05:00.000Z'), {
        payment: { network: 'POLYGON', txId, amount: '5', matchedBy: 'claim' },
      });
    const other = seeded();
    applyEvents(other, [credited('0xsomethingelse')]);
    expect(other.getQueryState(keys.unattributed)!.isInvalidated).toBe(false);
    const shown = seeded();
    applyEvents(shown, [credited('0xattributed')]);
    expect(shown.getQueryState(keys.unattributed)!.isInvalidated).toBe(true);
  });
});

describe('the writes refresh what they change', () => {
  it('a refund (created or approved): its refunds, the order and its timeline', () => {
    expect(names(...changedByWrite.refund(A))).toEqual(names(keys.refunds(A), keys.order(A), keys.audit(A)));
  });

  it('a new payment link: every orders list and the summary; a redelivery: the deliveries it adds to', () => {
    expect(changedByWrite.createOrder()).toEqual([keys.orderLists, keys.summaries]);
    expect(names(...changedByWrite.redeliver(A))).toEqual(
      names(keys.webhookDeliveries(A), keys.audit(A), keys.recentDeliveries),
    );
  });
});
