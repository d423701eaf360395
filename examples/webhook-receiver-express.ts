/**
 * Receive stablepay webhooks in Express and verify their signature before trusting them.
 *
 *   STABLEPAY_WEBHOOK_SECRET=whsec_... PORT=4000 npx tsx examples/webhook-receiver-express.ts
 *
 * Then set your webhook URL: PATCH /users/me {"webhook_url": "https://your.host/webhooks/stablepay"}.
 */
import express from 'express';
import {
  isMemberEvent,
  isPayoutEvent,
  isSubscriptionEvent,
  webhooks,
  WebhookSignatureVerificationError,
} from '@stablepay/sdk';

const secret = process.env.STABLEPAY_WEBHOOK_SECRET;
if (!secret) throw new Error('set STABLEPAY_WEBHOOK_SECRET (POST /users/me/webhook-secret shows it once)');

const app = express();
const seen = new Set<string>(); // use your database in production: delivery is at least once

// The signature covers the exact bytes sent: read the raw body, not parsed JSON.
app.post('/webhooks/stablepay', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = webhooks.constructEvent({
      payload: req.body as Buffer,
      header: req.header('X-Webhook-Signature') ?? '',
      secret,
    });
  } catch (error) {
    if (error instanceof WebhookSignatureVerificationError) {
      console.log(`rejected: ${error.message}`);
      return res.status(400).send('bad signature');
    }
    throw error;
  }
  if (seen.has(event.id)) return res.status(200).send('duplicate');
  seen.add(event.id);

  // `event.type` tells the events apart (and narrows `data`); answer 2xx to types you do not handle.
  if (event.type === 'ping') {
    // POST /users/me/webhook-test: the signature verified, so this endpoint is ready.
    console.log(`verified ping (API version ${event.apiVersion})`);
    return res.status(200).send('pong');
  }
  if (isSubscriptionEvent(event)) {
    // A subscription's life (API version 2026-12-01 on): `subscription.order_created` carries the
    // period's order to send the customer (with SMTP_URL the service mails it itself).
    const sub = event.data.subscription;
    console.log(
      `verified ${event.type} ${sub.id} ${sub.status} ${'order' in event.data ? event.data.order.reference : ''}`,
    );
    return res.status(200).send('ok');
  }
  if (isMemberEvent(event)) {
    // The account's people (API version 2026-12-03 on): who was invited, joined, changed role or left, and by whom.
    console.log(`verified ${event.type} by ${event.data.memberEmail}`);
    return res.status(200).send('ok');
  }
  if (isPayoutEvent(event)) {
    // A payout batch (API version 2026-12-03 on): `data.item` on an item's own events.
    const payout = event.data.payout;
    console.log(`verified ${event.type} ${payout.id} ${payout.status} ${event.data.item?.id ?? ''}`);
    return res.status(200).send('ok');
  }
  const order = event.data.order;
  console.log(
    `verified ${event.type} ${order.reference} ${order.status} ${order.amountReceived}/${order.amount} ${order.token}`,
  );
  if (event.type === 'order.paid') {
    // Fulfil here: the money is final on chain (order.paidLate tells a payment after expiry).
  }
  res.status(200).send('ok');
});

const port = Number(process.env.PORT ?? 4000);
app.listen(port, () => console.log(`listening on http://127.0.0.1:${port}/webhooks/stablepay`));
