import { getAddress, type Address, type Hex } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseUnits } from '../../contract/decimal';
import { startLocalEvm, type LocalEvm, randomEvmAddress } from '../../sandbox/chains/evm/local-evm';
import { startPaymentHarness, type PaymentHarness } from '../support/payment-harness';
import { until } from '../support/until';
import { expectErrorBody } from '../support/test-server';

/**
 * One network's RPC hangs (it takes requests and answers none) while payments go on elsewhere. The
 * jobs run on their own schedules, every second, with an RPC timeout far longer than the waits
 * below: if anything on BSC waited for BASE's RPC, it would miss them.
 */

const RPC_TIMEOUT_MS = 12_000;
/** Well under RPC_TIMEOUT_MS: BSC's payment must be seen, delivered and refunded within it. */
const OTHERS_WITHIN_MS = 8_000;

let base: LocalEvm;
let bsc: LocalEvm;
let baseUsdc: Address;
let bscUsdt: Address;
let h: PaymentHarness;

beforeAll(async () => {
  [base, bsc] = await Promise.all([startLocalEvm({ chainId: 8453 }), startLocalEvm({ chainId: 56 })]);
  baseUsdc = getAddress(await base.deployToken({ symbol: 'USDC' }));
  bscUsdt = getAddress(await bsc.deployToken({ decimals: 18 }));
  h = await startPaymentHarness({
    JOBS: 'all',
    JOB_SCAN_PAYMENTS_CRON: '* * * * * *',
    JOB_VERIFY_PAYMENTS_CRON: '* * * * * *',
    JOB_VERIFY_REFUNDS_CRON: '* * * * * *',
    JOB_DELIVER_EVENTS_CRON: '* * * * * *',
    RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
    POLYGON_RPC_URL: 'none',
    ETHEREUM_RPC_URL: 'none',
    BASE_RPC_URL: base.url,
    BASE_CONFIRMATIONS: '2',
    USDC_CONTRACT_BASE: baseUsdc,
    USDT_CONTRACT_BASE: 'none',
    BSC_RPC_URL: bsc.url,
    BSC_CONFIRMATIONS: '2',
    USDT_CONTRACT_BSC: bscUsdt,
    USDC_CONTRACT_BSC: 'none',
  });
}, 120_000);

afterAll(async () => {
  base?.answerRpc();
  await h?.stop();
  await Promise.all([base?.stop(), bsc?.stop()]);
});

it("BASE's RPC hangs: BSC's orders are paid, delivered and refunded meanwhile; BASE's payment is credited once it answers", async () => {
  const baseShop = await h.newShop('BASE', randomEvmAddress());
  const bscKey = await bsc.newWallet();
  const bscShop = await h.newShop('BSC', bscKey.address);
  const basePayer = await base.newWallet({ token: baseUsdc, units: parseUnits('100', 6) });
  const bscPayer = await bsc.newWallet({ token: bscUsdt, units: parseUnits('100', 18) });
  base.hangRpc();

  // Orders on BASE are still created: a link needs no RPC.
  const baseOrder = await h.createOrder(baseShop, { token: 'USDC', amount: '7' });
  // A request that needs BASE's RPC fails with 502 after the RPC timeout, not later.
  const started = Date.now();
  const txRequest = await h.server.api(
    'GET',
    `/pay/tx-request/${baseOrder.reference}?account=${basePayer.address}`,
  );
  expectErrorBody(txRequest, 502, 'UPSTREAM_UNAVAILABLE');
  expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 2_000);
  expect(txRequest.body.error.message).toContain('BASE');
  // The payer pays BASE's order anyway (on the node itself, past the hanging endpoint).
  await base.transfer({
    from: basePayer,
    token: baseUsdc,
    to: baseShop.wallet as Address,
    units: parseUnits('7', 6),
  });
  await base.mine(2);

  // BSC goes on as usual: paid by its link, found by the scanner, webhook delivered, refunded.
  const bscOrder = await h.createOrder(bscShop, { token: 'USDT', amount: '4.5' });
  const link = /uint256=(\d+)$/.exec(bscOrder.payUrl)!;
  const paidAt = Date.now();
  await bsc.transfer({
    from: bscPayer,
    token: bscUsdt,
    to: bscShop.wallet as Address,
    units: BigInt(link[1]!),
  });
  await bsc.mine(2);
  await until(
    "BSC's order.paid webhook",
    () => h.webhookTypes(bscShop, bscOrder.reference).includes('order.paid'),
    OTHERS_WITHIN_MS,
  );
  const refund = await h.server.api('POST', `/orders/${bscOrder.reference}/refunds`, {
    token: bscShop.token,
    body: { to: bscPayer.address },
  });
  expect(refund.status, refund.text).toBe(201);
  const built = refund.body.transaction as { to: Address; data: Hex };
  await bsc.sendTransaction({ from: bscKey, to: built.to, data: built.data });
  await bsc.mine(2);
  await until(
    "BSC's refund.succeeded webhook",
    () => h.webhooksFor(bscShop, bscOrder.reference).some((w) => w.json.type === 'refund.succeeded'),
    OTHERS_WITHIN_MS,
  );
  expect(Date.now() - paidAt).toBeLessThan(2 * OTHERS_WITHIN_MS);

  // Meanwhile BASE is named as failing: in /metrics and in the log.
  const metrics = (await h.server.api('GET', '/metrics')).text;
  expect(metrics).toMatch(/stablepay_rpc_endpoint_up\{network="BASE",endpoint="#1 [^"]+"\} 0/);
  expect(metrics).toMatch(/stablepay_rpc_endpoint_up\{network="BSC",endpoint="#1 [^"]+"\} 1/);
  expect(h.logs.some((l) => l.msg === 'payment scan postponed' && l.network === 'BASE')).toBe(true);
  expect((await h.getOrder(baseShop, baseOrder.reference)).status).toBe('PENDING');
  expect((await h.server.api('GET', '/readyz')).status).toBe(200);

  // BASE answers again: the payment made while it hung is credited.
  base.answerRpc();
  await until(
    "BASE's order PAID after its RPC answers again",
    async () => (await h.getOrder(baseShop, baseOrder.reference)).status === 'PAID',
    RPC_TIMEOUT_MS + 30_000,
  );
  // The webhook is delivered by its own job after the commit that made the order PAID: wait for it.
  await until(
    "BASE's order.paid webhook",
    () => h.webhookTypes(baseShop, baseOrder.reference).includes('order.paid'),
    OTHERS_WITHIN_MS,
  );
}, 120_000);
