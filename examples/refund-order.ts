/**
 * Refund an order from a merchant's server: show its payments ledger, create the refund, sign and
 * send it with the receiving wallet's key, and wait until the service has verified it on chain.
 *
 *   STABLEPAY_URL=http://localhost:3000 STABLEPAY_EMAIL=shop@example.com STABLEPAY_PASSWORD=... \
 *     ORDER_REFERENCE=... [REFUND_AMOUNT=2.5] [REFUND_TO=<payer wallet>] [REFUND_REASON=...] \
 *     SOLANA_RPC_URL=... MERCHANT_SECRET_KEY='[12,34,...]'          # a Solana order
 *     EVM_RPC_URL=... MERCHANT_PRIVATE_KEY=0x...                    # a Polygon/Ethereum order
 *     npx tsx examples/refund-order.ts
 *
 * Without REFUND_TO the refund waits for the payer, who gives an address on its refundUrl; run
 * again with REFUND_ID=<id> once they have (and APPROVE_ADDRESS=<address> when they gave it without
 * signing it with the wallet they paid from: it then waits for your approval). The key never leaves this process: the service only
 * builds the transaction. Without automation, open the refund's payUrl in the wallet instead.
 */
import { Connection, Keypair } from '@solana/web3.js';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient } from '@stablepay/sdk';
import { exitOnApiError, need } from './support';
import { sendRefund, waitForRefund } from '@stablepay/sdk/refunds';

const baseUrl = process.env.STABLEPAY_URL ?? 'http://localhost:3000';
const client = createClient({ baseUrl, token: process.env.STABLEPAY_TOKEN });
const reference = need('ORDER_REFERENCE');

try {
  if (!client.token)
    await client.auth.login({ email: need('STABLEPAY_EMAIL'), password: need('STABLEPAY_PASSWORD') });

  const order = await client.orders.get(reference);
  console.log(
    `order       ${order.reference} ${order.status} ${order.amountReceived}/${order.amount} ${order.token}`,
  );
  for (const p of (await client.orders.payments(reference)).items)
    console.log(`payment     ${p.amount} ${order.token} from ${p.from ?? '?'} (${p.matchedBy}) ${p.txId}`);

  // A retry with the same Idempotency-Key (sent automatically) never refunds twice.
  const refund = process.env.REFUND_ID
    ? { id: process.env.REFUND_ID }
    : await client.orders.refunds.create(reference, {
        amount: process.env.REFUND_AMOUNT,
        to: process.env.REFUND_TO,
        reason: process.env.REFUND_REASON,
      });
  const current = (await client.orders.refunds.list(reference)).items.find((r) => r.id === refund.id)!;
  console.log(
    `refund      ${current.id} ${current.status} ${current.amount} ${current.token} -> ${current.to ?? '?'}`,
  );
  if (current.status === 'AWAITING_ADDRESS') {
    console.log(`ask payer   ${current.refundUrl}`);
    process.exit(0);
  }
  if (current.status === 'AWAITING_APPROVAL') {
    // The payer gave the address without proof from the wallet they paid from: anyone who had the
    // refund page link could have. Approve it only once the payer has confirmed it to you.
    if (process.env.APPROVE_ADDRESS !== current.to) {
      console.log(
        `approve?    ${current.to}: run again with APPROVE_ADDRESS=<it> once the payer confirmed it`,
      );
      process.exit(0);
    }
    await client.orders.refunds.approve(reference, current.id);
    console.log(`approved    ${current.to}`);
  }

  const { txId } = await sendRefund({
    client,
    reference,
    refundId: current.id,
    solana: process.env.MERCHANT_SECRET_KEY
      ? {
          keypair: Keypair.fromSecretKey(
            Uint8Array.from(JSON.parse(process.env.MERCHANT_SECRET_KEY) as number[]),
          ),
          connection: new Connection(need('SOLANA_RPC_URL'), 'confirmed'),
        }
      : undefined,
    evm: process.env.MERCHANT_PRIVATE_KEY
      ? {
          account: privateKeyToAccount(process.env.MERCHANT_PRIVATE_KEY as `0x${string}`),
          rpcUrl: need('EVM_RPC_URL'),
        }
      : undefined,
  });
  console.log(`sent        ${txId}`);

  const settled = await waitForRefund(client, reference, current.id, {
    timeoutMs: Number(process.env.WAIT_MS ?? 300_000),
    intervalMs: 1000,
  });
  console.log(`status      ${settled.status}${settled.failureReason ? ` (${settled.failureReason})` : ''}`);
  console.log(`refunded    ${(await client.orders.get(reference)).amountRefunded} ${order.token}`);
} catch (error) {
  exitOnApiError(error);
}
