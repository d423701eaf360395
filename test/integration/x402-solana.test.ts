import { Keypair, SystemProgram, type PublicKey } from '@solana/web3.js';
import { SOLANA_MAINNET_CAIP2 } from '@x402/svm';
import { QueryTypes } from 'sequelize';
import { describe, expect, it } from 'vitest';
import { encodeBase58 } from '../../server/lib/base58';
import { followUpSettlements } from '../../server/x402/follow-up-settlements';
import { startLocalSolana, type LocalSolana } from '../../sandbox/chains/solana/local-solana';
import { startPaymentHarness, usePaymentStack, type PaymentHarness } from '../support/payment-harness';
import { expectErrorBody, newApiKey, startTestServer, type TestServer } from '../support/test-server';
import {
  decodePaymentResponseHeader,
  payingSolanaFetch,
  solanaPayment,
  startPaidApi,
  type SolanaPaymentOptions,
} from '../support/x402-stack';
import { expectSettledOnce } from '../support/x402-settled-once';
import { whileRunning } from '../support/while-running';

/**
 * x402 v2 `exact` on the local Solana chain (litesvm behind JSON-RPC, standing in for mainnet's
 * cluster id, the default X402_SOLANA_CLUSTER): the service is the facilitator of an API paid per
 * call (@x402/express), paid by @x402/fetch with @x402/svm's client scheme. The payer signs its
 * token transfer; the facilitator co-signs as fee payer and pays the fee, nothing else.
 */

const NETWORK = SOLANA_MAINNET_CAIP2;
const PRICE = 10_000n; // 0.01 USDC
const PAYER_UNITS = 1_000_000n;
const SOL = 1_000_000_000n;

let chain: LocalSolana;
let usdc: PublicKey;
let stranger: PublicKey;
let feePayer: Keypair;
let h: PaymentHarness;
let second: TestServer;
let env: Record<string, string>;

usePaymentStack(
  async () => {
    chain = await startLocalSolana();
    usdc = await chain.createMint();
    stranger = await chain.createMint();
    feePayer = Keypair.generate();
    await chain.fundSol(feePayer.publicKey, SOL);
    env = {
      SOLANA_RPC_URL: chain.url,
      SOLANA_COMMITMENT: 'confirmed',
      USDC_MINT_SOLANA: usdc.toBase58(),
      USDT_MINT_SOLANA: (await chain.createMint()).toBase58(),
      X402_SOLANA_FEE_PAYER_KEY: encodeBase58(feePayer.secretKey),
      X402_MAX_AMOUNT: '5',
    };
    h = await startPaymentHarness(env);
    second = await startTestServer({ ...env, JOBS: 'none' });
  },
  () => [h, second, chain],
);

const api = () => h.server.api;
const lamports = (key: PublicKey) => chain.connection.getBalance(key, 'confirmed').then(BigInt);
const usdcOf = (owner: PublicKey) => chain.tokenBalance(owner, usdc);

/** A shop with a Solana wallet (its USDC account open, as x402 needs) and a key that may settle. */
async function x402Shop() {
  const wallet = Keypair.generate().publicKey;
  await chain.mintTo(wallet, usdc, 0n);
  const shop = await h.newShop('SOLANA', wallet.toBase58());
  const apiKey = await newApiKey(api(), shop.token, ['x402:settle', 'orders:read']);
  return { ...shop, apiKey, payTo: wallet };
}
const payer = () => chain.newPayer({ mint: usdc, units: PAYER_UNITS });

/** The payer's transfer to `payTo`, signed by the payer only (x402-stack's solanaPayment). */
const payment = (from: Keypair, payTo: PublicKey, o: SolanaPaymentOptions = {}) =>
  solanaPayment(chain.connection, { from, payTo, mint: usdc, feePayer: feePayer.publicKey, ...o });
type Body = Awaited<ReturnType<typeof payment>>;

const facilitator = (server: TestServer, path: 'verify' | 'settle', key: string, body: unknown) =>
  server.api('POST', `/x402/${path}`, { token: key, body });
const settle = (key: string, body: unknown, server: TestServer = h.server) =>
  facilitator(server, 'settle', key, body);

async function x402Orders(shop: { apiKey: string }) {
  const res = await api()('GET', '/users/me/orders?kind=x402', { token: shop.apiKey });
  expect(res.status, res.text).toBe(200);
  return res.body.items as Record<string, unknown>[];
}

