/**
 * The whole product in one command: embedded PostgreSQL, a local Solana chain, the server and a
 * webhook receiver; a demo merchant and wallet; an order paid by a payer through the SDK; the
 * signed `order.paid` webhook as it arrives and the audit timeline. Then it keeps running (so you
 * can open the checkout page and /docs) until Ctrl-C, or stops at once with --exit.
 *
 *   npm run demo            # keeps running
 *   npm run demo -- --exit  # runs the flow and stops
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Connection, Keypair, type Transaction } from '@solana/web3.js';
import { createClient, webhooks, type WebhookEvent } from '@stablepay/sdk';
import { payWithSolanaWallet } from '@stablepay/sdk/payer';
import { loadConfig } from '../server/config';
import { startServer } from '../server/main';
import { createMerchant, MerchantInputError } from '../server/merchants/create-merchant';
import { resetMerchantPassword } from '../server/merchants/reset-merchant-password';
import { startLocalSolana } from '../test/support/solana/local-solana';

const EXIT = process.argv.includes('--exit');
const EMAIL = 'demo@stablepay.local';
const PASSWORD = 'demo-password-123';
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (s: string) => console.log(`\n${bold(`▸ ${s}`)}`);

/** A local receiver that verifies each webhook with the SDK, as a merchant's server would. */
async function startReceiver(getSecret: () => string) {
  const events: WebhookEvent[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = webhooks.constructEvent({
          payload: Buffer.concat(chunks),
          header: String(req.headers['x-webhook-signature'] ?? ''),
          secret: getSecret(),
        });
        events.push(event);
        console.log(`  webhook ${bold(event.type)} (signature verified) order ${event.data.order.status}`);
        waiters.splice(0).forEach((w) => w());
        res.writeHead(200).end('ok');
      } catch (error) {
        console.log(`  webhook rejected: ${(error as Error).message}`);
        res.writeHead(400).end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    events,
    async waitFor(type: string, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!events.some((e) => e.type === type)) {
        if (Date.now() > deadline) throw new Error(`no ${type} webhook within ${timeoutMs / 1000} s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
      return events.find((e) => e.type === type)!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main() {
  step('Starting a local Solana chain (litesvm behind JSON-RPC)');
  const chain = await startLocalSolana();
  const usdt = await chain.createMint();
  const usdc = await chain.createMint();
  console.log(`  RPC ${chain.url}  USDT mint ${usdt.toBase58()}  USDC mint ${usdc.toBase58()}`);

  step('Starting stablepay on the embedded PostgreSQL');
  let webhookSecret = '';
  const receiver = await startReceiver(() => webhookSecret);
  const port = process.env.PORT ?? (EXIT ? '0' : '3000');
  // Always the demo's own embedded database: never a DATABASE_URL that may be a real one.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const config = loadConfig({
    ...env,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: process.env.DATA_DIR ?? './data/demo',
    EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54330',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: usdt.toBase58(),
    USDC_MINT_SOLANA: usdc.toBase58(),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    JOB_DELIVER_EVENTS_CRON: '* * * * * *',
    JOB_VERIFY_PAYMENTS_CRON: '* * * * * *',
    JOB_SCAN_PAYMENTS_CRON: '*/2 * * * * *',
  });
  const server = await startServer(config);
  const baseUrl = port === '0' ? server.url : config.PUBLIC_BASE_URL;
  console.log(`  API ${baseUrl}   reference ${baseUrl}/docs`);

  step('Creating the demo merchant (as `npm run merchant:create` does)');
  try {
    await createMerchant(server.deps.db.models, {
      email: EMAIL,
      password: PASSWORD,
      name: 'Demo Coffee Shop',
    });
  } catch (error) {
    if (!(error instanceof MerchantInputError)) throw error;
    await resetMerchantPassword(server.deps.db.models, { email: EMAIL, password: PASSWORD });
  }
  console.log(`  login: ${EMAIL} / ${PASSWORD}`);

  step('Merchant, through the SDK: log in, add a wallet, set up signed webhooks');
  const merchant = createClient({ baseUrl });
  await merchant.auth.login({ email: EMAIL, password: PASSWORD });
  const shopWallet = Keypair.generate();
  const wallet = await merchant.wallets.create({
    network: 'SOLANA',
    public_address: shopWallet.publicKey.toBase58(),
    name: 'demo',
  });
  webhookSecret = (await merchant.profile.rotateWebhookSecret()).webhook_secret;
  await merchant.profile.update({ webhook_url: receiver.url });
  console.log(`  wallet ${wallet.public_address}; webhooks to ${receiver.url}`);

  step('Creating an order: 25.00 BRL in USDT');
  const order = await merchant.orders.create({
    network: 'SOLANA',
    token: 'USDT',
    quoteCurrency: 'BRL',
    quoteAmount: '25.00',
    description: 'Two flat whites',
    merchantWalletId: wallet.wallet_id,
  });
  console.log(`  ${order.amount} USDT (${order.fxRateLabel}), expires ${order.expiresAt}`);
  console.log(`  checkout page: ${order.checkoutUrl.replace(config.PUBLIC_BASE_URL, baseUrl)}`);
  console.log(`  pay link:      ${order.payUrl}`);

  step('Payer, through the SDK payer helpers: request the transaction, sign, send, report');
  const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
  const result = await payWithSolanaWallet({
    baseUrl,
    reference: order.reference,
    connection: new Connection(chain.url, 'confirmed'),
    wallet: {
      publicKey: payer.publicKey,
      signTransaction: async <T extends Transaction>(tx: T) => {
        tx.partialSign(payer);
        return tx;
      },
    },
    timeoutMs: 60_000,
  });
  console.log(
    `  sent ${result.signature.slice(0, 20)}…; the service read it on chain: ${bold(result.info.status)}`,
  );

  step('Waiting for the order.paid webhook');
  const paid = await receiver.waitFor('order.paid');
  console.log(
    `  order ${paid.data.order.reference}: ${paid.data.order.amountReceived} ${paid.data.order.token} received, paid at ${paid.data.order.paidAt}`,
  );

  step('Audit timeline');
  for (const entry of (await merchant.orders.audit(order.reference)).items)
    console.log(
      `  ${entry.createdAt}  ${entry.actor.padEnd(8)} ${entry.type}${entry.data.reason ? ` (${String(entry.data.reason)})` : ''}`,
    );

  const shutdown = async () => {
    await server.stop();
    await receiver.close();
    await chain.stop();
  };
  if (EXIT) {
    await shutdown();
    console.log('\nDemo complete.');
    process.exit(0);
  }
  console.log(`\n${bold('Running.')} Open ${baseUrl}/docs, or log in as ${EMAIL}. Ctrl-C to stop.`);
  const stop = () => void shutdown().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('demo failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
