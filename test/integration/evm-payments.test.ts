import { randomBytes } from 'node:crypto';
import { decodeFunctionData, erc20Abi, getAddress, toHex, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { type LocalWallet, randomEvmAddress } from '../../sandbox/chains/evm/local-evm';
import { startEvmNetworks, type EvmNetworkChain } from '../../sandbox/chains/evm/evm-networks';
import { sleep, startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import { payThroughLink, payThroughRequest, payUntaggedAndReportSigned } from '../support/evm-payers';
import type { HarnessShop, PaymentHarness } from '../support/payment-harness';
import { freePort } from '../support/free-port';
import { expectErrorBody } from '../support/test-server';

/**
 * Polygon and Ethereum payments end to end on two real local EVM chains (Hardhat nodes with chain
 * ids 137 and 1, a 6-decimal ERC-20 on each). The service reaches them only through
 * POLYGON_RPC_URL / ETHEREUM_RPC_URL; jobs are driven by hand.
 */

const NOT_FOUND_TIMEOUT_SECONDS = 2;
const NETWORKS = [
  { network: 'POLYGON', chainId: 137, confirmations: 3 },
  { network: 'ETHEREUM', chainId: 1, confirmations: 5 },
] as const;
type NetworkName = (typeof NETWORKS)[number]['network'];

let networks: Awaited<ReturnType<typeof startEvmNetworks<NetworkName>>>;
let chains: Record<NetworkName, EvmNetworkChain & { other: Address }>;
let h: PaymentHarness;
let deadEndpoint: string;

usePaymentStack(
  async () => {
    networks = await startEvmNetworks(NETWORKS);
    const withOther = async ({ network }: (typeof NETWORKS)[number]) => {
      const { evm } = networks.chains[network];
      return [
        network,
        {
          ...networks.chains[network],
          other: getAddress(await evm.deployToken({ name: 'Other', symbol: 'OTH' })),
        },
      ];
    };
    chains = Object.fromEntries(await Promise.all(NETWORKS.map(withOther)));
    const env: Record<string, string> = {
      ...networks.env,
      PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: String(NOT_FOUND_TIMEOUT_SECONDS),
      // Small ranges, so scanning across several of them is exercised.
      EVM_LOG_RANGE: '7',
    };
    deadEndpoint = `http://127.0.0.1:${await freePort()}`;
    // Ethereum gets an endpoint list whose first endpoint is down: every call fails over.
    env.ETHEREUM_RPC_URL = `${deadEndpoint},${chains.ETHEREUM.evm.url}`;
    // Configured in lower case; the service shows contracts checksummed (EIP-55).
    for (const { network } of NETWORKS) env[`USDT_CONTRACT_${network}`] = chains[network].usdt.toLowerCase();
    h = await startPaymentHarness(env);
  },
  () => [h, networks],
);

const unknownHash = () => toHex(randomBytes(32));
const freshAddress = randomEvmAddress;

describe.each(NETWORKS)('$network payments', ({ network, chainId, confirmations }) => {
  const c = () => chains[network];
  const units = (amount: string) => BigInt(Math.round(Number(amount) * 1e6));

  async function newShop(): Promise<HarnessShop> {
    return h.newShop(network, freshAddress());
  }
  async function payer(units = 1_000_000_000n): Promise<LocalWallet> {
    return c().evm.newWallet({ token: c().usdt, units });
  }
  /** Mines the blocks that make everything so far final. */
  const confirm = () => c().evm.mine(confirmations);
  const payByRequest = (reference: string, from: LocalWallet) =>
    payThroughRequest(h, c().evm, { network, chainId, token: c().usdt }, reference, from);
  const payByLink = (payUrl: string, from: LocalWallet) => payThroughLink(c().evm, chainId, payUrl, from);

  /** A transfer tagged with the order (as the transaction request would make it) of any amount. */
  const tagOf = (reference: string) => toHex(decodeBase58(reference)!);

  it('exact, through the transaction request and submit-tx: CONFIRMING until final, then PAID by its tag', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '12.5' });
    expect(order).toMatchObject({
      tokenMintOrContract: c().usdt,
      recipient: shop.wallet,
      txRequestUrl: null,
    });
    expect(order.payUrl).toBe(
      `ethereum:${c().usdt}@${chainId}/transfer?address=${shop.wallet}&uint256=12500000`,
    );
    const from = await payer();
    const req = await h.server.api('GET', `/pay/tx-request/${order.reference}`);
    const call = decodeFunctionData({ abi: erc20Abi, data: req.body.data as Hex });
    expect(call.args).toEqual([getAddress(shop.wallet), 12_500_000n]);
    expect((req.body.data as string).slice(-64)).toBe(tagOf(order.reference).slice(2));

    const txId = await payByRequest(order.reference, from);
    // Reported in upper case: the same transaction as its lower-case form.
    const submitted = await h.submitTx(order.reference, `0x${txId.slice(2).toUpperCase()}`);
    expect(submitted.status, submitted.text).toBe(202);
    expect(submitted.body.status).toBe('CONFIRMING');
    expect((await h.submitTx(order.reference, txId)).status).toBe(202); // the same claim again
    await c().evm.mine(confirmations - 1);
    await h.runJobsFor(3);
    expect((await h.getOrder(shop, order.reference)).status).toBe('CONFIRMING');
    await c().evm.mine(1);

    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '12.500000', txId, paidLate: false });
    const audit = await h.auditOf(shop, order.reference);
    expect(audit.map((e) => e.type)).toEqual([
      'order.created',
      'tx_request.issued',
      'tx_request.issued',
      'tx.submitted',
      'status.changed',
      'payment.verified',
      'status.changed',
    ]);
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      actor: 'system',
      data: { txId, amount: '12.500000', matchedBy: 'tag', source: 'payer', from: from.address },
    });
    expect(h.statusChanges(audit)).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->PAID']);
    expect(h.webhookTypes(shop, order.reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.paid',
    ]);
    expect(h.lastWebhook(shop, order.reference, 'order.paid')).toMatchObject({ status: 'PAID', txId });
    expect(await c().evm.balanceOf(c().usdt, shop.wallet as Address)).toBe(12_500_000n);
  });

  it('exact, by a plain transfer from the EIP-681 link that nobody reports: found by the scanner', async () => {
    const shop = await newShop();
    const first = await h.createOrder(shop, { amount: '5' });
    const second = await h.createOrder(shop, { amount: '5' });
    expect(second.amount).toBe('5.000001'); // made unique: a plain transfer carries no tag
    await h.server.jobs.runNow('scan-payments');
    const from = await payer();
    const txId = await payByLink(second.payUrl, from);
    await c().evm.mine(confirmations - 1);
    await h.runJobsFor(2);
    expect((await h.getOrder(shop, second.reference)).status).toBe('PENDING'); // not final yet
    await c().evm.mine(1);

    const paid = await h.settle(shop, second.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '5.000001', txId });
    const audit = await h.auditOf(shop, second.reference);
    expect(audit.find((e) => e.type === 'payment.verified')).toMatchObject({
      data: { txId, matchedBy: 'amount', source: 'scanner', from: from.address },
    });
    expect(h.statusChanges(audit)).toEqual(['PENDING->PAID']);
    expect(h.webhookTypes(shop, second.reference)).toEqual(['order.created', 'order.paid']);
    expect((await h.getOrder(shop, first.reference)).status).toBe('PENDING');
  });

  it('underpaid, then topped up: the transaction request asks for what is due', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '10' });
    const from = await payer();
    const part = await c().evm.transfer({
      from,
      token: c().usdt,
      to: shop.wallet as Address,
      units: units('4'),
      dataSuffix: tagOf(order.reference),
    });
    await confirm();
    const under = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(under).toMatchObject({ amountReceived: '4.000000', txId: part });
    expect(under.payUrl).toContain('uint256=6000000');

    const req = await h.server.api('GET', `/pay/tx-request/${order.reference}`);
    expect(req.body.amount).toBe('6.000000');
    expect(decodeFunctionData({ abi: erc20Abi, data: req.body.data as Hex }).args[1]).toBe(6_000_000n);
    const rest = await payByRequest(order.reference, from);
    await confirm();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '10.000000', txId: rest });
    await h.expectHistory(
      shop,
      order.reference,
      ['PENDING->UNDERPAID', 'UNDERPAID->PAID'],
      ['order.created', 'order.underpaid', 'order.paid'],
    );
  });

  it('overpaid by a tagged transfer: PAID with amountReceived above amount', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '3' });
    const txId = await c().evm.transfer({
      from: await payer(),
      token: c().usdt,
      to: shop.wallet as Address,
      units: units('3.5'),
      dataSuffix: tagOf(order.reference),
    });
    await confirm();
    expect(await h.settle(shop, order.reference, 'PAID')).toMatchObject({
      amount: '3.000000',
      amountReceived: '3.500000',
      txId,
    });
  });

  it("an untagged underpayment reported by the payer with the sender's signature is accepted as a claim, and said so", async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '20' });
    const from = await payer();
    const txId = await payUntaggedAndReportSigned(h, c().evm, {
      from,
      token: c().usdt,
      to: shop.wallet,
      units: units('19.2'),
      confirmations,
      reference: order.reference,
    });
    const under = await h.settle(shop, order.reference, 'UNDERPAID');
    expect(under.amountReceived).toBe('19.200000');
    expect((await h.auditOf(shop, order.reference)).find((e) => e.type === 'payment.verified')).toMatchObject(
      {
        data: { txId, matchedBy: 'claim', source: 'payer', from: from.address },
      },
    );
  });

  it("an untagged transfer of another order's exact amount is not taken by a claim", async () => {
    const shop = await newShop();
    const mine = await h.createOrder(shop, { amount: '30' });
    const theirs = await h.createOrder(shop, { amount: '7' });
    const txId = await c().evm.transfer({
      from: await payer(),
      token: c().usdt,
      to: shop.wallet as Address,
      units: units('7'),
    });
    await confirm();
    expect((await h.attribute(shop, mine.reference, txId)).status).toBe(202);
    await h.runJobs(async () => (await h.getOrder(shop, mine.reference)).status !== 'CONFIRMING');
    const rejected = (await h.auditOf(shop, mine.reference)).find((e) => e.type === 'payment.rejected');
    expect(String(rejected?.data.reason)).toMatch(
      new RegExp(`exact amount of another order \\(reference ${theirs.reference}\\)`),
    );
    expect(await h.settle(shop, theirs.reference, 'PAID')).toMatchObject({ txId });
  });

  /** Reports `txId` for the order and runs the jobs until the claim is rejected; checks the trail. */
  async function expectRejected(shop: HarnessShop, reference: string, txId: string, reason: RegExp) {
    const submitted = await h.submitTx(reference, txId);
    expect(submitted.status, submitted.text).toBe(202);
    await h.runJobs(async () => (await h.getOrder(shop, reference)).status !== 'CONFIRMING');
    const audit = await h.auditOf(shop, reference);
    const rejected = audit.find((e) => e.type === 'payment.rejected')!;
    expect(rejected).toMatchObject({ actor: 'system', data: { txId: txId.toLowerCase() } });
    expect(String(rejected.data.reason)).toMatch(reason);
    expect(h.statusChanges(audit)).toEqual(['PENDING->CONFIRMING', 'CONFIRMING->PENDING']);
    expect(h.webhookTypes(shop, reference)).toEqual([
      'order.created',
      'order.confirming',
      'order.payment_rejected',
    ]);
    expect((await h.getOrder(shop, reference)).amountReceived).toBe('0.000000');
  }

  it('wrong token contract: rejected with the reason', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '2' });
    const from = await c().evm.newWallet({ token: c().other, units: 10_000_000n });
    const txId = await c().evm.transfer({
      from,
      token: c().other,
      to: shop.wallet as Address,
      units: units('2'),
      dataSuffix: tagOf(order.reference),
    });
    await confirm();
    await expectRejected(shop, order.reference, txId, /wrong token/);
  });

  it('wrong recipient: rejected with the reason', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '2' });
    const txId = await c().evm.transfer({
      from: await payer(),
      token: c().usdt,
      to: freshAddress(),
      units: units('2'),
      dataSuffix: tagOf(order.reference),
    });
    await confirm();
    await expectRejected(shop, order.reference, txId, /wrong recipient/);
  });

  it('a well-formed hash that does not exist: retried until the deadline, then rejected', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '2' });
    const started = Date.now();
    await expectRejected(shop, order.reference, unknownHash(), /not found on chain within/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(NOT_FOUND_TIMEOUT_SECONDS * 1000);
  });

  it('a malformed hash is a 400 naming the form', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '2' });
    const res = await h.submitTx(order.reference, '0x1234');
    expectErrorBody(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.details[0]).toEqual({
      path: 'body.txId',
      message: 'must be a 0x transaction hash (64 hex digits)',
    });
  });

  it('a hash credited to another order is a 409, in any letter case; before that, a report blocks nobody', async () => {
    const shop = await newShop();
    const a = await h.createOrder(shop, { amount: '8' });
    const b = await h.createOrder(shop, { amount: '9' });
    const txId = await payByRequest(a.reference, await payer());
    // Reported for the wrong order first, in another letter case: checked, and rejected.
    expect((await h.submitTx(b.reference, `0x${txId.slice(2).toUpperCase()}`)).status).toBe(202);
    expect((await h.submitTx(a.reference, txId)).status).toBe(202);
    await confirm();
    expect(await h.settle(shop, a.reference, 'PAID')).toMatchObject({ txId });
    await h.runJobs(async () => (await h.getOrder(shop, b.reference)).status === 'PENDING');
    expectErrorBody(await h.submitTx(b.reference, txId), 409, 'CONFLICT');
    expectErrorBody(await h.submitTx(b.reference, `0x${txId.slice(2).toUpperCase()}`), 409, 'CONFLICT');
  });

  it('paid after expiry (within the late window): PAID with paidLate', async () => {
    const shop = await newShop();
    const order = await h.createOrder(shop, { amount: '15' });
    await h.server.deps.db.sequelize.query(
      `UPDATE orders SET expires_at = now() - interval '1 minute' WHERE reference = :reference`,
      { replacements: { reference: order.reference } },
    );
    expect(await h.server.jobs.runNow('expire-orders')).toBeGreaterThanOrEqual(1);
    await h.deliverWebhooks();
    const txId = await payByLink(order.payUrl, await payer());
    await confirm();
    const paid = await h.settle(shop, order.reference, 'PAID');
    expect(paid).toMatchObject({ amountReceived: '15.000000', txId, paidLate: true });
    await h.expectHistory(
      shop,
      order.reference,
      ['PENDING->EXPIRED', 'EXPIRED->PAID'],
      ['order.created', 'order.expired', 'order.paid'],
    );
  });

  it('reorganisations: a scanned and a reported payment dropped within the depth are never credited', async () => {
    const shop = await newShop();
    const scanned = await h.createOrder(shop, { amount: '11' });
    const reported = await h.createOrder(shop, { amount: '12' });
    await h.server.jobs.runNow('scan-payments');
    const from = await payer();
    const snapshot = await c().evm.snapshot();
    const scannedTx = await payByLink(scanned.payUrl, from);
    const reportedTx = await payByRequest(reported.reference, from);
    expect((await h.submitTx(reported.reference, reportedTx)).status).toBe(202);
    // Two blocks hold the two payments: the older one is one block short of final.
    await c().evm.mine(confirmations - 2);
    await h.runJobsFor(3);
    // The other branch wins: both transactions vanish, and blocks are mined past the depth.
    await c().evm.revert(snapshot);
    await c().evm.mine(confirmations + 2);
    expect(await c().evm.rpc('eth_getTransactionReceipt', [scannedTx])).toBeNull();

    await h.runJobs(async () => (await h.getOrder(shop, reported.reference)).status !== 'CONFIRMING', {
      timeoutMs: 20_000,
    });
    const reportedAudit = await h.auditOf(shop, reported.reference);
    expect(reportedAudit.find((e) => e.type === 'payment.rejected')?.data.reason).toMatch(
      /not found on chain/,
    );
    expect(reportedAudit.map((e) => e.type)).not.toContain('payment.verified');
    await h.runJobsFor(2);
    for (const order of [scanned, reported]) {
      await h.expectOrder(shop, order.reference, 'PENDING', '0.000000');
      expect(h.webhookTypes(shop, order.reference)).not.toContain('order.paid');
    }
    expect(await c().evm.balanceOf(c().usdt, shop.wallet as Address)).toBe(0n);
  });

  it('the RPC stops: nothing is rejected while it is down, and the payments are found once it is back', async () => {
    const shop = await newShop();
    const scanned = await h.createOrder(shop, { amount: '13' });
    const reported = await h.createOrder(shop, { amount: '14' });
    await h.server.jobs.runNow('scan-payments');
    const from = await payer();
    const scannedTx = await payByLink(scanned.payUrl, from);
    const reportedTx = await payByRequest(reported.reference, from);
    await confirm();
    await c().evm.stopRpc();
    try {
      const get = await h.server.api('GET', `/pay/tx-request/${scanned.reference}?account=${from.address}`);
      expectErrorBody(get, 502, 'UPSTREAM_UNAVAILABLE');
      expect(get.text).not.toContain(c().evm.url);
      expect((await h.submitTx(reported.reference, reportedTx)).status).toBe(202);
      await h.runJobsFor(2);
      expect(h.logs.some((l) => l.msg === 'payment scan postponed')).toBe(true);
      expect(h.logs.some((l) => l.msg === 'payment check postponed')).toBe(true);
      await sleep(NOT_FOUND_TIMEOUT_SECONDS * 1000 + 200);
      await h.runJobsFor(1);
      expect((await h.getOrder(shop, scanned.reference)).status).toBe('PENDING');
      expect((await h.getOrder(shop, reported.reference)).status).toBe('CONFIRMING');
      expect((await h.auditOf(shop, reported.reference)).map((e) => e.type)).not.toContain(
        'payment.rejected',
      );
    } finally {
      await c().evm.startRpc();
    }
    expect(await h.settle(shop, scanned.reference, 'PAID')).toMatchObject({ txId: scannedTx });
    expect(await h.settle(shop, reported.reference, 'PAID')).toMatchObject({ txId: reportedTx });
  });
});

