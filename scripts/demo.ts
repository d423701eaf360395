/**
 * The whole product in one command, on the sandbox (sandbox/, as `npm run sandbox` starts it): an
 * order created through the SDK, paid from the sandbox's payer with `sandbox.pay` (a real transfer
 * on a local chain), the signed `order.paid` webhook at a local receiver verified with the SDK, and
 * the order's audit timeline. Then it keeps running as the sandbox does until Ctrl-C, or stops at
 * once with --exit. Its data (embedded PostgreSQL, wallet keys) is in DATA_DIR, default ./data/demo.
 *
 *   npm run demo                                    # on Solana, keeps running
 *   npm run demo -- --network POLYGON|BSC [--exit]  # on a local Hardhat chain (BSC: 18 decimals)
 *   npm run demo -- --network TRON                  # on the local TRON-compatible chain
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createClient, webhooks } from '@stablepay/sdk';
import { printSandbox } from '../sandbox/print-sandbox';
import { SANDBOX_EMAIL, SANDBOX_PASSWORD } from '../sandbox/sandbox-merchant';
import { startSandbox } from '../sandbox/start-sandbox';
import { SANDBOX_NETWORKS } from '../sandbox/start-sandbox-chains';

const { values: args } = parseArgs({
  options: { exit: { type: 'boolean', default: false }, network: { type: 'string', default: 'SOLANA' } },
});
const network = SANDBOX_NETWORKS.find((n) => n === args.network.toUpperCase())!;
if (!network) {
  console.error(`Invalid --network: ${args.network} (the sandbox's: ${SANDBOX_NETWORKS.join(', ')})`);
  process.exit(1);
}
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (s: string) => console.log(`\n${bold(`▸ ${s}`)}`);

/** The shop's side: a receiver that trusts a webhook only once the SDK has verified its signature. */
async function startReceiver() {
  let paid = () => {};
  const receiver = {
    secret: '',
    url: '',
    orderPaid: new Promise<void>((resolve) => (paid = resolve)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const header = String(req.headers['x-webhook-signature'] ?? '');
        const payload = Buffer.concat(chunks);
        const event = webhooks.constructEvent({ payload, header, secret: receiver.secret });
        const about = 'order' in event.data ? `order ${event.data.order.status}` : '';
        console.log(`  webhook ${bold(event.type)} (signature verified) ${about}`);
        if (event.type === 'order.paid') paid();
        res.writeHead(200).end('ok');
      } catch (error) {
        console.log(`  webhook rejected: ${(error as Error).message}`);
        res.writeHead(400).end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}

/** Stops what was started: on the way out, whatever happened. */
let shutdown = async () => {};

async function main() {
  step('Starting the sandbox: local chains, stablepay on an embedded PostgreSQL, its merchant');
  const { PORT = args.exit ? '0' : '3000', DATA_DIR = './data/demo' } = process.env;
  const sandbox = await startSandbox({ ...process.env, PORT, DATA_DIR });
  const receiver = await startReceiver();
  shutdown = async () => void (await Promise.all([sandbox.stop(), receiver.close()]));
  const chain = sandbox.chains.find((c) => c.network === network)!;
  console.log(`  API ${sandbox.url} (reference ${sandbox.url}/docs), ready in ${sandbox.ms} ms`);
  console.log(`  ${network} chain${chain.chainId ? ` (chain id ${chain.chainId})` : ''} at ${chain.rpcUrl}`);

  step('The shop, through the SDK: sign in, set up signed webhooks to its receiver');
  const shop = createClient({ baseUrl: sandbox.url });
  await shop.auth.login({ email: SANDBOX_EMAIL, password: SANDBOX_PASSWORD });
  receiver.secret = (await shop.profile.rotateWebhookSecret()).webhook_secret;
  await shop.profile.update({ webhook_url: receiver.url });
  console.log(`  login: ${SANDBOX_EMAIL} / ${SANDBOX_PASSWORD}; webhooks to ${receiver.url}`);

  step(`Creating an order: 25.00 BRL in USDT on ${network}`);
  const order = await shop.orders.create({ network, token: 'USDT', quoteCurrency: 'BRL', quoteAmount: '25' });
  console.log(`  ${order.amount} USDT (${order.fxRateLabel}) to ${chain.wallet.address}`);
  console.log(`  checkout page: ${order.checkoutUrl}\n  pay link:      ${order.payUrl}`);

  step('Paying it from the sandbox payer (sandbox.pay): a real transfer on the local chain');
  console.log(`  sent ${(await shop.sandbox.pay(order.reference)).txId}`);

  step('Waiting for the order.paid webhook');
  const late = setTimeout(60_000).then(() => Promise.reject(new Error('no order.paid webhook in 60 s')));
  await Promise.race([receiver.orderPaid, late]);

  step('Audit timeline');
  for (const entry of (await shop.orders.audit(order.reference)).items)
    console.log(`  ${entry.createdAt}  ${entry.actor.padEnd(8)} ${entry.type}`);
  if (args.exit) return shutdown().then(() => console.log('\nDemo complete.'));
  console.log('');
  printSandbox(sandbox);
  const stop = () => void shutdown().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().then(
  () => args.exit && process.exit(0),
  async (error: unknown) => {
    console.error('demo failed:', error instanceof Error ? error.message : error);
    await shutdown();
    process.exit(1);
  },
);
