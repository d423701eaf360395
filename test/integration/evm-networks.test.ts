import { decodeFunctionData, erc20Abi, getAddress, toHex, type Address, type Hex } from 'viem';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { parseUnits } from '../../contract/decimal';
import {
  startLocalEvm,
  type LocalEvm,
  type LocalWallet,
  randomEvmAddress,
} from '../../sandbox/chains/evm/local-evm';
import { startPaymentHarness, type PaymentHarness, usePaymentStack } from '../support/payment-harness';
import { expectErrorBody } from '../support/test-server';
import { payThroughLink, payThroughRequest, payUntaggedAndReportSigned } from '../support/evm-payers';

/**
 * Networks turned on by configuration alone: BASE (chain id 8453) taking USDC of 6 decimals and BSC
 * (chain id 56) taking USDT of 18 decimals, each a Hardhat node of its own. POLYGON and ETHEREUM
 * are turned off. Every amount is checked in the token's own base units: 12.5 of the 18-decimal
 * token is 12500000000000000000 units, and one unit more is an overpayment by one unit.
 */

const NETWORKS = [
  { network: 'BASE', chainId: 8453, confirmations: 3, token: 'USDC', decimals: 6 },
  { network: 'BSC', chainId: 56, confirmations: 4, token: 'USDT', decimals: 18 },
] as const;
type NetworkName = (typeof NETWORKS)[number]['network'];

const chains = {} as Record<NetworkName, { evm: LocalEvm; token: Address }>;
/** A USDC contract on BSC with 6 decimals, where the configuration (BSC's default) says 18. */
let wrongDecimalsUsdc: Address;
let h: PaymentHarness;
/** Errors logged at start about refused tokens (the logs are cleared after each test). */
let refusals: PaymentHarness['logs'] = [];

usePaymentStack(
  async () => {
    await Promise.all(
      NETWORKS.map(async ({ network, chainId, token, decimals }) => {
        const evm = await startLocalEvm({ chainId });
        const address = getAddress(await evm.deployToken({ name: token, symbol: token, decimals }));
        chains[network] = { evm, token: address };
        if (network === 'BSC') wrongDecimalsUsdc = getAddress(await evm.deployToken({ symbol: 'USDC' }));
      }),
    );
    h = await startPaymentHarness({
      PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: '2',
      EVM_LOG_RANGE: '5',
      POLYGON_RPC_URL: 'none',
      ETHEREUM_RPC_URL: 'none',
      // BASE at its defaults but the RPC, the confirmations and USDC (USDT off); BSC's chain id and
      // decimals are its defaults too.
      BASE_RPC_URL: chains.BASE.evm.url,
      BASE_CONFIRMATIONS: '3',
      USDC_CONTRACT_BASE: chains.BASE.token.toLowerCase(),
      USDT_CONTRACT_BASE: 'none',
      BSC_RPC_URL: chains.BSC.evm.url,
      BSC_CONFIRMATIONS: '4',
      USDT_CONTRACT_BSC: chains.BSC.token,
      USDC_CONTRACT_BSC: wrongDecimalsUsdc,
    });
    // The check of the tokens' decimals runs in the background at start: wait for it.
    await Promise.all(h.server.deps.chains.all().map((c) => c.verifyTokens()));
    refusals = h.logs.filter((l) => l.level >= 50 && /USDC on BSC is refused/.test(l.msg));
  },
  () => [h, chains.BASE?.evm, chains.BSC?.evm],
);

const freshAddress = randomEvmAddress;
const tagOf = (reference: string) => toHex(decodeBase58(reference)!);