describe('EVM transaction requests and RPC endpoints', () => {
  const polygon = () => chains.POLYGON;

  it('refuses a payer whose balance is short (400 naming the account), and audits each payer once, boundedly', async () => {
    const shop = await h.newShop('POLYGON', freshAddress());
    const order = await h.createOrder(shop, { amount: '4' });
    const poor = await polygon().evm.newWallet({ token: polygon().usdt, units: 3_000_000n });
    const short = await h.server.api('GET', `/pay/tx-request/${order.reference}?account=${poor.address}`);
    expectErrorBody(short, 400, 'VALIDATION_ERROR');
    expect(short.body.error.details[0]).toEqual({
      path: 'query.account',
      message: 'holds 3 USDT, less than the 4 USDT due',
    });
    for (let i = 0; i < 3; i++)
      expect((await h.server.api('GET', `/pay/tx-request/${order.reference}`)).status).toBe(200);
    for (let i = 0; i < 12; i++) {
      const payer = await polygon().evm.newWallet({ token: polygon().usdt, units: 4_000_000n });
      const res = await h.server.api('GET', `/pay/tx-request/${order.reference}?account=${payer.address}`);
      expect(res.status, res.text).toBe(200);
    }
    const issued = (await h.auditOf(shop, order.reference)).filter((e) => e.type === 'tx_request.issued');
    expect(issued[0]).toMatchObject({ actor: 'payer', data: { account: null } });
    expect(issued).toHaveLength(10);
  });

  it('/metrics shows each RPC endpoint: the dead first Ethereum endpoint down, the live one up', async () => {
    const shop = await h.newShop('ETHEREUM', freshAddress());
    await h.createOrder(shop, { amount: '1' });
    await h.server.jobs.runNow('scan-payments');
    const res = await fetch(`${h.server.url}/metrics`);
    const text = await res.text();
    const dead = new URL(deadEndpoint).origin;
    const live = new URL(chains.ETHEREUM.evm.url).origin;
    expect(text).toContain(`stablepay_rpc_endpoint_up{network="ETHEREUM",endpoint="#1 ${dead}"} 0`);
    expect(text).toContain(`stablepay_rpc_endpoint_up{network="ETHEREUM",endpoint="#2 ${live}"} 1`);
    expect(text).toMatch(
      new RegExp(
        `stablepay_rpc_endpoint_failures_total\\{network="ETHEREUM",endpoint="#1 ${dead}",reason="connection"\\} [1-9]`,
      ),
    );
  });
});
