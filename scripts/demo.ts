/**
 * The whole product in one command: embedded PostgreSQL, a local chain, the server and a webhook
 * receiver; a demo merchant and wallet; an order paid by a payer; the signed `order.paid` webhook
 * as it arrives and the audit timeline. Then it keeps running (so you can open the checkout page
 * and /docs) until Ctrl-C, or stops at once with --exit.
 *
 *   npm run demo                                # Solana (litesvm), keeps running
 *   npm run demo -- --exit                      # runs the flow and stops
 *   npm run demo -- --network POLYGON [--exit]  # Polygon (chain id 137) on a local Hardhat node
 *   npm run demo -- --network BSC               # any EVM network of contract/network-table.ts, at
 *                                               # its mainnet chain id and USDT decimals (BSC: 18)
 *
 * On Solana the payer pays through the SDK payer helpers. On an EVM network a local payer wallet
 * (viem) signs the call the transaction request returns, sends it, and reports it through the SDK;
 * the demo then mines the blocks that make it final (the local chain mines only on transactions).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Connection, Keypair, type Transaction } from '@solana/web3.js';
import { createClient, isSubscriptionEvent, webhooks, type WebhookEvent } from '@stablepay/sdk';
import { createPayer, payWithSolanaWallet } from '@stablepay/sdk/payer';
import { createWalletClient, getAddress, http as viemHttp, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EVM_NETWORK_TABLE, NETWORKS, type EvmNetwork, type Network } from '../contract';
import { loadConfig } from '../server/config';
import { parseUnits } from '../contract/decimal';
import { startServer } from '../server/main';
import { createMerchant, MerchantInputError } from '../server/merchants/create-merchant';
import { resetMerchantPassword } from '../server/merchants/reset-merchant-password';
import { startLocalEvm } from '../sandbox/chains/evm/local-evm';
import { startLocalSolana } from '../sandbox/chains/solana/local-solana';

/** Blocks on top of a payment's block before the service takes it as final (small: a local chain). */
const EVM_CONFIRMATIONS = 2;
/** Once the flow is done and the demo keeps running, the EVM chain mines a block this often. */
const EVM_BLOCK_TIME_MS = 2000;

