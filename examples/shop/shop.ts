/**
 * A tiny shop's server, as a merchant would write it: it sells a cart through stablepay, fulfils it
 * once the signed `order.paid` webhook arrives, and refunds to the wallet that paid. Its own test,
 * `shop.test.ts` beside it, runs it against `npm run sandbox`.
 */
import express from 'express';
import { webhooks, WebhookSignatureVerificationError, type StablepayClient } from '@stablepay/sdk';

export type Purchase = { cartId: string; status: 'awaiting payment' | 'paid' | 'refunded' };

export function createShop({
  stablepay,
  webhookSecret,
}: {
  stablepay: StablepayClient;
  webhookSecret: string;
}) {
  // By order reference. Use your database: webhooks come at least once, and after restarts.
  const purchases = new Map<string, Purchase>();
  const seen = new Set<string>();
  const app = express();

  // The signature covers the exact bytes sent: read the raw body, not parsed JSON.
  app.post('/webhooks/stablepay', express.raw({ type: 'application/json' }), (req, res) => {
    let event;
    try {
      const header = req.header('X-Webhook-Signature') ?? '';
      event = webhooks.constructEvent({ payload: req.body as Buffer, header, secret: webhookSecret });
    } catch (error) {
      if (error instanceof WebhookSignatureVerificationError) return res.status(400).send('bad signature');
      throw error;
    }
    if (seen.has(event.id)) return res.send('duplicate');
    seen.add(event.id);
    const purchase = 'order' in event.data ? purchases.get(event.data.order.reference) : undefined;
    // Fulfil here: the money is final on chain.
    if (purchase && event.type === 'order.paid') purchase.status = 'paid';
    if (purchase && event.type === 'refund.succeeded') purchase.status = 'refunded';
    res.send('ok');
  });

  return {
    app,
    purchases,
    /** An order for the cart's total in BRL, paid in USDT; show the payer its checkoutUrl. */
    async checkout(cartId: string, totalBrl: string, network: 'SOLANA' | 'POLYGON' | 'BSC' = 'SOLANA') {
      const order = await stablepay.orders.create({
        network,
        token: 'USDT',
        quoteCurrency: 'BRL',
        quoteAmount: totalBrl,
        metadata: { cartId },
      });
      purchases.set(order.reference, { cartId, status: 'awaiting payment' });
      return order;
    },
    /** A refund of `amount` tokens to the wallet the order was paid from, for the wallet to send. */
    async refund(reference: string, amount: string, reason: string) {
      const [payment] = (await stablepay.orders.payments(reference)).items;
      return stablepay.orders.refunds.create(reference, { amount, to: payment?.from ?? undefined, reason });
    },
  };
}
