import { randomBytes } from 'node:crypto';
import path from 'node:path';
import vm from 'node:vm';
import { Keypair, type PublicKey, type Transaction } from '@solana/web3.js';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { createClient, type StablepayClient } from '../../sdk/src/index';
import {
  createPayer,
  getPaymentInfo,
  NotFoundError,
  parsePayUrl,
  PayUrlError,
  payWithSolanaWallet,
  requestSolanaTransaction,
  SolanaPaymentError,
  StablepayError,
  ValidationError,
  type PayUrl,
} from '../../sdk/src/payer';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { EVM_WALLET, newMerchant, newWalletAddress, startTestServer } from '../support/test-server';
import type { TestServer } from '../support/test-server';

const SDK_ROOT = path.resolve(__dirname, '../../sdk');

let chain: LocalSolana;
let usdt: PublicKey;
let server: TestServer;
let merchantWallet: Keypair;
let merchantEvmWallet: string;
let client: StablepayClient;

beforeAll(async () => {
  chain = await startLocalSolana();
  usdt = await chain.createMint();
  server = await startTestServer({
    SOLANA_RPC_URL: chain.url,
    USDT_MINT_SOLANA: usdt.toBase58(),
    JOBS_ENABLED: 'true',
    JOB_VERIFY_PAYMENTS_CRON: '* * * * * *',
    PAYMENT_RECHECK_MS: '500',
    API_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const m = await newMerchant(server, { name: 'Loja Azul' });
  client = createClient({ baseUrl: server.url, token: m.token });
  merchantWallet = Keypair.generate();
  await client.wallets.create({ network: 'SOLANA', public_address: merchantWallet.publicKey.toBase58() });
  merchantEvmWallet = newWalletAddress('POLYGON');
  await client.wallets.create({ network: 'POLYGON', public_address: merchantEvmWallet });
});
afterAll(async () => {
  await server?.stop();
  await chain?.stop();
});

/** "12.500000" → "12.5", as payment URIs write amounts. */
const trimmed = (amount: string) => (amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount);
/** A 6-decimal amount string in base units. */
const units = (amount: string) => BigInt(amount.replace('.', ''));

/** The adapter shape of Phantom & co., backed by a local keypair. */
const walletOf = (payer: Keypair) => ({
  publicKey: payer.publicKey,
  signTransaction: async (tx: Transaction) => {
    tx.partialSign(payer);
    return tx;
  },
});

describe('parsePayUrl', () => {
  it('parses the Solana Pay transfer request of a real order', async () => {
    const order = await client.orders.create({
      network: 'SOLANA',
      token: 'USDT',
      amount: '12.5',
      description: 'Pedido #1001 & café',
    });
    const parsed = parsePayUrl(order.payUrl);
    expect(parsed).toEqual({
      kind: 'solana-transfer',
      network: 'SOLANA',
      recipient: merchantWallet.publicKey.toBase58(),
      amount: trimmed(order.amount),
      splToken: usdt.toBase58(),
      references: [order.reference],
      label: 'Loja Azul',
      message: 'Pedido #1001 & café',
      memo: null,
    } satisfies PayUrl);
    expect(typeof (parsed.kind === 'solana-transfer' && parsed.amount)).toBe('string');
    expect(parsePayUrl(order.qrData)).toEqual(parsed);
    expect(parsePayUrl(order.txRequestUrl!)).toEqual({
      kind: 'solana-transaction-request',
      network: 'SOLANA',
      link: `http://pay.example.test/pay/tx-request/${order.reference}`,
    });
  });

  it('parses the EIP-681 transfer of a real Polygon order, amount as a decimal string', async () => {
    const order = await client.orders.create({ network: 'POLYGON', token: 'USDT', amount: '19.047620' });
    expect(order.payUrl).toMatch(/^ethereum:0x[0-9a-fA-F]{40}@137\/transfer\?/);
    expect(parsePayUrl(order.payUrl)).toEqual({
      kind: 'evm-transfer',
      network: 'POLYGON',
      chainId: 137,
      contract: order.tokenMintOrContract,
      recipient: merchantEvmWallet,
      amountUnits: '19047620',
      amount: '19.04762',
    } satisfies PayUrl);
  });

  it('handles the other spellings of both standards', () => {
    const key = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    expect(parsePayUrl(`solana:${key}`)).toMatchObject({ recipient: key, amount: null, splToken: null });
    expect(
      parsePayUrl(`solana:${key}?amount=0.010&reference=${key}&reference=${key}&memo=a%20b&label=x+y`),
    ).toMatchObject({ amount: '0.01', references: [key, key], memo: 'a b', label: 'x y' });
    expect(parsePayUrl('solana:https%3A%2F%2Fpay.example.com%2Ftx%3Fid%3D1')).toEqual({
      kind: 'solana-transaction-request',
      network: 'SOLANA',
      link: 'https://pay.example.com/tx?id=1',
    });
    const c = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    expect(parsePayUrl(`ethereum:${c}@1/transfer?address=${EVM_WALLET}&uint256=2.5e6`)).toMatchObject({
      network: 'ETHEREUM',
      chainId: 1,
      amountUnits: '2500000',
      amount: '2.5',
    });
    expect(parsePayUrl(`ethereum:pay-${c}/transfer?address=${EVM_WALLET}&uint256=1`)).toMatchObject({
      chainId: null,
      network: null,
      amount: '0.000001',
    });
    expect(
      parsePayUrl(`ethereum:${c}@56/transfer?address=${EVM_WALLET}&uint256=1000000000000000000`, {
        evmDecimals: 18,
      }),
    ).toMatchObject({ network: 'BSC', chainId: 56, amount: '1' });
    expect(parsePayUrl(`ethereum:${c}@31337/transfer?address=${EVM_WALLET}&uint256=1`)).toMatchObject({
      network: null,
      chainId: 31337,
    });
  });

  it('throws PayUrlError on malformed input', () => {
    const key = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const c = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
    const bad = [
      '',
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      'solana:',
      'solana:not-a-key',
      `solana:${key}?amount=1e3`,
      `solana:${key}?amount=-1`,
      `solana:${key}?amount=1&amount=2`,
      `solana:${key}?spl-token=xyz`,
      `solana:${key}?reference=0OIl`,
      `solana:${key}?label=%E0%A4%A`,
      `ethereum:${c}@137/transfer?address=${EVM_WALLET}`,
      `ethereum:${c}@137/transfer?address=0x12&uint256=1`,
      `ethereum:${c}@137/transfer?address=${EVM_WALLET}&uint256=1.5`,
      `ethereum:${c}@137/approve?address=${EVM_WALLET}&uint256=1`,
      `ethereum:${c}@137?value=1`,
      'ethereum:0x1234/transfer',
    ];
    for (const url of bad) {
      expect(() => parsePayUrl(url), url).toThrow(PayUrlError);
      try {
        parsePayUrl(url);
      } catch (error) {
        expect(error).toBeInstanceOf(StablepayError);
        expect((error as PayUrlError).code).toBe('INVALID_PAY_URL');
      }
    }
    expect(() => parsePayUrl(42 as unknown as string)).toThrow(PayUrlError);
  });
});

describe('payer API', () => {
  it('getPaymentInfo and requestSolanaTransaction, as functions and from createPayer', async () => {
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '4.2' });
    const info = await getPaymentInfo(order.reference, { baseUrl: server.url });
    expect(info).toMatchObject({
      reference: order.reference,
      status: 'PENDING',
      amount: order.amount,
      amountDue: order.amount,
      merchantName: 'Loja Azul',
    });

    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    const built = await requestSolanaTransaction({
      baseUrl: server.url,
      reference: order.reference,
      account: payer.publicKey,
    });
    expect(built).toMatchObject({ network: 'SOLANA', reference: order.reference, amount: order.amount });
    expect(built.transaction).toMatch(/^[A-Za-z0-9+/]+=*$/);

    const p = createPayer({ baseUrl: server.url });
    expect((await p.getPaymentInfo(order.reference)).reference).toBe(order.reference);
    await expect(p.getPaymentInfo(encodeBase58(randomBytes(32)))).rejects.toBeInstanceOf(NotFoundError);

    // A payer without the balance gets a 400 saying so, as a typed error with details.
    const poor = await chain.newPayer({ mint: usdt, units: 1n });
    const error = await p
      .requestSolanaTransaction({ reference: order.reference, account: poor.publicKey.toBase58() })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details[0]?.message).toContain(
      `less than the ${trimmed(order.amount)} USDT due`,
    );

    // A Polygon order has no Solana transaction.
    const polygon = await client.orders.create({ network: 'POLYGON', token: 'USDT', amount: '1' });
    await expect(
      p.requestSolanaTransaction({ reference: polygon.reference, account: payer.publicKey }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('payWithSolanaWallet: sign, send, report, and resolve once the service verified it (PAID)', async () => {
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '12.5' });
    const payer = await chain.newPayer({ mint: usdt, units: 100_000_000n });
    let signed = 0;
    const wallet = walletOf(payer);
    const started = performance.now();
    const result = await payWithSolanaWallet({
      baseUrl: server.url,
      reference: order.reference,
      wallet: {
        publicKey: wallet.publicKey,
        signTransaction: async (tx) => {
          signed++;
          return wallet.signTransaction(tx);
        },
      },
      connection: chain.connection,
      pollIntervalMs: 200,
      timeoutMs: 30_000,
    });
    const elapsedMs = performance.now() - started;
    expect(signed).toBe(1);
    expect(result.timedOut).toBe(false);
    expect(result.info.status).toBe('PAID');
    expect(result.info.txId).toBe(result.signature);
    expect(result.info.amountReceived).toBe(order.amount);
    expect(await chain.tokenBalance(payer.publicKey, usdt)).toBe(100_000_000n - units(order.amount));
    expect(await chain.tokenBalance(merchantWallet.publicKey, usdt)).toBe(units(order.amount));

    const paid = await client.orders.get(order.reference);
    expect(paid).toMatchObject({ status: 'PAID', txId: result.signature });
    const audit = await client.orders.audit(order.reference);
    expect(audit.items.find((e) => e.type === 'tx.submitted')).toMatchObject({
      actor: 'payer',
      data: { txId: result.signature },
    });
    console.log(`[sdk payer] payWithSolanaWallet to PAID: ${elapsedMs.toFixed(0)} ms`);
  });

  it('payWithSolanaWallet: a wallet that refuses, and a disconnected wallet, send nothing', async () => {
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '1' });
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    chain.resetRpcCalls();
    await expect(
      payWithSolanaWallet({
        baseUrl: server.url,
        reference: order.reference,
        wallet: {
          publicKey: payer.publicKey,
          signTransaction: async () => {
            throw new Error('User rejected the request.');
          },
        },
        connection: chain.connection,
      }),
    ).rejects.toThrow('User rejected the request.');
    await expect(
      payWithSolanaWallet({
        baseUrl: server.url,
        reference: order.reference,
        wallet: { publicKey: null, signTransaction: async (tx) => tx },
        connection: chain.connection,
      }),
    ).rejects.toThrow(/wallet.publicKey is missing/);
    expect(chain.rpcCalls.sendTransaction ?? 0).toBe(0);
    expect((await client.orders.get(order.reference)).status).toBe('PENDING');
  });

  it('payWithSolanaWallet: an unsigned or refused transaction is a SolanaPaymentError without signature', async () => {
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '1' });
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    // A wallet that hands the transaction back unsigned.
    const unsigned = await payWithSolanaWallet({
      baseUrl: server.url,
      reference: order.reference,
      wallet: { publicKey: payer.publicKey, signTransaction: async (tx) => tx },
      connection: chain.connection,
    }).catch((e: unknown) => e);
    expect(unsigned).toBeInstanceOf(SolanaPaymentError);
    expect(unsigned).toMatchObject({ code: 'SOLANA_PAYMENT_FAILED', signature: undefined });
    expect((unsigned as Error).message).toMatch(/not sent/);

    // An RPC that refuses it.
    chain.setRpcFault((method) =>
      method === 'sendTransaction'
        ? { rpcError: { code: -32002, message: 'Blockhash not found' } }
        : undefined,
    );
    try {
      const refused = await payWithSolanaWallet({
        baseUrl: server.url,
        reference: order.reference,
        wallet: walletOf(payer),
        connection: chain.connection,
      }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SolanaPaymentError);
      expect((refused as SolanaPaymentError).signature).toBeUndefined();
      expect((refused as Error).message).toMatch(/not sent: [\s\S]*Blockhash not found/);
    } finally {
      chain.setRpcFault(null);
    }
    expect((await client.orders.get(order.reference)).status).toBe('PENDING');
  });

  it('payWithSolanaWallet: after sending, failures carry the signature; a short timeout returns CONFIRMING', async () => {
    const payer = await chain.newPayer({ mint: usdt, units: 10_000_000n });
    // The report cannot be delivered (connection dropped): the error names the sent transaction.
    const lost = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '1' });
    const noSubmit: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/submit-tx')) throw new TypeError('fetch failed');
      return fetch(input, init);
    };
    const error = await payWithSolanaWallet({
      baseUrl: server.url,
      fetch: noSubmit,
      maxRetries: 1,
      reference: lost.reference,
      wallet: walletOf(payer),
      connection: chain.connection,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SolanaPaymentError);
    const signature = (error as SolanaPaymentError).signature!;
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect((error as Error).message).toContain(`The transaction ${signature} was sent`);
    expect((error as Error).cause).toBeInstanceOf(StablepayError);
    expect(await chain.connection.getSignatureStatus(signature)).toMatchObject({ value: { err: null } });

    // No time to wait: the result says so, with the order still CONFIRMING.
    const quick = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '1' });
    const result = await payWithSolanaWallet({
      baseUrl: server.url,
      reference: quick.reference,
      wallet: walletOf(payer),
      connection: chain.connection,
      timeoutMs: 0,
    });
    expect(result).toMatchObject({ timedOut: true, info: { status: 'CONFIRMING', txId: null } });
    expect(result.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
  });
});