const { values: args } = parseArgs({
  options: {
    exit: { type: 'boolean', default: false },
    network: { type: 'string', default: 'SOLANA' },
  },
});
const EXIT = args.exit;
const NETWORK = args.network.toUpperCase() as Network;
if (!NETWORKS.includes(NETWORK)) {
  console.error(`Invalid --network: ${args.network} (one of ${NETWORKS.join(', ')})`);
  process.exit(1);
}
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
        const about =
          event.type === 'ping'
            ? 'a test'
            : isSubscriptionEvent(event)
              ? `subscription ${event.data.subscription.status}`
              : `order ${event.data.order.status}`;
        console.log(`  webhook ${bold(event.type)} (signature verified) ${about}`);
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
    async waitFor<T extends WebhookEvent['type']>(type: T, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!events.some((e) => e.type === type)) {
        if (Date.now() > deadline) throw new Error(`no ${type} webhook within ${timeoutMs / 1000} s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
      return events.find((e): e is Extract<WebhookEvent, { type: T }> => e.type === type)!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The local chain the demo pays on, as the rest of the flow needs it. */
type DemoChain = {
  /** What points the service at it. */
  env: Record<string, string>;
  /** A fresh receiving address for the merchant's wallet. */
  newReceivingAddress(): string;
  /** The payer's side: pays the order in full and reports it, as that network's wallets do. */
  pay(baseUrl: string, reference: string): Promise<void>;
  /** Lines for the "Running." message, after anything the chain must do to keep serving. */
  keepRunning(): Promise<string[]>;
  stop(): Promise<void>;
};

async function startSolanaChain(): Promise<DemoChain> {
  step('Starting a local Solana chain (litesvm behind JSON-RPC)');
  const chain = await startLocalSolana();
  const usdt = await chain.createMint();
  const usdc = await chain.createMint();
  console.log(`  RPC ${chain.url}  USDT mint ${usdt.toBase58()}  USDC mint ${usdc.toBase58()}`);
  return {
    env: {
      SOLANA_RPC_URL: chain.url,
      USDT_MINT_SOLANA: usdt.toBase58(),
      USDC_MINT_SOLANA: usdc.toBase58(),
    },
    newReceivingAddress: () => Keypair.generate().publicKey.toBase58(),
    async pay(baseUrl, reference) {
      step('Payer, through the SDK payer helpers: request the transaction, sign, send, report');
      const payer = await chain.newPayer({ mint: usdt, units: 1_000_000_000n });
      const result = await payWithSolanaWallet({
        baseUrl,
        reference,
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
    },
    keepRunning: async () => [],
    stop: () => chain.stop(),
  };
}

/** The transaction request's answer on Polygon/Ethereum: the call for a browser wallet to send. */
type EvmTransactionRequest = { chainId: number; to: Address; data: Hex; value: string; message: string };

/** A local chain with the network's real chain id and a USDT of its real decimals (BSC: 18). */
async function startEvmChain(network: EvmNetwork): Promise<DemoChain> {
  const { chainId, tokens } = EVM_NETWORK_TABLE[network];
  const decimals = tokens.USDT.decimals;
  step(`Starting a local ${network} chain (a Hardhat node, chain id ${chainId})`);
  const chain = await startLocalEvm({ chainId });
  const usdt = await chain.deployToken({ decimals });
  console.log(
    `  RPC ${chain.url}  USDT contract ${getAddress(usdt)} (${decimals} decimals)  final at ${EVM_CONFIRMATIONS} confirmations`,
  );
  let payerKey: Hex | undefined;
  return {
    env: {
      [`${network}_RPC_URL`]: chain.url,
      [`USDT_CONTRACT_${network}`]: usdt,
      // No USDC on the local chain: off, rather than a mainnet contract that is not there.
      [`USDC_CONTRACT_${network}`]: 'none',
      [`${network}_CHAIN_ID`]: String(chainId),
      [`${network}_CONFIRMATIONS`]: String(EVM_CONFIRMATIONS),
    },
    newReceivingAddress: () => privateKeyToAccount(generatePrivateKey()).address,
    async pay(baseUrl, reference) {
      step('Payer: request the transaction, sign and send it with a local wallet (viem), report it');
      const payer = await chain.newWallet({ token: usdt, units: parseUnits('1000', decimals) });
      payerKey = payer.privateKey;
      const url = `${baseUrl}/pay/tx-request/${encodeURIComponent(reference)}?account=${payer.address}`;
      const res = await fetch(url);
      if (!res.ok) throw new Error(`GET /pay/tx-request: ${res.status} ${await res.text()}`);
      const request = (await res.json()) as EvmTransactionRequest;
      if (request.chainId !== chainId)
        throw new Error(`the transaction request is for chain ${request.chainId}, not ${chainId}`);
      console.log(`  transaction request: "${request.message}", transfer call on ${request.to}`);

      // As a browser wallet would: sign with the payer's key, send through the chain's RPC.
      const wallet = createWalletClient({
        account: payer,
        chain: chain.chain,
        transport: viemHttp(chain.url),
      });
      const txId = await wallet.sendTransaction({ to: request.to, data: request.data, value: 0n });
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: txId });
      console.log(`  sent ${txId.slice(0, 20)}… in block ${receipt.blockNumber} (${receipt.status})`);

      const sdk = createPayer({ baseUrl });
      let info = await sdk.submitTransaction(reference, txId);
      console.log(`  reported through the SDK (submit-tx): the order is ${info.status}`);
      await chain.mine(EVM_CONFIRMATIONS);
      console.log(`  ${EVM_CONFIRMATIONS} blocks mined on top of it: final`);
      const deadline = Date.now() + 60_000;
      while (info.status === 'CONFIRMING') {
        if (Date.now() > deadline) throw new Error('the payment was not verified within 60 s');
        await new Promise((resolve) => setTimeout(resolve, 500));
        info = await sdk.getPaymentInfo(reference);
      }
      console.log(`  the service read it on chain: ${bold(info.status)}`);
    },
    async keepRunning() {
      // Confirmations grow as on a real chain, so payments made from here on become final too.
      await chain.rpc('evm_setIntervalMining', [EVM_BLOCK_TIME_MS]);
      return [
        `The ${network} chain (id ${chainId}) mines a block every ${EVM_BLOCK_TIME_MS / 1000} s: RPC ${chain.url}, USDT ${getAddress(usdt)}.`,
        ...(payerKey
          ? [
              `Payer key with USDT left, a LOCAL TEST KEY made up at this start (never on a real network):`,
              `  ${payerKey}`,
            ]
          : []),
      ];
    },
    stop: () => chain.stop(),
  };
}

async function main() {
  const chain = NETWORK === 'SOLANA' ? await startSolanaChain() : await startEvmChain(NETWORK);

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
    // The demo runs offline on local chains: fixed rates unless a live feed is asked for.
    FX_PROVIDER: process.env.FX_PROVIDER ?? 'static',
    ...chain.env,
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
  const wallet = await merchant.wallets.create({
    network: NETWORK,
    public_address: chain.newReceivingAddress(),
    name: 'demo',
  });
  webhookSecret = (await merchant.profile.rotateWebhookSecret()).webhook_secret;
  await merchant.profile.update({ webhook_url: receiver.url });
  console.log(`  wallet ${wallet.public_address}; webhooks to ${receiver.url}`);

  step('Creating an order: 25.00 BRL in USDT');
  const order = await merchant.orders.create({
    network: NETWORK,
    token: 'USDT',
    quoteCurrency: 'BRL',
    quoteAmount: '25.00',
    description: 'Two flat whites',
    merchantWalletId: wallet.wallet_id,
  });
  console.log(`  ${order.amount} USDT (${order.fxRateLabel}), expires ${order.expiresAt}`);
  console.log(`  checkout page: ${order.checkoutUrl.replace(config.PUBLIC_BASE_URL, baseUrl)}`);
  console.log(`  pay link:      ${order.payUrl}`);

  await chain.pay(baseUrl, order.reference);

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
  const notes = await chain.keepRunning();
  console.log(`\n${bold('Running.')} Open ${baseUrl}/docs, or log in as ${EMAIL}. Ctrl-C to stop.`);
  for (const note of notes) console.log(note);
  const stop = () => void shutdown().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error('demo failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