describe('GET /networks and networks that are off', () => {
  it('lists the networks that are on with their tokens and decimals; a refused token is left out', async () => {
    const res = await h.server.api('GET', '/networks');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const byName = Object.fromEntries(res.body.items.map((n: { network: string }) => [n.network, n]));
    expect(Object.keys(byName).sort()).toEqual(['BASE', 'BSC', 'SOLANA']);
    expect(byName.BASE).toEqual({
      network: 'BASE',
      name: 'Base',
      kind: 'evm',
      chainId: 8453,
      walletChain: null,
      confirmations: 3,
      commitment: null,
      explorer: { name: 'BaseScan', txUrl: 'https://basescan.org/tx/{tx}' },
      tokens: [{ symbol: 'USDC', contract: chains.BASE.token, decimals: 6 }],
    });
    expect(byName.BSC.tokens).toEqual([{ symbol: 'USDT', contract: chains.BSC.token, decimals: 18 }]);
    // A browser wallet is asked for the cluster the service's RPC is on: a local validator here.
    expect(byName.SOLANA).toMatchObject({
      kind: 'solana',
      chainId: null,
      walletChain: 'solana:localnet',
      confirmations: null,
    });
  });

  it('refuses the token whose contract reports other decimals, saying why, and logs it as an error', async () => {
    const shop = await h.newShop('BSC', freshAddress());
    const res = await h.server.api('POST', '/orders', {
      token: shop.token,
      body: { network: 'BSC', token: 'USDC', amount: '5' },
    });
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[0].path).toBe('body.token');
    expect(res.body.error.details[0].message).toContain('reports 6 decimals, the configuration says 18');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ network: 'BSC' });
  });

  it('refuses orders and wallets on a network that is off, naming it', async () => {
    const shop = await h.newShop('BASE', freshAddress());
    for (const network of ['POLYGON', 'ARBITRUM']) {
      const order = await h.server.api('POST', '/orders', {
        token: shop.token,
        body: { network, token: 'USDT', amount: '5' },
      });
      expectErrorBody(order, 400, 'VALIDATION_ERROR');
      expect(order.body.error.details[0]).toEqual({
        path: 'body.network',
        message: `${network} is not enabled on this server (its operator sets ${network}_RPC_URL to turn it on)`,
      });
      const wallet = await h.server.api('POST', '/users/me/wallets', {
        token: shop.token,
        body: { network, public_address: freshAddress() },
      });
      expectErrorBody(wallet, 400, 'VALIDATION_ERROR');
      expect(wallet.body.error.details[0].message).toContain(`${network} is not enabled`);
    }
  });
});

