import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, REFUND_STATUSES } from '../../contract';
import { targetsOf, transitionOf, TransitionRefused, type Transition } from '../../server/events/lifecycle';
import { CLAIM_LIFECYCLE } from '../../server/orders/claim-lifecycle';
import { ORDER_CREATED, ORDER_LIFECYCLE } from '../../server/orders/order-lifecycle';
import { REFUND_LIFECYCLE } from '../../server/refunds/refund-lifecycle';

/**
 * The three lifecycle tables, move by move: every (from, cause, to) that exists is listed here with
 * what it sends and writes, and every other one is refused. A change to a table changes this list.
 */

type Table = { name: string; transitions: readonly Transition<string, string>[] };

/** Every move of a table as `FROM -cause-> TO  event / audit` (FROM `new` for creation). */
function moves(table: Table): string[] {
  return table.transitions
    .flatMap((t) =>
      (t.from.length === 0 ? ['new'] : t.from).map(
        (from) => `${from} -${t.cause}-> ${t.to}  ${t.event ?? '-'} / ${t.audit ?? '-'}`,
      ),
    )
    .sort();
}

/** Every combination of a status (or nothing), a cause and a status: allowed exactly when listed. */
function expectExhaustively(table: Table, statuses: readonly string[]) {
  const causes = [...new Set(table.transitions.map((t) => t.cause))];
  const listed = new Set(moves(table).map((m) => m.split('  ')[0]));
  let allowed = 0;
  for (const from of [null, ...statuses])
    for (const cause of causes)
      for (const to of statuses) {
        const key = `${from ?? 'new'} -${cause}-> ${to}`;
        if (listed.has(key)) {
          const row = transitionOf(table, from, cause, to);
          expect(row.to).toBe(to);
          allowed++;
        } else expect(() => transitionOf(table, from, cause, to), key).toThrow(TransitionRefused);
      }
  expect(allowed).toBe(listed.size);
}

const unique = (table: Table) =>
  expect(new Set(moves(table).map((m) => m.split('  ')[0])).size).toBe(moves(table).length);

/** The table holds exactly `expected`, each (from, cause, to) once, and refuses every other move. */
function expectExactlyTheseMoves(table: Table, statuses: readonly string[], expected: string[]) {
  expect(moves(table)).toEqual([...expected].sort());
  unique(table);
  expectExhaustively(table, statuses);
}

describe('the order lifecycle', () => {
  it('has exactly these moves', () => {
    const statuses = ['PENDING', 'CONFIRMING', 'UNDERPAID', 'EXPIRED', 'PAID'];
    const dropped = (cause: string, event: string) => [
      ...['CONFIRMING', 'PENDING', 'UNDERPAID'].map(
        (f) => `${f} -${cause}-> EXPIRED  ${event} / status.changed`,
      ),
      ...['PENDING', 'UNDERPAID', 'EXPIRED'].map(
        (f) => `${f} -${cause}-> CONFIRMING  ${event} / status.changed`,
      ),
      `CONFIRMING -${cause}-> PENDING  ${event} / status.changed`,
      `CONFIRMING -${cause}-> UNDERPAID  ${event} / status.changed`,
      ...statuses.map((s) => `${s} -${cause}-> ${s}  ${event} / -`),
    ];
    expectExactlyTheseMoves(ORDER_LIFECYCLE, ORDER_STATUSES, [
      'new -created-> PENDING  order.created / order.created',
      'PENDING -reported-> CONFIRMING  order.confirming / status.changed',
      'UNDERPAID -reported-> CONFIRMING  order.confirming / status.changed',
      'EXPIRED -reported-> CONFIRMING  order.confirming / status.changed',
      // Reported again while checked, or past expiry without proof: nothing moves.
      ...['PENDING', 'CONFIRMING', 'UNDERPAID', 'EXPIRED'].map((f) => `${f} -reported-> ${f}  - / -`),
      // CONFIRMING: held by nothing but a payer's unsigned report (holdsPastExpiry).
      ...['PENDING', 'CONFIRMING', 'UNDERPAID'].map(
        (f) => `${f} -expired-> EXPIRED  order.expired / status.changed`,
      ),
      ...['PENDING', 'CONFIRMING', 'UNDERPAID', 'EXPIRED'].map(
        (f) => `${f} -credited-> PAID  order.paid / status.changed`,
      ),
      'PENDING -credited-> UNDERPAID  order.underpaid / status.changed',
      'CONFIRMING -credited-> UNDERPAID  order.underpaid / status.changed',
      ...['PENDING', 'CONFIRMING', 'UNDERPAID'].map(
        (f) => `${f} -credited-> EXPIRED  order.underpaid / status.changed`,
      ),
      ...['PENDING', 'UNDERPAID', 'EXPIRED'].map(
        (f) => `${f} -credited-> CONFIRMING  order.underpaid / status.changed`,
      ),
      'UNDERPAID -credited-> UNDERPAID  order.underpaid / -',
      'CONFIRMING -credited-> CONFIRMING  order.underpaid / -',
      'EXPIRED -credited-> EXPIRED  order.underpaid / -',
      'PAID -credited-> PAID  - / -',
      ...dropped('rejected', 'order.payment_rejected'),
      ...dropped('unproven', 'order.payment_claimed'),
    ]);
  });

  it('never leaves PAID, and writes status.changed exactly when the status changes', () => {
    for (const t of ORDER_LIFECYCLE.transitions) {
      if (t.from.includes('PAID')) expect(t.to).toBe('PAID');
      if (t.from.length > 0)
        for (const from of t.from)
          expect(t.audit === 'status.changed', `${from}->${t.to}`).toBe(from !== t.to);
    }
    expect(targetsOf(ORDER_LIFECYCLE, 'PAID', 'credited')).toEqual(['PAID']);
  });

  it('makes orders PENDING with order.created, as the creation statement writes them', () => {
    expect(ORDER_CREATED).toMatchObject({ to: 'PENDING', event: 'order.created', audit: 'order.created' });
  });
});

