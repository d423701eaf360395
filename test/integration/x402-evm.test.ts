import { parse } from 'csv-parse/sync';
import {
  encodeFunctionData,
  getAddress,
  numberToHex,
  parseEther,
  parseGwei,
  parseSignature,
  type Address,
} from 'viem';
import type { FacilitatorClient } from '@x402/core/server';
import { QueryTypes, type Transaction } from 'sequelize';
import { randomBytes } from 'node:crypto';
import { eip3009ABI } from '@x402/evm';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../contract/decimal';
import { createClient } from '../../sdk/src/client';
import { randomEvmAddress, type LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { startEvmNetworks } from '../../sandbox/chains/evm/evm-networks';
import { startPaymentHarness, usePaymentStack, type PaymentHarness } from '../support/payment-harness';
import {
  expectErrorBody,
  newApiKey,
  startTestServer,
  TEST_PASSWORD,
  type TestServer,
} from '../support/test-server';
import { decodePaymentResponseHeader, payingFetch, signedPayment, startPaidApi } from '../support/x402-stack';
import { expectSettledOnce } from '../support/x402-settled-once';
import { whileRunning } from '../support/while-running';
import type { Deps } from '../../server/deps';
import { followUpSettlements } from '../../server/x402/follow-up-settlements';
import { until } from '../support/until';

/**
 * x402 v2 on a local EVM chain (Hardhat, chain id 137 as Polygon) with a USDC that has EIP-3009
 * (UsdcToken.sol): the service is the facilitator of an API paid per call (@x402/express), paid by
 * @x402/fetch. The facilitator pays gas with its own key; the payer pays none.
 */

const CHAIN_ID = 137;
const NETWORK = `eip155:${CHAIN_ID}` as const;
const CONFIRMATIONS = 2;
const PRICE = 10_000n; // 0.01 USDC

let networks: Awaited<ReturnType<typeof startEvmNetworks<'POLYGON'>>>;
let usdc: Address;
let gasKey: LocalWallet;
let h: PaymentHarness;
let second: TestServer;
let env: Record<string, string>;

usePaymentStack(
  async () => {
    networks = await startEvmNetworks([
      { network: 'POLYGON', chainId: CHAIN_ID, confirmations: CONFIRMATIONS },
    ]);
    const { evm } = networks.chains.POLYGON;
    usdc = getAddress(await evm.deployUsdc());
    gasKey = await evm.newWallet({ eth: parseEther('10') });
    env = {
      ...networks.env,
      USDC_CONTRACT_POLYGON: usdc,
      X402_EVM_PRIVATE_KEY: gasKey.privateKey,
      X402_MAX_AMOUNT: '5',
    };
    h = await startPaymentHarness(env);
    second = await startTestServer({ ...env, JOBS: 'none' });
  },
  () => [h, second, networks],
);

const evm = () => networks.chains.POLYGON.evm;
const api = () => h.server.api;

/** A shop with a Polygon wallet and an API key that may settle x402 payments. */
async function x402Shop() {
  const shop = await h.newShop('POLYGON', randomEvmAddress());
  const apiKey = await newApiKey(api(), shop.token, ['x402:settle', 'orders:read']);
  return { ...shop, apiKey, payTo: getAddress(shop.wallet) };
}
const payer = (units = 1_000_000n) => evm().newWallet({ token: usdc, units });
const usdcOf = (owner: Address) => evm().balanceOf(usdc, owner);
const payment = (p: LocalWallet, payTo: Address, o: Partial<Parameters<typeof signedPayment>[1]> = {}) =>
  signedPayment(p, { chainId: CHAIN_ID, asset: usdc, payTo, amountUnits: PRICE, ...o });
const facilitator = (server: TestServer, path: 'verify' | 'settle', key: string, body: unknown) =>
  server.api('POST', `/x402/${path}`, { token: key, body });
const settle = (key: string, body: unknown, server: TestServer = h.server) =>
  facilitator(server, 'settle', key, body);
const gasNonce = () => evm().publicClient.getTransactionCount({ address: gasKey.address });

/** The example API selling one call at PRICE in USDC to `shop`, settled through `via`. */
const paidApiFor = (
  shop: { payTo: Address },
  via: { facilitatorUrl: string; apiKey: string | null; facilitator?: FacilitatorClient },
) =>
  startPaidApi({
    ...via,
    network: NETWORK,
    asset: usdc,
    payTo: shop.payTo,
    amountUnits: PRICE.toString(),
    eip712: { name: 'USD Coin', version: '2' },
  });

/** A shop, a payer, and the payer's payment to the shop, ready to settle: how most tests start. */
async function shopAndPayment() {
  const shop = await x402Shop();
  const from = await payer();
  return { shop, from, body: await payment(from, shop.payTo) };
}

async function x402Orders(shop: { apiKey: string }) {
  const res = await api()('GET', '/users/me/orders?kind=x402', { token: shop.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Record<string, unknown>[];
}

describe('x402 facilitator on EVM', () => {
  it('settles a paid API call end to end: tokens move, the payer pays no gas, an x402 order is paid', async () => {
    const shop = await x402Shop();
    await whileRunning(
      paidApiFor(shop, { facilitatorUrl: `${h.server.url}/x402`, apiKey: shop.apiKey }),
      async (paidApi) => {
        const from = await payer();
        const ethBefore = await evm().publicClient.getBalance({ address: from.address });
        const unpaid = await fetch(`${paidApi.url}/paid`);
        expect(unpaid.status).toBe(402);

        const { fetch: pay } = payingFetch(from.privateKey, evm().publicClient, NETWORK, usdc);
        const res = await pay(`${paidApi.url}/paid`);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(await res.json()).toEqual({ answer: 42 });
        const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
        expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: from.address });
        expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);

        expect(await usdcOf(from.address)).toBe(1_000_000n - PRICE);
        expect(await usdcOf(shop.payTo)).toBe(PRICE);
        expect(await evm().publicClient.getBalance({ address: from.address })).toBe(ethBefore);
        const onChain = await evm().publicClient.getTransaction({
          hash: receipt.transaction as `0x${string}`,
        });
        expect(getAddress(onChain.from)).toBe(gasKey.address);
        expect(paidApi.calls).toBe(1);

        // Recorded as an order of kind x402: CONFIRMING until final, then PAID with its ledger entry.
        const [order] = await x402Orders(shop);
        expect(order).toMatchObject({
          kind: 'x402',
          status: 'CONFIRMING',
          amount: '0.010000',
          token: 'USDC',
          payer: from.address,
          resource: `${paidApi.url}/paid`,
          recipient: shop.payTo,
        });
        const reference = order!.reference as string;
        await evm().mine(CONFIRMATIONS);
        const paid = await h.settle(shop, reference, 'PAID');
        expect(paid).toMatchObject({ amountReceived: '0.010000', txId: receipt.transaction });
        const [entry] = await h.ledgerOf(shop, reference);
        expect(entry).toMatchObject({ matchedBy: 'x402', from: from.address, txId: receipt.transaction });
        expect(h.webhookTypes(shop, reference)).toEqual(['order.created', 'order.confirming', 'order.paid']);
        const day = new Date().toISOString().slice(0, 10);
        const csv = await fetch(`${h.server.url}/dashboard/exports/orders.csv?from=${day}&to=${day}`, {
          headers: { authorization: `Bearer ${shop.token}` },
        });
        const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
        expect(rows).toEqual([
          expect.objectContaining({
            reference,
            kind: 'x402',
            status: 'PAID',
            payer: from.address,
            resource: `${paidApi.url}/paid`,
            tx_ids: receipt.transaction,
          }),
        ]);
        const unattributed = await api()('GET', '/users/me/unattributed-payments', { token: shop.token });
        expect(unattributed.body.items).toEqual([]);
        // Only x402 orders under kind=x402.
        await h.createOrder(shop, { amount: '1.00' });
        expect((await x402Orders(shop)).map((o) => o.reference)).toEqual([reference]);
      },
    );
  });

  it("takes the SDK's x402.facilitator() as @x402/express's facilitator", async () => {
    const shop = await x402Shop();
    const client = createClient({ baseUrl: h.server.url, apiKey: shop.apiKey });
    await whileRunning(
      paidApiFor(shop, {
        facilitatorUrl: 'http://unused.invalid',
        apiKey: null,
        facilitator: client.x402.facilitator() as unknown as FacilitatorClient,
      }),
      async (paidApi) => {
        const from = await payer();
        const { fetch: pay } = payingFetch(from.privateKey, evm().publicClient, NETWORK, usdc);
        const res = await pay(`${paidApi.url}/paid`);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(await usdcOf(shop.payTo)).toBe(PRICE);
        expect((await client.orders.list({ kind: 'x402' })).items).toHaveLength(1);
      },
    );
  });

  it('settles one authorization once: replayed, then raced on two instances', async () => {
    const { shop, from, body } = await shopAndPayment();
    await expectSettledOnce((b, server) => settle(shop.apiKey, b, server), [h.server, second], {
      body,
      raced: await payment(from, shop.payTo),
      payer: from.address,
    });
    expect(await usdcOf(from.address)).toBe(1_000_000n - 2n * PRICE);
    expect(await x402Orders(shop)).toHaveLength(2);
  });

  it('the scanner credits an x402 transfer to its own order, and an untagged one of the same amount to the other', async () => {
    const shop = await x402Shop();
    const from = await payer();
    const settled = await settle(shop.apiKey, await payment(from, shop.payTo));
    expect(settled.body).toMatchObject({ success: true });
    const order = await h.createOrder(shop, { token: 'USDC', amount: '0.01' });
    expect(order.amount).toBe('0.010000');
    const buyer = await payer();
    await evm().transfer({ from: buyer, token: usdc, to: shop.payTo, units: PRICE });
    await evm().mine(CONFIRMATIONS);
    // The scanner alone: it credits the x402 transfer to its own order (through its claim), and
    // the other transfer of the same amount to the other order.
    for (let i = 0; i < 20 && (await h.getOrder(shop, order.reference)).status !== 'PAID'; i++)
      await h.server.jobs.runNow('scan-payments');
    expect((await x402Orders(shop))[0]).toMatchObject({ status: 'PAID', txId: settled.body.transaction });
    expect(await h.getOrder(shop, order.reference)).toMatchObject({ status: 'PAID' });
    expect((await h.ledgerOf(shop, order.reference))[0]).toMatchObject({
      matchedBy: 'amount',
      from: buyer.address,
    });
  });

  it('refuses what is not this account’s to take, sending nothing', async () => {
    const shop = await x402Shop();
    const other = await x402Shop();
    const from = await payer();
    const now = BigInt(Math.floor(Date.now() / 1000));
    const usdt = networks.chains.POLYGON.usdt;
    const cases: [string, Awaited<ReturnType<typeof payment>>, string][] = [
      [
        'expired',
        await payment(from, shop.payTo, { validBefore: now - 10n }),
        'invalid_exact_evm_payload_authorization_valid_before',
      ],
      [
        'not yet valid',
        await payment(from, shop.payTo, { validAfter: now + 3600n }),
        'invalid_exact_evm_payload_authorization_valid_after',
      ],
      [
        'wrong amount',
        await payment(from, shop.payTo, { authorizedUnits: PRICE - 1n }),
        'invalid_exact_evm_payload_authorization_value_mismatch',
      ],
      ["another account's payTo", await payment(from, other.payTo), 'invalid_pay_to'],
      ['an unknown token', await payment(from, shop.payTo, { asset: usdt }), 'invalid_asset'],
      [
        'above X402_MAX_AMOUNT',
        await payment(from, shop.payTo, { amountUnits: 5_000_001n }),
        'amount_too_large',
      ],
      [
        'a wrong EIP-712 version',
        await payment(from, shop.payTo, { eip712: { name: 'USD Coin', version: '1' } }),
        'invalid_exact_evm_eip712_domain',
      ],
    ];
    const nonceBefore = await gasNonce();
    for (const [what, body, reason] of cases) {
      const verified = await facilitator(h.server, 'verify', shop.apiKey, body);
      expect(verified.body, what).toMatchObject({ isValid: false, invalidReason: reason });
      const settled = await settle(shop.apiKey, body);
      expect(settled.body, what).toMatchObject({ success: false, errorReason: reason, transaction: '' });
    }
    expect(await gasNonce()).toBe(nonceBefore);
    expect(await usdcOf(from.address)).toBe(1_000_000n);
    expect(await x402Orders(shop)).toEqual([]);
    // The good one verifies.
    const good = await facilitator(h.server, 'verify', shop.apiKey, await payment(from, shop.payTo));
    expect(good.body).toEqual({ isValid: true, payer: from.address });
  });

  it('needs an API key with x402:settle on every route, never a sign-in, and the gas key', async () => {
    const { shop, from, body } = await shopAndPayment();
    const readOnly = await newApiKey(api(), shop.token, ['orders:read']);
    // The owner's own sign-ins: the login token, and the dashboard's session (cookie and CSRF token).
    const signIn = await api()('POST', '/dashboard/session', {
      body: { email: shop.email, password: TEST_PASSWORD },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const session = {
      cookie: signIn.headers.get('set-cookie')!.split(';')[0]!,
      'x-csrf-token': signIn.body.csrfToken as string,
      origin: h.server.url,
    };
    for (const [method, path] of [
      ['GET', '/x402/supported'],
      ['POST', '/x402/verify'],
      ['POST', '/x402/settle'],
    ] as const) {
      const withBody = method === 'POST' ? { body } : {};
      expectErrorBody(await api()(method, path, withBody), 401, 'UNAUTHENTICATED');
      expectErrorBody(await api()(method, path, { token: readOnly, ...withBody }), 403, 'FORBIDDEN');
      for (const [what, signedIn] of [
        ['the login token', { token: shop.token }],
        ['the dashboard session', { headers: session }],
      ] as const) {
        const refused = await api()(method, path, { ...signedIn, ...withBody });
        expectErrorBody(refused, 403, 'FORBIDDEN');
        expect(refused.body.error.message, `${path} with ${what}`).toContain('Only an API key');
      }
    }
    // Nothing was settled by a sign-in: the payer's tokens are where they were.
    expect(await usdcOf(from.address)).toBe(1_000_000n);
    expect(await x402Orders(shop)).toEqual([]);
    const supported = await api()('GET', '/x402/supported', { token: shop.apiKey });
    expect(supported.body).toEqual({
      kinds: [{ x402Version: 2, scheme: 'exact', network: NETWORK }],
      extensions: [],
      signers: { 'eip155:*': [gasKey.address] },
    });
    await whileRunning(
      startTestServer({ ...networks.env, USDC_CONTRACT_POLYGON: usdc, JOBS: 'none' }),
      async (bare) => {
        const res = await bare.api('POST', '/x402/settle', { token: shop.apiKey, body });
        expectErrorBody(res, 503, 'NOT_CONFIGURED');
        expect(res.body.error.message).toContain('X402_EVM_PRIVATE_KEY');
      },
    );
  });

  it("shows each gas key's balance, and warns below X402_GAS_WARN_SETTLEMENTS", async () => {
    const shop = await x402Shop();
    const path = '/dashboard/x402/gas-keys';
    const balance = await evm().publicClient.getBalance({ address: gasKey.address });
    const shown = await api()('GET', path, { token: shop.token });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toEqual({
      warnBelowSettlements: 100,
      gasKeys: [
        {
          network: 'POLYGON',
          caip2: NETWORK,
          address: gasKey.address,
          coin: 'POL',
          balance: formatAmount(balance, 18),
          settlementsLeft: expect.any(Number),
          low: false,
        },
      ],
      notConfigured: ['X402_SOLANA_FEE_PAYER_KEY'],
    });
    expect(shown.body.gasKeys[0].settlementsLeft).toBeGreaterThan(100);
    // The key with the scope reads it too; one without it, or no credential, does not.
    expect((await api()('GET', path, { token: shop.apiKey })).status).toBe(200);
    const readOnly = await newApiKey(api(), shop.token, ['orders:read']);
    expectErrorBody(await api()('GET', path, { token: readOnly }), 403, 'FORBIDDEN');
    expectErrorBody(await api()('GET', path), 401, 'UNAUTHENTICATED');

    const broke = await evm().newWallet({ eth: 0n });
    const servers = {
      broke: await startTestServer({ ...env, X402_EVM_PRIVATE_KEY: broke.privateKey, JOBS: 'none' }),
      demanding: await startTestServer({ ...env, X402_GAS_WARN_SETTLEMENTS: '1000000', JOBS: 'none' }),
      bare: await startTestServer({ ...networks.env, USDC_CONTRACT_POLYGON: usdc, JOBS: 'none' }),
    };
    try {
      const empty = await servers.broke.api('GET', path, { token: shop.token });
      expect(empty.body.gasKeys).toEqual([
        expect.objectContaining({
          address: broke.address,
          balance: '0.000000',
          settlementsLeft: 0,
          low: true,
        }),
      ]);
      const demanding = await servers.demanding.api('GET', path, { token: shop.token });
      expect(demanding.body).toMatchObject({
        warnBelowSettlements: 1_000_000,
        gasKeys: [{ address: gasKey.address, low: true }],
      });
      const bare = await servers.bare.api('GET', path, { token: shop.token });
      expect(bare.body).toEqual({
        warnBelowSettlements: 100,
        gasKeys: [],
        notConfigured: ['X402_EVM_PRIVATE_KEY', 'X402_SOLANA_FEE_PAYER_KEY'],
      });
    } finally {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    }
    // The chain out of reach: the key is shown without a balance, not an error.
    await evm().stopRpc();
    try {
      const unknown = await api()('GET', path, { token: shop.token });
      expect(unknown.status, unknown.text).toBe(200);
      expect(unknown.body.gasKeys).toEqual([
        expect.objectContaining({ address: gasKey.address, balance: null, settlementsLeft: null, low: null }),
      ]);
    } finally {
      await evm().startRpc();
    }
  });

  it('with the gas key empty or gas too dear: a clear error, nothing paid, the authorization still usable', async () => {
    const { shop, from, body } = await shopAndPayment();
    const broke = await evm().newWallet({ eth: 0n });
    await whileRunning(
      startTestServer({ ...env, X402_EVM_PRIVATE_KEY: broke.privateKey, JOBS: 'none' }),
      async (poor) => {
        const refused = await settle(shop.apiKey, body, poor);
        expect(refused.body).toMatchObject({
          success: false,
          errorReason: 'insufficient_gas_funds',
          transaction: '',
        });
        expect(refused.body.errorMessage).toContain(broke.address);
        expect(await usdcOf(from.address)).toBe(1_000_000n);
        expect(await x402Orders(shop)).toEqual([]);

        await evm().rpc('hardhat_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('5000'))]);
        await evm().mine();
        const dear = await settle(shop.apiKey, body);
        expect(dear.body).toMatchObject({
          success: false,
          errorReason: 'gas_price_too_high',
          transaction: '',
        });
        await evm().rpc('hardhat_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('1'))]);
        await evm().mine();

        await evm().rpc('hardhat_setBalance', [broke.address, numberToHex(parseEther('1'))]);
        const funded = await settle(shop.apiKey, body, poor);
        expect(funded.body, funded.text).toMatchObject({ success: true });
        expect(await usdcOf(shop.payTo)).toBe(PRICE);
      },
    );
  });

  it('answers settlement_pending when the receipt is late, and the verifier follows the order up', async () => {
    await whileRunning(startPaymentHarness({ ...env, X402_SETTLE_TIMEOUT_MS: '300' }), async (slow) => {
      const shop = await x402Shop();
      const from = await payer();
      await evm().setAutomine(false);
      let pending;
      try {
        pending = await settle(shop.apiKey, await payment(from, shop.payTo), slow.server);
      } finally {
        await evm().setAutomine(true);
      }
      expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
      expect(pending.body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      const [order] = await x402Orders(shop);
      expect(order).toMatchObject({ status: 'CONFIRMING', kind: 'x402' });
      await evm().mine(CONFIRMATIONS + 1);
      const paid = await slow.settle(shop, order!.reference as string, 'PAID');
      expect(paid.txId).toBe(pending.body.transaction);
      expect(await usdcOf(shop.payTo)).toBe(PRICE);
    });
  });

  it('follows up a settlement a crash left without its order: one order, one ledger entry, its events once', async () => {
    // Where a process may die once the transfer is broadcast: before its order is written (its
    // writer fails), or after the order but before its transaction was reported for it (the
    // process stops there for good: its open connections are cut, as a crash would).
    const crashes: [string, (stopped: () => void) => Partial<Deps>][] = [
      [
        'before the order',
        () => ({
          writeCreatedOrder: async () => {
            throw new Error('the process died here');
          },
        }),
      ],
      [
        'after the order, before its claim',
        (stopped) => ({
          writeCreatedOrder: async (order) => {
            await h.server.deps.writeCreatedOrder(order);
            stopped();
            return new Promise(() => {});
          },
        }),
      ],
    ];
    for (const [where, overrides] of crashes) {
      const { shop, from, body } = await shopAndPayment();
      let stopped!: () => void;
      const stoppedThere = new Promise<void>((resolve) => (stopped = resolve));
      await whileRunning(startTestServer({ ...env, JOBS: 'none' }, overrides(stopped)), async (crashing) => {
        const answer = settle(shop.apiKey, body, crashing).catch(() => null);
        await Promise.race([answer, stoppedThere]);
        crashing.server.closeAllConnections();
      });
      const [row] = (await h.server.deps.db.sequelize.query(
        `SELECT transaction FROM x402_settlements WHERE merchant_id = :id`,
        { type: QueryTypes.SELECT, replacements: { id: shop.id } },
      )) as { transaction: string }[];
      const tx = row!.transaction;
      expect(tx, where).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await usdcOf(shop.payTo), where).toBe(PRICE);
      // Nothing reported for the transfer: at most an order that no transaction is claimed for.
      const before = await x402Orders(shop);
      expect(
        before.filter((o) => o.status !== 'PENDING'),
        where,
      ).toEqual([]);
      // As the crash left it: the transfer broadcast, its receipt never seen, no order linked, and
      // idle long enough to be followed up, the dead writer's lease run out (the harness's own
      // job may follow it up first, as it would).
      await h.server.deps.db.sequelize.query(
        `UPDATE x402_settlements
            SET status = 'sent', updated_at = now() - interval '10 minutes',
                recording_until = CASE WHEN recording_until IS NULL THEN NULL ELSE now() - interval '1 second' END
          WHERE transaction = :tx`,
        { replacements: { tx } },
      );

      // Followed up on two instances at once, then again: one order, reported once.
      await Promise.all([
        followUpSettlements(h.server.deps),
        followUpSettlements(second.deps),
        followUpSettlements(h.server.deps),
      ]);
      await followUpSettlements(second.deps);
      const [order, ...more] = await x402Orders(shop);
      expect(more, where).toEqual([]);
      expect(order, where).toMatchObject({
        kind: 'x402',
        status: 'CONFIRMING',
        amount: '0.010000',
        payer: from.address,
        resource: 'https://api.example.test/report',
        recipient: shop.payTo,
      });
      const reference = order!.reference as string;
      await evm().mine(CONFIRMATIONS);
      expect(await h.settle(shop, reference, 'PAID'), where).toMatchObject({ txId: tx });
      await followUpSettlements(h.server.deps);
      const ledger = await h.ledgerOf(shop, reference);
      expect(ledger, where).toHaveLength(1);
      expect(ledger[0], where).toMatchObject({ matchedBy: 'x402', from: from.address, txId: tx });
      expect(h.webhookTypes(shop, reference), where).toEqual([
        'order.created',
        'order.confirming',
        'order.paid',
      ]);
      expect(await x402Orders(shop), where).toHaveLength(1);
      // Presented again, the payment is the one already settled.
      expect((await settle(shop.apiKey, body)).body, where).toMatchObject({
        success: false,
        errorReason: 'already_settled',
        transaction: tx,
      });
    }
  });

  it('answers 502 UPSTREAM_UNAVAILABLE while the chain cannot be reached, and settles once it can', async () => {
    const { shop, body } = await shopAndPayment();
    await evm().stopRpc();
    try {
      expectErrorBody(await facilitator(h.server, 'verify', shop.apiKey, body), 502, 'UPSTREAM_UNAVAILABLE');
      expectErrorBody(await settle(shop.apiKey, body), 502, 'UPSTREAM_UNAVAILABLE');
    } finally {
      await evm().startRpc();
    }
    const settled = await settle(shop.apiKey, body);
    expect(settled.body, settled.text).toMatchObject({ success: true });
  });
});

describe('x402 settlement states', () => {
  it('gives back an authorization the node refused outright: nothing sent, presented again it settles', async () => {
    const { shop, from, body } = await shopAndPayment();
    const nonceBefore = await gasNonce();
    // The next block's base fee far above the latest one's (still under X402_MAX_GAS_GWEI): the fee
    // offered from the latest block is too low for it, and the node refuses the transaction.
    await evm().rpc('hardhat_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('500'))]);
    let refused;
    try {
      refused = await settle(shop.apiKey, body);
    } finally {
      await evm().rpc('hardhat_setNextBlockBaseFeePerGas', [numberToHex(parseGwei('1'))]);
    }
    expect(refused.body, refused.text).toMatchObject({
      success: false,
      errorReason: 'transaction_rejected',
      transaction: '',
    });
    expect(await gasNonce()).toBe(nonceBefore);
    expect(await usdcOf(from.address)).toBe(1_000_000n);
    const again = await settle(shop.apiKey, body, second);
    expect(again.body, again.text).toMatchObject({ success: true, payer: from.address });
    expect(await usdcOf(shop.payTo)).toBe(PRICE);
    expect(await x402Orders(shop)).toHaveLength(1);
  });

  it('gives back a claim left idle before signing: presented again it settles once, the late settle sends nothing', async () => {
    const { shop, from, body } = await shopAndPayment();
    const nonceBefore = await gasNonce();
    // The gas key taken elsewhere: the settle claims the authorization, verifies it, then waits to
    // sign, as long as it likes (a process that died there waits for ever).
    const { sequelize } = h.server.deps.db;
    const hold = await sequelize.transaction();
    let late, fresh;
    try {
      await holdGasKey(hold);
      late = settle(shop.apiKey, body);
      await waitingForGasKey(1);
      const [claim] = await settlementsOf(shop);
      await idleFor(claim!.id, '10 minutes');
      await h.server.jobs.runNow('follow-up-x402');
      // Given back: nothing on chain used the authorization. Presented again, it is claimed anew.
      expect(await settlementsOf(shop)).toEqual([]);
      fresh = settle(shop.apiKey, body, second);
      await until('the new claim', async () => (await settlementsOf(shop))[0]?.status === 'sending');
    } finally {
      await hold.commit();
    }
    const [lateAnswer, freshAnswer] = await Promise.all([late, fresh]);
    expect(freshAnswer!.body, freshAnswer!.text).toMatchObject({ success: true, payer: from.address });
    expect(lateAnswer!.body, lateAnswer!.text).toMatchObject({
      success: false,
      errorReason: 'claim_expired',
      transaction: '',
    });
    expect(await gasNonce()).toBe(nonceBefore + 1);
    expect(await usdcOf(from.address)).toBe(1_000_000n - PRICE);
    expect(await usdcOf(shop.payTo)).toBe(PRICE);
    expect(await x402Orders(shop)).toHaveLength(1);
    expect((await settle(shop.apiKey, body)).body).toMatchObject({
      errorReason: 'already_settled',
      transaction: freshAnswer!.body.transaction,
    });
  });

  it('settles a pending settlement once its receipt comes, never failing it for want of one', async () => {
    await whileRunning(startPaymentHarness({ ...env, X402_SETTLE_TIMEOUT_MS: '300' }), async (slow) => {
      const { shop, body } = await shopAndPayment();
      await evm().setAutomine(false);
      try {
        const pending = await settle(shop.apiKey, body, slow.server);
        expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
        // No receipt yet: still pending, and presented again the payment is the one under way.
        await slow.server.jobs.runNow('follow-up-x402');
        expect(await settlementsOf(shop)).toEqual([expect.objectContaining({ status: 'pending' })]);
        expect((await settle(shop.apiKey, body, slow.server)).body).toMatchObject({
          errorReason: 'already_settled',
          transaction: pending.body.transaction,
        });
      } finally {
        await evm().setAutomine(true);
      }
      await evm().mine(CONFIRMATIONS + 1);
      await slow.server.jobs.runNow('follow-up-x402');
      const [row] = await settlementsOf(shop);
      expect(row).toMatchObject({ status: 'settled' });
      const [order] = await x402Orders(shop);
      expect(await slow.settle(shop, order!.reference as string, 'PAID')).toMatchObject({
        txId: row!.transaction,
      });
      expect(await x402Orders(shop)).toHaveLength(1);
      expect(await usdcOf(shop.payTo)).toBe(PRICE);
    });
  });

  it('gives a pending settlement whose transaction was dropped an end once its authorization expired', async () => {
    await whileRunning(startPaymentHarness({ ...env, X402_SETTLE_TIMEOUT_MS: '300' }), async (slow) => {
      const shop = await x402Shop();
      const from = await payer();
      const now = BigInt(Math.floor(Date.now() / 1000));
      const body = await payment(from, shop.payTo, { validBefore: now + 60n });
      await evm().setAutomine(false);
      let pending;
      try {
        pending = await settle(shop.apiKey, body, slow.server);
        expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
        // The node drops it (a mempool eviction): it is mined nowhere.
        await evm().rpc('hardhat_dropTransaction', [pending.body.transaction]);
      } finally {
        await evm().setAutomine(true);
      }
      // Within its authorization's validity it might still come: it stays pending.
      await slow.server.jobs.runNow('follow-up-x402');
      expect(await settlementsOf(shop)).toEqual([expect.objectContaining({ status: 'pending' })]);
      await evm().rpc('evm_increaseTime', [120]);
      await evm().mine();
      await slow.server.jobs.runNow('follow-up-x402');
      expect(await settlementsOf(shop)).toEqual([expect.objectContaining({ status: 'failed' })]);
      expect(await usdcOf(from.address)).toBe(1_000_000n);
    });
  });

  it('follows up an idle claim whose authorization someone else used on chain: its one order, nothing sent', async () => {
    const { shop, from, body } = await shopAndPayment();
    const nonceBefore = await gasNonce();
    const { sequelize } = h.server.deps.db;
    const hold = await sequelize.transaction();
    let late;
    let used: `0x${string}`;
    try {
      await holdGasKey(hold);
      late = settle(shop.apiKey, body);
      await waitingForGasKey(1);
      const [claim] = await settlementsOf(shop);
      // Meanwhile the payer's authorization is sent by another facilitator.
      const { authorization, signature } = body.paymentPayload.payload;
      const { r, s: sig, v } = parseSignature(signature);
      const relayer = await evm().newWallet();
      used = await evm().sendTransaction({
        from: relayer,
        to: usdc,
        data: encodeFunctionData({
          abi: eip3009ABI,
          functionName: 'transferWithAuthorization',
          args: [
            authorization.from,
            authorization.to,
            BigInt(authorization.value),
            BigInt(authorization.validAfter),
            BigInt(authorization.validBefore),
            authorization.nonce,
            Number(v),
            r,
            sig,
          ],
        }),
      });
      await idleFor(claim!.id, '10 minutes');
      await h.server.jobs.runNow('follow-up-x402');
      expect(await settlementsOf(shop)).toEqual([
        expect.objectContaining({ status: 'settled', transaction: used }),
      ]);
    } finally {
      await hold.commit();
    }
    // Its transfer would now revert: refused before anything is sent.
    expect((await late!).body).toMatchObject({ success: false, transaction: '' });
    expect(await gasNonce()).toBe(nonceBefore);
    expect(await usdcOf(shop.payTo)).toBe(PRICE);
    const [order, ...more] = await x402Orders(shop);
    expect(more).toEqual([]);
    expect(order).toMatchObject({ kind: 'x402', payer: from.address, recipient: shop.payTo });
    await evm().mine(CONFIRMATIONS);
    expect(await h.settle(shop, order!.reference as string, 'PAID')).toMatchObject({ txId: used! });
    expect((await settle(shop.apiKey, body)).body).toMatchObject({
      errorReason: 'already_settled',
      transaction: used!,
    });
  });

  it('gives back a settlement signed but never broadcast (the process died in between), and keeps one sent', async () => {
    const { shop, body } = await shopAndPayment();
    const { sequelize } = h.server.deps.db;
    const hold = await sequelize.transaction();
    let late;
    try {
      await holdGasKey(hold);
      late = settle(shop.apiKey, body);
      await waitingForGasKey(1);
      const [claim] = await settlementsOf(shop);
      // As a process that died between signing and broadcasting leaves it: sent, with the hash of
      // a transaction no node has.
      await sequelize.query(`UPDATE x402_settlements SET status = 'sent', transaction = :tx WHERE id = :id`, {
        replacements: { id: claim!.id, tx: `0x${randomBytes(32).toString('hex')}` },
      });
      await idleFor(claim!.id, '10 minutes');
      await h.server.jobs.runNow('follow-up-x402');
      expect(await settlementsOf(shop)).toEqual([]);
    } finally {
      await hold.commit();
    }
    expect((await late!).body).toMatchObject({ success: false, errorReason: 'claim_expired' });
    const settled = await settle(shop.apiKey, body);
    expect(settled.body, settled.text).toMatchObject({ success: true });
    // One the node has, still waiting to be included, is kept however long it waits.
    const other = await payer();
    const waiting = await payment(other, shop.payTo);
    const slow = await startTestServer({ ...env, X402_SETTLE_TIMEOUT_MS: '300', JOBS: 'none' });
    await evm().setAutomine(false);
    try {
      const pending = await settle(shop.apiKey, waiting, slow);
      expect(pending.body).toMatchObject({ errorReason: 'settlement_pending' });
      await sequelize.query(
        `UPDATE x402_settlements SET status = 'sent', order_id = NULL, updated_at = now() - interval '10 minutes'
          WHERE transaction = :tx`,
        { replacements: { tx: pending.body.transaction } },
      );
      await h.server.jobs.runNow('follow-up-x402');
      expect((await settlementsOf(shop)).map((r) => r.transaction)).toContain(pending.body.transaction);
    } finally {
      await evm().setAutomine(true);
      await evm().mine();
      await slow.stop();
    }
  });
});

/** The settlement rows of a shop, as they are in PostgreSQL. */
const settlementsOf = (shop: { id: string }) =>
  h.server.deps.db.sequelize.query<{ id: string; status: string; transaction: string | null }>(
    `SELECT id, status, transaction FROM x402_settlements WHERE merchant_id = :id ORDER BY id`,
    { type: QueryTypes.SELECT, replacements: { id: shop.id } },
  );

/** A settlement row as if untouched for `interval`: time passes without waiting for it. */
const idleFor = (id: string, interval: string) =>
  h.server.deps.db.sequelize.query(
    `UPDATE x402_settlements SET updated_at = now() - CAST(:interval AS interval) WHERE id = :id`,
    { replacements: { id, interval } },
  );

/** Takes the facilitator's gas key (as a settlement on another instance does) until `hold` ends. */
const holdGasKey = (hold: Transaction) =>
  h.server.deps.db.sequelize.query(`SELECT pg_advisory_xact_lock(hashtextextended(:key, 402))`, {
    transaction: hold,
    replacements: { key: `x402-gas:${gasKey.address.toLowerCase()}` },
  });

/**
 * Until `settlements` settlements wait in PostgreSQL for the gas key holdGasKey holds (verified,
 * about to sign). The test servers share this process's queue per gas key: only its first waits there.
 */
const waitingForGasKey = (settlements: number) =>
  until(`${settlements} settlement(s) waiting for the gas key`, async () => {
    const [row] = await h.server.deps.db.sequelize.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      { type: QueryTypes.SELECT },
    );
    return row!.waiting >= settlements;
  });
