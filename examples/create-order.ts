/**
 * Create a payment order and print what to show the payer.
 *
 *   STABLEPAY_URL=http://localhost:3000 STABLEPAY_EMAIL=shop@example.com STABLEPAY_PASSWORD=... \
 *     npx tsx examples/create-order.ts
 *
 * Keep the token on your server: never put it in a page or app the payer sees.
 */
import { createClient } from '@stablepay/sdk';
import { exitOnApiError, need } from './support';

const baseUrl = process.env.STABLEPAY_URL ?? 'http://localhost:3000';
const client = createClient({ baseUrl, token: process.env.STABLEPAY_TOKEN });

try {
  if (!client.token)
    await client.auth.login({ email: need('STABLEPAY_EMAIL'), password: need('STABLEPAY_PASSWORD') });

  // A BRL price converted at the live rate, rounded up so you never receive less. Retries reuse
  // the same Idempotency-Key, so a lost response never creates a second order.
  const order = await client.orders.create({
    network: 'SOLANA',
    token: 'USDT',
    quoteCurrency: 'BRL',
    quoteAmount: process.env.QUOTE_AMOUNT ?? '49.90',
    description: 'Order #1001',
    metadata: { cartId: 'cart_1001' },
  });

  console.log(`reference   ${order.reference}`);
  console.log(
    `amount      ${order.amount} ${order.token} (${order.quoteAmount} ${order.quoteCurrency}, ${order.fxRateLabel})`,
  );
  console.log(`pay link    ${order.payUrl}`);
  console.log(`checkout    ${order.checkoutUrl}`);
  console.log(`qr image    ${order.qrImageUrl}`);
  console.log(`expires at  ${order.expiresAt}`);
} catch (error) {
  exitOnApiError(error);
}