describe('browser bundle of @stablepay/sdk/payer', () => {
  it('bundles for the browser with no Node built-ins, and runs without Node globals', async () => {
    const started = performance.now();
    const withWeb3 = await build({
      entryPoints: [path.join(SDK_ROOT, 'src/payer.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      minify: true,
      metafile: true,
      logLevel: 'silent',
    });
    const bundleMs = performance.now() - started;
    expect(withWeb3.errors).toEqual([]);
    const code = withWeb3.outputFiles[0]!.text;
    expect(code).not.toMatch(/["'`]node:/);
    expect(code).not.toMatch(/\brequire\(["'](fs|path|crypto|http|https|net|os|stream|zlib)["']\)/);
    const inputs = Object.keys(withWeb3.metafile.inputs);
    expect(inputs.some((i) => i.includes('@solana/web3.js'))).toBe(true);
    // Nothing of the contract (its pay schema reads Buffer when loaded) nor zod is in it: only the
    // plain table of networks and the decimal rules.
    const plain = ['contract/network-table.ts', 'contract/decimal.ts'];
    expect(
      inputs.filter(
        (i) =>
          (i.includes('contract/') && !plain.some((p) => i.endsWith(p))) || i.includes('node_modules/zod'),
      ),
    ).toEqual([]);

    // The SDK's own code, web3.js left out: small, and with no Node global in it.
    const options = {
      entryPoints: [path.join(SDK_ROOT, 'src/payer.ts')],
      bundle: true,
      platform: 'browser',
      target: 'es2022',
      write: false,
      external: ['@solana/web3.js'],
      logLevel: 'silent',
    } satisfies BuildOptions;
    const ownCode = (await build({ ...options, format: 'esm' })).outputFiles[0]!.text;
    expect(ownCode).not.toMatch(/\b(Buffer|process|require|__dirname|global)\b/);
    expect(ownCode).toContain('import("@solana/web3.js")'); // loaded only when paying
    console.log(
      `[sdk payer] browser bundle: ${(code.length / 1024).toFixed(0)} KB minified with web3.js ` +
        `(${bundleMs.toFixed(0)} ms), ${(ownCode.length / 1024).toFixed(1)} KB SDK code alone`,
    );

    // Run it in a context that has browser globals only.
    const order = await client.orders.create({ network: 'SOLANA', token: 'USDT', amount: '2.5' });
    const context = vm.createContext({
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      atob,
      btoa,
      fetch,
      Headers,
      Response,
      AbortSignal,
      setTimeout,
      clearTimeout,
      console,
    });
    const iife = await build({ ...options, format: 'iife', globalName: 'StablepayPayer' });
    vm.runInContext(iife.outputFiles[0]!.text, context);
    const lib = (context as { StablepayPayer: typeof import('../../sdk/src/payer') }).StablepayPayer;
    expect(lib.parsePayUrl(order.payUrl)).toMatchObject({ kind: 'solana-transfer', amount: '2.5' });
    const info = await lib.getPaymentInfo(order.reference, { baseUrl: server.url });
    expect(info).toMatchObject({ reference: order.reference, status: 'PENDING' });
    const missing = await lib
      .getPaymentInfo(encodeBase58(randomBytes(32)), { baseUrl: server.url })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(lib.NotFoundError);
    // The brand makes instanceof work across copies of the SDK (here: another realm).
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(StablepayError);
  });
});