describe.each(NETWORKS)('$network ($token, $decimals decimals)', (n) => {
  const c = () => chains[n.network];
  const units = (amount: string) => parseUnits(amount, n.decimals);
  /** One wire unit (0.000001 token) in base units. */
  const step = 10n ** BigInt(n.decimals - 6);
  const confirm = () => c().evm.mine(n.confirmations);
  const createOrder = (
    shop: { token: string; network: string; path: string; secret: string },
    amount: string,
  ) => h.createOrder(shop, { token: n.token, amount });
  const payer = () => c().evm.newWallet({ token: c().token, units: units('1000') });
  const payByRequest = (reference: string, from: LocalWallet) =>
    payThroughRequest(
      h,
      c().evm,
      { network: n.network, chainId: n.chainId, token: c().token },
      reference,
      from,
    );
  const payByLink = (payUrl: string, from: LocalWallet) => payThroughLink(c().evm, n.chainId, payUrl, from);

  it('paid by its tag through the transaction request: links, call data and balances in base units', async () => {
    const shop = await h.newShop(n.network, freshAddress());
    const order = await createOrder(shop, '12.5');
    expect(order).toMatchObject({
      amount: '12.500000',
      decimals: n.decimals,
      tokenMintOrContract: c().token,
      txRequestUrl: null,
    });
    const info = await h.server.api('GET', `/pay/${order.reference}/info`);
    expect(info.body).toMatchObject({ amountDue: '12.500000', decimals: n.decimals });
    expect(order.payUrl).toBe(
      `ethereum:${c().token}@${n.chainId}/transfer?address=${shop.wallet}&uint256=${units('12.5')}`,
    );
    const req = await h.server.api('GET', `/pay/tx-request/${order.reference}`);
    expect(req.body.amount).toBe('12.500000');
    expect(decodeFunctionData({ abi: erc20Abi, data: req.body.data as Hex }).args).toEqual([
      getAddress(shop.wallet),
      units('12.5'),
    ]);
    const from = await payer();
    const txId = await payByRequest(order.reference, from);
    expect((await h.submitTx(order.reference, txId)).status).toBe(202);
    await c().evm.mine(n.confirmations - 1);
    await h.runJobsFor(2);
    expect((await h.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    await c().evm.mine(1);
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '12.500000', txId });
    const verified = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'payment.verified');
    expect(verified?.data).toMatchObject({ matchedBy: 'tag', amount: '12.500000' });
    expect(h.webhookTypes(shop, order.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.paid',
    ]);
    expect(await c().evm.balanceOf(c().token, shop.wallet as Address)).toBe(units('12.5'));
  });

  it('paid by exact amount from the link, found by the scanner; the next order is raised by 0.000001', async () => {
    const shop = await h.newShop(n.network, freshAddress());
    const first = await createOrder(shop, '5');
    const second = await createOrder(shop, '5');
    expect(second.amount).toBe('5.000001');
    expect(second.payUrl).toContain(`uint256=${units('5') + step}`);
    await h.server.jobs.runNow('scan-payments');
    const txId = await payByLink(second.payUrl, await payer());
    await confirm();
    expect(await h.settle(shop, second.reference, 'PAID')).toMatchObject({
      amountReceived: '5.000001',
      txId,
    });
    const verified = (await h.auditOf(shop, second.reference)).find((e) => e.type === 'payment.verified');
    expect(verified?.data).toMatchObject({ matchedBy: 'amount', source: 'scanner' });
    expect((await h.getOrder(shop, first.reference)).status).toBe('PENDING');
  });

  it('an untagged underpayment reported by the payer, signed by the sender, counts as a claim, then is topped up', async () => {
    const shop = await h.newShop(n.network, freshAddress());
    const order = await createOrder(shop, '20');
    const from = await payer();
    await payUntaggedAndReportSigned(h, c().evm, {
      from,
      token: c().token,
      to: shop.wallet,
      units: units('19.2'),
      confirmations: n.confirmations,
      reference: order.reference,
    });
    const under = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(under.amountReceived).toBe('19.200000');
    expect(under.payUrl).toContain(`uint256=${units('0.8')}`);
    const claim = (await h.auditOf(shop, order.reference)).find((e) => e.type === 'payment.verified');
    expect(claim?.data).toMatchObject({ matchedBy: 'claim', source: 'payer' });
    const req = await h.server.api('GET', `/pay/tx-request/${order.reference}`);
    expect(req.body.amount).toBe('0.800000');
    const rest = await payByRequest(order.reference, from);
    await confirm();
    expect(await h.settle(shop, order.reference, 'PAID')).toMatchObject({
      amountReceived: '20.000000',
      txId: rest,
    });
  });

  it('overpaid by one base unit: recorded as such in the order and its ledger, never rounded away', async () => {
    const shop = await h.newShop(n.network, freshAddress());
    const order = await createOrder(shop, '3');
    const txId = await c().evm.transfer({
      from: await payer(),
      token: c().token,
      to: shop.wallet as Address,
      units: units('3') + 1n,
      dataSuffix: tagOf(order.reference),
    });
    await confirm();
    const oneUnitOver = `3.${'0'.repeat(n.decimals - 1)}1`;
    expect(await h.settle(shop, order.reference, 'PAID')).toMatchObject({
      amount: '3.000000',
      amountReceived: oneUnitOver,
      txId,
    });
    const ledger = await h.server.api('GET', `/orders/${order.reference}/payments`, { token: shop.token });
    expect(ledger.body.items).toEqual([
      expect.objectContaining({ txId, amount: oneUnitOver, matchedBy: 'tag' }),
    ]);
    // The accountant's file and the overview say the same, to the unit.
    const today = new Date().toISOString().slice(0, 10);
    const csv = await h.server.api('GET', `/dashboard/exports/orders.csv?from=${today}&to=${today}`, {
      token: shop.token,
    });
    const [header, row] = parse(csv.text) as string[][];
    const column = (name: string) => row![header!.indexOf(name)];
    expect([column('reference'), column('amount'), column('amount_received')]).toEqual([
      order.reference,
      '3.000000',
      oneUnitOver,
    ]);
    await h.server.jobs.runNow('refresh-dashboard-stats');
    const summary = await h.server.api('GET', `/dashboard/summary?from=${today}&to=${today}`, {
      token: shop.token,
    });
    expect(summary.body.received).toEqual([{ network: n.network, token: n.token, amount: oneUnitOver }]);
  });

  it('refunded from the receiving wallet: the tagged transfer in base units, verified, SUCCEEDED', async () => {
    const merchantKey = await c().evm.newWallet();
    const shop = await h.newShop(n.network, merchantKey.address);
    const order = await createOrder(shop, '10');
    const from = await payer();
    await payByRequest(order.reference, from);
    await confirm();
    await h.settle(shop, order.reference, 'PAID');
    const before = await c().evm.balanceOf(c().token, from.address);
    const created = await h.server.api('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { amount: '2.5', to: from.address, reason: 'One item missing' },
    });
    expect(created.status, created.text).toBe(201);
    const refund = created.body;
    expect(refund).toMatchObject({ amount: '2.500000', status: 'PENDING' });
    expect(refund.payUrl).toBe(
      `ethereum:${c().token}@${n.chainId}/transfer?address=${from.address}&uint256=${units('2.5')}`,
    );
    const built = refund.transaction as { to: Address; data: Hex };
    expect(decodeFunctionData({ abi: erc20Abi, data: built.data.slice(0, 138) as Hex }).args).toEqual([
      from.address,
      units('2.5'),
    ]);
    await c().evm.sendTransaction({ from: merchantKey, to: built.to, data: built.data });
    await confirm();
    const deadline = Date.now() + 15_000;
    let status = refund.status as string;
    while (status !== 'SUCCEEDED' && Date.now() < deadline) {
      await h.server.jobs.runNow('verify-refunds');
      const list = await h.server.api('GET', `/orders/${order.reference}/refunds`, { token: shop.token });
      status = list.body.items[0].status;
    }
    expect(status).toBe('SUCCEEDED');
    expect(await c().evm.balanceOf(c().token, from.address)).toBe(before + units('2.5'));
    expect((await h.getOrder(shop, order.reference)).amountRefunded).toBe('2.500000');
  });

  it('a payment dropped by a reorganisation within the confirmation depth is never credited', async () => {
    const shop = await h.newShop(n.network, freshAddress());
    const order = await createOrder(shop, '11');
    await h.server.jobs.runNow('scan-payments');
    const snapshot = await c().evm.snapshot();
    const txId = await payByLink(order.payUrl, await payer());
    expect((await h.submitTx(order.reference, txId)).status).toBe(202);
    await c().evm.mine(n.confirmations - 2);
    await h.runJobsFor(2);
    expect((await h.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    await c().evm.revert(snapshot);
    await c().evm.mine(n.confirmations + 2);
    await h.runJobs(async () => (await h.getOrder(shop, order.reference)).status !== 'CONFIRMING', {
      timeoutMs: 20_000,
    });
    expect(await h.getOrder(shop, order.reference)).toMatchObject({
      status: 'PENDING',
      amountReceived: '0.000000',
    });
    expect(h.webhookTypes(shop, order.reference)).not.toContain('order.paid');
  });
});
