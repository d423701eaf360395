import { describe, expect, it } from 'vitest';
import type { WebhookEventBody } from '../../contract';
import {
  appendTransfers,
  attributionOutcomes,
  readAuditOptions,
  readClaimedTransfer,
  reportSigned,
  type Attribution,
} from '../../dashboard/src/lib/claims';

/** The dashboard's reading of reported and unattributed transfers (dashboard/src/lib/claims.ts). */

const TX = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const REF = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe('a payment.claimed entry', () => {
  it('is read field by field, as the service writes it', () => {
    expect(
      readClaimedTransfer({
        txId: TX,
        amount: '19.200000',
        from: 'Fr0m',
        blockTime: '2026-11-27T10:00:00.000Z',
        reason: 'no tag, not the exact amount, no signature',
      }),
    ).toEqual({
      txId: TX,
      network: null,
      amount: '19.200000',
      from: 'Fr0m',
      blockTime: '2026-11-27T10:00:00.000Z',
      reason: 'no tag, not the exact amount, no signature',
    });
  });

  it('leaves out what is not of the expected form, and is nothing without its transaction', () => {
    expect(
      readClaimedTransfer({ txId: TX, amount: '1e3', from: null, blockTime: 'yesterday', reason: 7 }),
    ).toEqual({ txId: TX, network: null, amount: null, from: null, blockTime: null, reason: null });
    // On an order with several ways to pay the entry names its network; only a known one is kept.
    expect(readClaimedTransfer({ txId: TX, network: 'BSC' })?.network).toBe('BSC');
    expect(readClaimedTransfer({ txId: TX, network: 'MOON' })?.network).toBeNull();
    expect(readClaimedTransfer({ amount: '1.000000' })).toBeNull();
    expect(readClaimedTransfer({ txId: '' })).toBeNull();
  });
});

describe('a tx.submitted entry', () => {
  it("says whether a payer's report was signed; the merchant's reports say nothing", () => {
    expect(reportSigned({ txId: TX, signed: true })).toBe(true);
    expect(reportSigned({ txId: TX, signed: false })).toBe(false);
    expect(reportSigned({ txId: TX })).toBeNull();
    expect(reportSigned({ txId: TX, signed: 'yes' })).toBeNull();
  });
});

describe('"Load more"', () => {
  it('appends the next page without a transfer twice (the same id on two networks is two transfers)', () => {
    const a = { network: 'SOLANA', txId: 'a' };
    const b = { network: 'POLYGON', txId: '0xb' };
    const bElsewhere = { network: 'BASE', txId: '0xb' };
    expect(appendTransfers([a, b], [b, bElsewhere])).toEqual([a, b, bElsewhere]);
    expect(appendTransfers([], [a])).toEqual([a]);
  });
});

describe('attributions in flight', () => {
  const order = (reference: string) => ({ reference, token: 'USDT' }) as never;
  const event = (type: string, reference: string, payment?: { network: string; txId: string }) =>
    ({
      type,
      data: { order: order(reference), ...(payment ? { payment: { ...payment, amount: '6.9' } } : {}) },
    }) as unknown as WebhookEventBody;
  const mine: Attribution = { network: 'POLYGON', txId: '0xabc', reference: REF };

  it('are credited by the order event that carries the transfer', () => {
    expect(
      attributionOutcomes(
        [
          event('order.confirming', REF),
          event('order.underpaid', REF, { network: 'POLYGON', txId: '0xabc' }),
        ],
        [mine],
      ),
    ).toEqual([{ kind: 'credited', attribution: mine, amount: '6.9', token: 'USDT' }]);
  });

  it("are not credited by another order's payment, nor by another transfer", () => {
    const other = 'HjvS1u7bwJ7JpRaqx8Q1dGkf9LHQcdbwgdmCyRNrXSqa';
    expect(
      attributionOutcomes(
        [
          event('order.paid', other, { network: 'POLYGON', txId: '0xabc' }),
          event('order.paid', REF, { network: 'POLYGON', txId: '0xdef' }),
          event('order.paid', REF, { network: 'BASE', txId: '0xabc' }),
        ],
        [mine],
      ),
    ).toEqual([]);
  });

  it("are turned down by their order's payment_rejected event, once", () => {
    expect(
      attributionOutcomes(
        [event('order.payment_rejected', REF), event('order.payment_rejected', REF)],
        [mine],
      ),
    ).toEqual([{ kind: 'rejected', attribution: mine }]);
  });
});

describe("an order.created entry's payment options", () => {
  it('are read as the service writes them, extra fields left out', () => {
    expect(
      readAuditOptions([
        {
          network: 'SOLANA',
          token: 'USDT',
          amount: '7.250001',
          amountAdjustedFrom: '7.25',
          reason: 'unique',
        },
        { network: 'BSC', token: 'USDT', amount: '7.250000000000000000' },
      ]),
    ).toEqual([
      { network: 'SOLANA', token: 'USDT', amount: '7.250001' },
      { network: 'BSC', token: 'USDT', amount: '7.250000000000000000' },
    ]);
  });

  it.each([
    ['not a list', { network: 'SOLANA' }],
    ['an empty list', []],
    ['an unknown network', [{ network: 'BITCOIN', token: 'USDT', amount: '1' }]],
    ['an unknown token', [{ network: 'SOLANA', token: 'DAI', amount: '1' }]],
    ['an amount that is no decimal', [{ network: 'SOLANA', token: 'USDT', amount: '1e3' }]],
    ['a null element', [null]],
  ])('are not read from %s (shown as text instead)', (_, value) => {
    expect(readAuditOptions(value)).toBeNull();
  });
});
