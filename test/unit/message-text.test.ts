import { describe, expect, it } from 'vitest';
import { REFUND_STATUSES, type Order, type Refund } from '../../contract';
import { eventMessengerText } from '../../server/events/message-text';

/**
 * The messenger's text of refund events: a chat is read by more people and apps than the merchant's
 * servers, so it never carries the refund id, which opens the payer's refund page where the
 * refund's address is given.
 */
const id = 'rf_0123456789abcdef0123456789abcdef';
const order = {
  reference: '7YttLkHDoNj9wyDur5pM1ejNaAvT9X4eqaYcHQqtj2G5',
  status: 'PAID',
  network: 'SOLANA',
  token: 'USDT',
  amount: '10.000000',
  amountReceived: '10.000000',
  quoteAmount: null,
  quoteCurrency: null,
  paidLate: false,
  description: null,
  checkoutUrl: 'https://pay.example.test/checkout/7YttLkHDoNj9wyDur5pM1ejNaAvT9X4eqaYcHQqtj2G5',
} as unknown as Order;
const refund = (o: Partial<Refund>): Refund =>
  ({
    id,
    orderReference: order.reference,
    status: 'AWAITING_ADDRESS',
    network: 'SOLANA',
    token: 'USDT',
    amount: '4.000000',
    to: null,
    reason: null,
    refundUrl: `https://pay.example.test/refund/${id}`,
    payUrl: null,
    txId: null,
    late: false,
    failureReason: null,
    ...o,
  }) as Refund;

describe('messenger text of refund events', () => {
  it('never holds the refund id, in any status', () => {
    for (const status of REFUND_STATUSES)
      for (const type of ['refund.created', 'refund.succeeded', 'refund.failed']) {
        const to = status === 'AWAITING_ADDRESS' ? null : 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg';
        const text = eventMessengerText(type, {
          order,
          refund: refund({
            status,
            to,
            payUrl:
              status === 'PENDING' ? `solana:https://pay.example.test/pay/refunds/${id}/tx-request` : null,
          }),
        });
        expect(text, `${type} ${status}`).not.toContain(id.slice(3));
        expect(text).toContain(`Reference: ${order.reference}`);
      }
  });

  it('tells the merchant where to find the link, and to approve an address given without proof', () => {
    expect(eventMessengerText('refund.created', { order, refund: refund({}) })).toContain(
      "Waiting for the payer's address: send them the refund page link from the dashboard",
    );
    const awaiting = eventMessengerText('refund.created', {
      order,
      refund: refund({ status: 'AWAITING_APPROVAL', to: 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg' }),
    });
    expect(awaiting).toContain('To: HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg');
    expect(awaiting).toContain('approve it in the dashboard');
    const late = eventMessengerText('refund.succeeded', {
      order,
      refund: refund({
        status: 'SUCCEEDED',
        late: true,
        txId: 'tx1',
        failureReason: 'no verified refund transfer',
      }),
    });
    expect(late).toContain('(SUCCEEDED, late)');
    expect(late).not.toContain('Why:');
  });
});