describe('x402 facilitator on Solana', () => {
  it('settles a paid API call end to end: tokens move, the payer pays no fee, an x402 order is paid', async () => {
    const shop = await x402Shop();
    await whileRunning(
      startPaidApi({
        facilitatorUrl: `${h.server.url}/x402`,
        apiKey: shop.apiKey,
        network: NETWORK,
        asset: usdc.toBase58(),
        payTo: shop.payTo.toBase58(),
        amountUnits: PRICE.toString(),
      }),
      async (paidApi) => {
        const from = await payer();
        const solBefore = await lamports(from.publicKey);
        const feePayerBefore = await lamports(feePayer.publicKey);
        const unpaid = await fetch(`${paidApi.url}/paid`);
        expect(unpaid.status).toBe(402);

        const { fetch: pay } = await payingSolanaFetch(from.secretKey, chain.url, NETWORK, usdc.toBase58());
        const res = await pay(`${paidApi.url}/paid`);
        expect(res.status, await res.clone().text()).toBe(200);
        expect(await res.json()).toEqual({ answer: 42 });
        const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
        expect(receipt).toMatchObject({ success: true, network: NETWORK, payer: from.publicKey.toBase58() });

        expect(await usdcOf(from.publicKey)).toBe(PAYER_UNITS - PRICE);
        expect(await usdcOf(shop.payTo)).toBe(PRICE);
        // The payer paid no fee; the fee payer paid the fee only (5,000 lamports a signature, two).
        expect(await lamports(from.publicKey)).toBe(solBefore);
        const fee = feePayerBefore - (await lamports(feePayer.publicKey));
        expect(fee).toBeGreaterThan(0n);
        expect(fee).toBeLessThan(20_000n);
        const onChain = await chain.connection.getTransaction(receipt.transaction, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        });
        expect(onChain!.transaction.message.staticAccountKeys[0]!.toBase58()).toBe(
          feePayer.publicKey.toBase58(),
        );
        expect(paidApi.calls).toBe(1);

        const [order] = await x402Orders(shop);
        expect(order).toMatchObject({
          kind: 'x402',
          amount: '0.010000',
          token: 'USDC',
          network: 'SOLANA',
          payer: from.publicKey.toBase58(),
          resource: `${paidApi.url}/paid`,
          recipient: shop.payTo.toBase58(),
        });
        const reference = order!.reference as string;
        const paid = await h.settle(shop, reference, 'PAID');
        expect(paid).toMatchObject({ amountReceived: '0.010000', txId: receipt.transaction });
        const [entry] = await h.ledgerOf(shop, reference);
        expect(entry).toMatchObject({ matchedBy: 'x402', txId: receipt.transaction });
        expect(h.webhookTypes(shop, reference)).toContain('order.paid');
        const unattributed = await api()('GET', '/users/me/unattributed-payments', { token: shop.token });
        expect(unattributed.body.items).toEqual([]);
      },
    );
  });

  it('lists exact on Solana with the fee payer, and shows its balance', async () => {
    const shop = await x402Shop();
    const supported = await api()('GET', '/x402/supported', { token: shop.apiKey });
    expect(supported.body).toEqual({
      kinds: [
        {
          x402Version: 2,
          scheme: 'exact',
          network: NETWORK,
          extra: { feePayer: feePayer.publicKey.toBase58() },
        },
      ],
      extensions: [],
      signers: { 'solana:*': [feePayer.publicKey.toBase58()] },
    });
    // The Developers page shows the fee payer's balance beside the EVM gas keys.
    const shown = await api()('GET', '/dashboard/x402/gas-keys', { token: shop.token });
    expect(shown.body).toEqual({
      warnBelowSettlements: 100,
      gasKeys: [
        {
          network: 'SOLANA',
          caip2: NETWORK,
          address: feePayer.publicKey.toBase58(),
          coin: 'SOL',
          balance: expect.stringMatching(/^\d+\.\d+$/),
          settlementsLeft: expect.any(Number),
          low: false,
        },
      ],
      notConfigured: ['X402_EVM_PRIVATE_KEY'],
    });
  });

  it('settles one transaction once: replayed, then raced on two instances', async () => {
    const shop = await x402Shop();
    const from = await payer();
    await expectSettledOnce((b, server) => settle(shop.apiKey, b, server), [h.server, second], {
      body: await payment(from, shop.payTo),
      raced: await payment(from, shop.payTo),
      payer: from.publicKey.toBase58(),
    });
    expect(await usdcOf(from.publicKey)).toBe(PAYER_UNITS - 2n * PRICE);
    expect(await usdcOf(shop.payTo)).toBe(2n * PRICE);
    expect(await x402Orders(shop)).toHaveLength(2);
  });

  it('refuses what is not this account’s to take, and what would make the fee payer pay, sending nothing', async () => {
    const shop = await x402Shop();
    const other = await x402Shop();
    const from = await payer();
    // The fee payer holds tokens of its own (it should not, but a thief would look for them).
    await chain.mintTo(feePayer.publicKey, usdc, 1_000_000n);
    const cases: [string, Body, string][] = [
      [
        'wrong amount',
        await payment(from, shop.payTo, { units: PRICE - 1n }),
        'invalid_exact_svm_payload_amount_mismatch',
      ],
      ["another account's payTo", await payment(from, other.payTo), 'invalid_pay_to'],
      ['an unknown mint', await payment(from, shop.payTo, { mint: stranger }), 'invalid_asset'],
      [
        'above X402_MAX_AMOUNT',
        await payment(from, shop.payTo, { amountUnits: 5_000_001n }),
        'amount_too_large',
      ],
      [
        "the fee payer's tokens to the shop",
        await payment(from, shop.payTo, { authority: feePayer.publicKey }),
        'invalid_exact_svm_payload_transaction_fee_payer_transferring_funds',
      ],
      [
        "the fee payer's SOL to the shop",
        await payment(from, shop.payTo, {
          more: [
            SystemProgram.transfer({
              fromPubkey: feePayer.publicKey,
              toPubkey: shop.payTo,
              lamports: 1_000_000,
            }),
          ],
        }),
        'invalid_exact_svm_payload_transaction_fee_payer_transferring_funds',
      ],
      [
        "the payer's SOL to the shop, beside the transfer",
        await payment(from, shop.payTo, {
          more: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: shop.payTo, lamports: 1 })],
        }),
        'invalid_exact_svm_payload_unknown_fifth_instruction',
      ],
    ];
    const feePayerBefore = await lamports(feePayer.publicKey);
    for (const [what, body, reason] of cases) {
      const verified = await facilitator(h.server, 'verify', shop.apiKey, body);
      expect(verified.body, what).toMatchObject({ isValid: false, invalidReason: reason });
      const settled = await settle(shop.apiKey, body);
      expect(settled.body, what).toMatchObject({ success: false, errorReason: reason, transaction: '' });
    }
    expect(await lamports(feePayer.publicKey)).toBe(feePayerBefore);
    expect(await chain.tokenBalance(feePayer.publicKey, usdc)).toBe(1_000_000n);
    expect(await usdcOf(from.publicKey)).toBe(PAYER_UNITS);
    expect(await usdcOf(shop.payTo)).toBe(0n);
    expect(await x402Orders(shop)).toEqual([]);
    const good = await facilitator(h.server, 'verify', shop.apiKey, await payment(from, shop.payTo));
    expect(good.body).toEqual({ isValid: true, payer: from.publicKey.toBase58() });
  });

  it('needs an API key with x402:settle, and the fee payer key', async () => {
    const shop = await x402Shop();
    const body = await payment(await payer(), shop.payTo);
    const readOnly = await newApiKey(api(), shop.token, ['orders:read']);
    for (const path of ['verify', 'settle']) {
      expectErrorBody(await api()('POST', `/x402/${path}`, { body }), 401, 'UNAUTHENTICATED');
      expectErrorBody(await api()('POST', `/x402/${path}`, { token: readOnly, body }), 403, 'FORBIDDEN');
    }
    const { X402_SOLANA_FEE_PAYER_KEY: _key, ...keyless } = env;
    await whileRunning(startTestServer({ ...keyless, JOBS: 'none' }), async (bare) => {
      const res = await bare.api('POST', '/x402/settle', { token: shop.apiKey, body });
      expectErrorBody(res, 503, 'NOT_CONFIGURED');
      expect(res.body.error.message).toContain('X402_SOLANA_FEE_PAYER_KEY');
    });
  });

  it('with the fee payer empty: a clear error, nothing paid, the payment still usable', async () => {
    const shop = await x402Shop();
    const from = await payer();
    const broke = Keypair.generate();
    await whileRunning(
      startTestServer({
        ...env,
        X402_SOLANA_FEE_PAYER_KEY: encodeBase58(broke.secretKey),
        JOBS: 'none',
      }),
      async (poor) => {
        const body = await payment(from, shop.payTo);
        body.paymentRequirements.extra.feePayer = broke.publicKey.toBase58();
        const refused = await settle(shop.apiKey, body, poor);
        expect(refused.body).toMatchObject({
          success: false,
          errorReason: 'insufficient_gas_funds',
          transaction: '',
        });
        expect(refused.body.errorMessage).toContain(broke.publicKey.toBase58());
        expect(await usdcOf(from.publicKey)).toBe(PAYER_UNITS);
        expect(await x402Orders(shop)).toEqual([]);
        const rows = await h.server.deps.db.sequelize.query(
          `SELECT id FROM x402_settlements WHERE merchant_id = :id`,
          { type: QueryTypes.SELECT, replacements: { id: shop.id } },
        );
        expect(rows).toEqual([]);
      },
    );
  });

  it('answers settlement_pending when confirmation is late, and follows it up', async () => {
    await whileRunning(startPaymentHarness({ ...env, X402_SETTLE_TIMEOUT_MS: '300' }), async (slow) => {
      const shop = await x402Shop();
      const from = await payer();
      // No status can be read while the chain is slow to answer.
      chain.setRpcFault((method) =>
        method === 'getSignatureStatuses'
          ? { rpcError: { code: -32005, message: 'Node is behind' } }
          : undefined,
      );
      let pending;
      try {
        pending = await settle(shop.apiKey, await payment(from, shop.payTo), slow.server);
      } finally {
        chain.setRpcFault(null);
      }
      expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
      const [order] = await x402Orders(shop);
      expect(order).toMatchObject({ kind: 'x402', status: 'CONFIRMING' });
      await followUpSettlements(slow.server.deps);
      const [row] = (await h.server.deps.db.sequelize.query(
        `SELECT status FROM x402_settlements WHERE transaction = :tx`,
        { type: QueryTypes.SELECT, replacements: { tx: pending.body.transaction } },
      )) as { status: string }[];
      expect(row!.status).toBe('settled');
      const paid = await slow.settle(shop, order!.reference as string, 'PAID');
      expect(paid.txId).toBe(pending.body.transaction);
      expect(await usdcOf(shop.payTo)).toBe(PRICE);
    });
  });

  it('gives a pending settlement whose transaction never landed an end once its blockhash has expired', async () => {
    await whileRunning(startPaymentHarness({ ...env, X402_SETTLE_TIMEOUT_MS: '300' }), async (slow) => {
      const shop = await x402Shop();
      const from = await payer();
      // The broadcast's answer is lost (it may have gone out), and in fact it never reached the chain.
      chain.setRpcFault((method) => (method === 'sendTransaction' ? { httpStatus: 503 } : undefined));
      let pending;
      try {
        pending = await settle(shop.apiKey, await payment(from, shop.payTo), slow.server);
      } finally {
        chain.setRpcFault(null);
      }
      expect(pending.body, pending.text).toMatchObject({ success: false, errorReason: 'settlement_pending' });
      const rowOf = async () =>
        (
          (await h.server.deps.db.sequelize.query(
            `SELECT status, error_reason FROM x402_settlements WHERE transaction = :tx`,
            { type: QueryTypes.SELECT, replacements: { tx: pending.body.transaction } },
          )) as { status: string; error_reason: string | null }[]
        )[0];
      // While its blockhash is valid it may still land: it stays pending, however often looked at.
      await followUpSettlements(slow.server.deps);
      await followUpSettlements(slow.server.deps);
      expect(await rowOf()).toMatchObject({ status: 'pending' });
      chain.advanceSlots(200);
      await followUpSettlements(slow.server.deps);
      expect(await rowOf()).toEqual({ status: 'failed', error_reason: 'transaction_expired' });
      expect(await usdcOf(from.publicKey)).toBe(PAYER_UNITS);
      // Looked at again, it stays as it is (no longer read).
      expect(await followUpSettlements(slow.server.deps)).toBe(0);
    });
  });

  it('gives back a payment the node refused outright: nothing sent, presented again it settles', async () => {
    const shop = await x402Shop();
    const from = await payer();
    const body = await payment(from, shop.payTo);
    chain.setRpcFault((method) =>
      method === 'sendTransaction' ? { rpcError: { code: -32005, message: 'Node is unhealthy' } } : undefined,
    );
    let refused;
    try {
      refused = await settle(shop.apiKey, body);
    } finally {
      chain.setRpcFault(null);
    }
    expect(refused.body).toMatchObject({
      success: false,
      errorReason: 'transaction_rejected',
      transaction: '',
    });
    expect(await usdcOf(shop.payTo)).toBe(0n);
    const again = await settle(shop.apiKey, body, second);
    expect(again.body, again.text).toMatchObject({ success: true });
    expect(await usdcOf(shop.payTo)).toBe(PRICE);
    expect(await x402Orders(shop)).toHaveLength(1);
  });
});
