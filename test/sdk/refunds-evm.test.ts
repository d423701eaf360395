import { getAddress, toHex, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { refundAddressProofMessage } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import { createClient } from '../../sdk/src/client';
import { sendRefund, waitForRefund } from '../../sdk/src/refunds';
import {
  randomEvmAddress,
  startLocalEvm,
  type LocalEvm,
  type LocalWallet,
} from '../../sandbox/chains/evm/local-evm';
import { startPaymentHarness, type PaymentHarness, usePaymentStack } from '../support/payment-harness';
import { until } from '../support/until';

/**
 * sendRefund on a token of 18 decimals (BSC's USDT): a local Hardhat chain with chain id 56 and an
 * 18-decimal ERC-20, the real service, and the SDK checking the transaction it signs against the
 * refund in the token's own base units (`decimals` on the refund), never a fixed 6.
 */

const CONFIRMATIONS = 2;
let bsc: LocalEvm;
let usdt: Address;
let h: PaymentHarness;

usePaymentStack(
  async () => {
    bsc = await startLocalEvm({ chainId: 56 });
    usdt = getAddress(await bsc.deployToken({ decimals: 18 }));
    h = await startPaymentHarness({
      POLYGON_RPC_URL: 'none',
      ETHEREUM_RPC_URL: 'none',
      BSC_RPC_URL: bsc.url,
      BSC_CONFIRMATIONS: String(CONFIRMATIONS),
      USDT_CONTRACT_BSC: usdt,
      USDC_CONTRACT_BSC: 'none',
      EVM_LOG_RANGE: '50',
    });
  },
  () => [h, bsc],
);

const units = (amount: string) => parseUnits(amount, 18);

describe('sendRefund on BSC (USDT of 18 decimals)', () => {
  /** A paid order whose receiving wallet's key the test holds. */
  async function paidOrder(amount: string, paidUnits: bigint) {
    const merchant = await bsc.newWallet();
    const shop = await h.newShop('BSC', merchant.address);
    const payer = await bsc.newWallet({ token: usdt, units: units('1000') });
    const order = await h.createOrder(shop, { amount });
    await bsc.transfer({
      from: payer,
      token: usdt,
      to: shop.wallet as Address,
      units: paidUnits,
      dataSuffix: toHex(decodeBase58(order.reference)!),
    });
    await bsc.mine(CONFIRMATIONS);
    await h.settle(shop, order.reference, 'PAID');
    const client = createClient({ baseUrl: h.server.url, token: shop.token });
    return { merchant, shop, payer, order, client };
  }

  /** Sends with the SDK, then runs the verifier until the SDK sees the refund settled. */
  async function sendAndSettle(p: Awaited<ReturnType<typeof paidOrder>>, refundId: string) {
    const sent = await sendRefund({
      client: p.client,
      reference: p.order.reference,
      refundId,
      evm: { account: p.merchant, rpcUrl: bsc.url },
    });
    await bsc.mine(CONFIRMATIONS);
    // The verifier runs on a timer in production; here, by hand until it has settled the refund.
    await until('refund settled', async () => {
      await h.server.jobs.runNow('verify-refunds');
      const { items } = await p.client.orders.refunds.list(p.order.reference);
      return items.find((r) => r.id === refundId)?.status !== 'PENDING';
    });
    const settled = await waitForRefund(p.client, p.order.reference, refundId, { timeoutMs: 0 });
    return { sent, settled };
  }

  it('checks the transaction in base units of 18 decimals, signs it, and the refund SUCCEEDS', async () => {
    const p = await paidOrder('12.5', units('12.5'));
    const refund = await p.client.orders.refunds.create(p.order.reference, {
      amount: '2.5',
      to: p.payer.address,
    });
    expect(refund).toMatchObject({ status: 'PENDING', amount: '2.500000', decimals: 18 });
    const before = await bsc.balanceOf(usdt, p.payer.address);
    const { sent, settled } = await sendAndSettle(p, refund.id);
    expect(settled).toMatchObject({ status: 'SUCCEEDED', txId: sent.txId.toLowerCase() });
    expect(await bsc.balanceOf(usdt, p.payer.address)).toBe(before + units('2.5'));
    expect((await p.client.orders.get(p.order.reference)).amountRefunded).toBe('2.500000');
  });

  it('refunds an amount with all 18 places (an overpayment by one base unit), to the unit', async () => {
    const p = await paidOrder('3', units('3') + 1n);
    const refund = await p.client.orders.refunds.create(p.order.reference, { to: p.payer.address });
    expect(refund.amount).toBe('3.000000000000000001');
    const before = await bsc.balanceOf(usdt, p.payer.address);
    const { settled } = await sendAndSettle(p, refund.id);
    expect(settled.status).toBe('SUCCEEDED');
    expect(await bsc.balanceOf(usdt, p.payer.address)).toBe(before + units('3') + 1n);
  });

  it("approves an address signed by a payer at once only when the signer's own 18-decimal payment covers the refund", async () => {
    const p = await paidOrder('12.5', units('12.5'));
    // 2,500,000 base units tagged with the order: 2.5 in 6 decimals, 0.0000000000025 in 18.
    const mallory = await bsc.newWallet({ token: usdt, units: units('1') });
    await bsc.transfer({
      from: mallory,
      token: usdt,
      to: p.shop.wallet as Address,
      units: 2_500_000n,
      dataSuffix: toHex(decodeBase58(p.order.reference)!),
    });
    await bsc.mine(CONFIRMATIONS);
    await h.runJobs(
      async () => (await p.client.orders.get(p.order.reference)).amountReceived === '12.5000000000025',
    );
    const create = (amount: string) => p.client.orders.refunds.create(p.order.reference, { amount });
    const give = async (refundId: string, signer: LocalWallet) => {
      const address = randomEvmAddress();
      const res = await h.server.api('POST', `/pay/refunds/${refundId}/address`, {
        body: {
          address,
          signature: await signer.signMessage({ message: refundAddressProofMessage(refundId, address) }),
        },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.status as string;
    };
    // Mallory's refund of 2.5 is not hers to take; the payer's of 10 (of the 12.5 they paid) is.
    expect(await give((await create('2.5')).id, mallory)).toBe('AWAITING_APPROVAL');
    expect(await give((await create('10')).id, p.payer)).toBe('PENDING');
    const audit = (await h.auditOf(p.shop, p.order.reference)).filter((e) => e.type === 'refund.address_set');
    expect(audit.map((e) => [e.data.signerPaid, e.data.status])).toEqual([
      ['0.0000000000025', 'AWAITING_APPROVAL'],
      ['12.500000', 'PENDING'],
    ]);
  });
});