describe('the refund lifecycle', () => {
  it('has exactly these moves', () => {
    expectExactlyTheseMoves(REFUND_LIFECYCLE, REFUND_STATUSES, [
      'new -created-> PENDING  refund.created / refund.created',
      'new -created-> AWAITING_ADDRESS  refund.created / refund.created',
      'AWAITING_ADDRESS -address_given-> PENDING  refund.created / refund.address_set',
      'AWAITING_ADDRESS -address_given-> AWAITING_APPROVAL  refund.created / refund.address_set',
      'AWAITING_APPROVAL -approved-> PENDING  refund.created / refund.approved',
      'PENDING -verified-> SUCCEEDED  refund.succeeded / refund.succeeded',
      'FAILED -verified-> SUCCEEDED  refund.succeeded / refund.succeeded',
      'AWAITING_ADDRESS -deadline-> FAILED  refund.failed / refund.failed',
      'AWAITING_APPROVAL -deadline-> FAILED  refund.failed / refund.failed',
      'PENDING -deadline-> FAILED  refund.failed / refund.failed',
    ]);
  });

  it('never leaves SUCCEEDED, and an unsigned address never makes a refund sendable', () => {
    expect(REFUND_LIFECYCLE.transitions.filter((t) => t.from.includes('SUCCEEDED'))).toEqual([]);
    // The only way from AWAITING_APPROVAL to PENDING is the merchant's approval.
    expect(
      REFUND_LIFECYCLE.transitions.filter((t) => t.from.includes('AWAITING_APPROVAL') && t.to === 'PENDING'),
    ).toEqual([expect.objectContaining({ cause: 'approved' })]);
  });
});

describe('the payment-claim lifecycle', () => {
  it('has exactly these moves: open (reported again with proof while open), then settled once', () => {
    expectExactlyTheseMoves(
      CLAIM_LIFECYCLE,
      ['PENDING', 'VERIFIED', 'REJECTED', 'UNPROVEN'],
      [
        'new -reported-> PENDING  - / tx.submitted',
        'PENDING -reported-> PENDING  - / tx.submitted',
        'new -found-> PENDING  - / -',
        'PENDING -credited-> VERIFIED  - / payment.verified',
        'PENDING -rejected-> REJECTED  - / payment.rejected',
        'PENDING -unproven-> UNPROVEN  - / payment.claimed',
      ],
    );
  });
});
