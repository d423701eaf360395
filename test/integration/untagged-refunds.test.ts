import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import type { LocalWallet } from '../../sandbox/chains/evm/local-evm';
import { startPaymentHarness, usePaymentStack } from '../support/payment-harness';
import type { HarnessShop, PaidOrder, PaymentHarness } from '../support/payment-harness';
import {
  paidOrderOn,
  refundBecomes,
  refundDrivers,
  REFUND_POLYGON_CONFIRMATIONS,
  startRefundChains,
  type RefundChains,
  type RefundDriver,
  type RefundKey,
} from '../support/refund-chains';

/**
 * Refunds sent without the tag (a plain transfer from a mobile wallet, which cannot carry it), on
 * the local Solana chain and a local Polygon chain, tried as an attacker would: the refund is the
 * transfer of exactly its amount of its token from the order's receiving wallet to the refund
 * address after the refund was made; nothing else is, and one transaction settles one refund. The
 * service's clock and both chains' clocks move on together (a database of this file's own).
 */

let chains: RefundChains;
let h: PaymentHarness;
/** How far the service's clock (and both chains' clocks) are ahead of the real one. */
let aheadMs = 0;

usePaymentStack(
  async () => {
    chains = await startRefundChains();
    h = await startPaymentHarness(chains.env, { clock: () => new Date(Date.now() + aheadMs) });
  },
  () => [h, chains?.solana, chains?.polygon],
);

/** Moves the service's clock and both chains' clocks on by `seconds`, together. */
async function advance(seconds: number) {
  aheadMs += seconds * 1000;
  chains.solana.advanceClock(seconds);
  await chains.polygon.rpc('evm_increaseTime', [seconds]);
}

type Refund = {
  id: string;
  status: string;
  to: string | null;
  txId: string | null;
  late: boolean;
  deadlineAt: string;
  transaction: unknown;
};
type Order = PaidOrder & { amountRefunded: string };

const drivers = refundDrivers(() => chains);

/** A token the service does not know, per network, and a transfer of it (minted to the sender first). */
const otherToken: Record<
  'SOLANA' | 'POLYGON',
  { mint?: string; transfer(key: RefundKey, to: string, units: bigint): Promise<string> }
> = {
  SOLANA: {
    async transfer(key, to, units) {
      const mint = new PublicKey((this.mint ??= (await chains.solana.createMint()).toBase58()));
      const sender = key as Keypair;
      await chains.solana.mintTo(sender.publicKey, mint, units);
      return chains.solana.transfer({
        payer: sender,
        recipientOwner: new PublicKey(to),
        mint,
        amountUnits: units,
      });
    },
  },
  POLYGON: {
    async transfer(key, to, units) {
      const token = (this.mint ??= await chains.polygon.deployToken({
        name: 'Other',
        symbol: 'OTH',
      })) as Address;
      const sender = key as LocalWallet;
      await chains.polygon.mint(token, sender.address, units);
      const tx = await chains.polygon.transfer({ from: sender, token, to: to as Address, units });
      await chains.polygon.mine(REFUND_POLYGON_CONFIRMATIONS);
      return tx;
    },
  },
};

describe.each([drivers.solana, drivers.polygon])('$network refunds without the tag', (d: RefundDriver) => {
  const api = <T = unknown>(method: string, path: string, shop: HarnessShop, body?: object) =>
    h.server.api<T>(method, path, { token: shop.token, body });

  async function createRefund(shop: HarnessShop, reference: string, body: { amount: string; to: string }) {
    const res = await api<Refund>('POST', `/orders/${reference}/refunds`, shop, body);
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('PENDING');
    return res.body;
  }
  async function refundOf(shop: HarnessShop, reference: string, id: string) {
    const res = await api<{ items: Refund[] }>('GET', `/orders/${reference}/refunds`, shop);
    return res.body.items.find((r) => r.id === id)!;
  }
  /** Several verifier cycles: what they find by then, they have found. */
  async function verifyCycles(count = 3) {
    for (let i = 0; i < count; i++) await h.server.jobs.runNow('verify-refunds');
  }
  const txIdOf = (txId: string) => (d.network === 'SOLANA' ? txId : txId.toLowerCase());
  const auditOf = async (shop: HarnessShop, reference: string, type: string) =>
    (await h.auditOf(shop, reference)).filter((e) => e.type === type);

  /**
   * The refund stays PENDING with nothing taken after the verifier has looked; then the genuine
   * untagged transfer settles it, so the scan did reach the address and passed the decoy by.
   */
  async function onlyTheGenuineTransferCounts(
    shop: HarnessShop,
    reference: string,
    refund: Refund,
    merchant: RefundKey,
    units: bigint,
  ) {
    await verifyCycles();
    expect(await refundOf(shop, reference, refund.id)).toMatchObject({ status: 'PENDING', txId: null });
    const genuine = await d.transfer(merchant, refund.to!, units);
    const done = await refundBecomes<Refund>(h, shop, reference, refund.id, 'SUCCEEDED');
    expect(done).toMatchObject({ txId: txIdOf(genuine), late: false });
    return genuine;
  }

  it('an untagged transfer of exactly the refund amount from the receiving wallet to the address, after the refund was made, is the refund', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const refund = await createRefund(shop, order.reference, { amount: '4', to: payer.address });
    const before = await d.balance(payer.address);
    const sent = await d.transfer(merchant, payer.address, 4_000_000n);
    const done = await refundBecomes<Refund>(h, shop, order.reference, refund.id, 'SUCCEEDED');
    expect(done).toMatchObject({ txId: txIdOf(sent), late: false });
    expect(await d.balance(payer.address)).toBe(before + 4_000_000n);
    const [succeeded] = await auditOf(shop, order.reference, 'refund.succeeded');
    expect(succeeded?.data).toMatchObject({ refundId: refund.id, matchedBy: 'amount', amount: '4.000000' });
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('4.000000');
    const hooks = h.webhooksFor(shop, order.reference).map((w) => w.json.type);
    expect(hooks.filter((t) => t.startsWith('refund.'))).toEqual(['refund.created', 'refund.succeeded']);
  });

  it('the exact amount sent to the refund address by another wallet is not the refund', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const refund = await createRefund(shop, order.reference, { amount: '5', to: payer.address });
    // Anyone can send the payer 5: a stranger, or the payer itself from another wallet of its own.
    const stranger = await d.newPayer();
    const decoy = await d.transfer(stranger.key, payer.address, 5_000_000n);
    const genuine = await onlyTheGenuineTransferCounts(shop, order.reference, refund, merchant, 5_000_000n);
    expect(genuine).not.toBe(decoy);
    // Not the refund at all (nothing from the receiving wallet): nothing recorded of it either.
    expect(await auditOf(shop, order.reference, 'refund.transaction_rejected')).toEqual([]);
  });

  it('another amount from the receiving wallet to the address is recorded as rejected, never taken', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const refund = await createRefund(shop, order.reference, { amount: '5', to: payer.address });
    const wrong = await d.transfer(merchant, payer.address, 4_999_999n);
    await onlyTheGenuineTransferCounts(shop, order.reference, refund, merchant, 5_000_000n);
    expect((await auditOf(shop, order.reference, 'refund.transaction_rejected')).map((e) => e.data)).toEqual([
      { refundId: refund.id, txId: txIdOf(wrong), reason: "sends 4.999999, not the refund's 5.000000" },
    ]);
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('5.000000');
  });

  it('the same amount of another token from the receiving wallet to the address is not the refund', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const refund = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    await otherToken[d.network].transfer(merchant, payer.address, 3_000_000n);
    await onlyTheGenuineTransferCounts(shop, order.reference, refund, merchant, 3_000_000n);
  });

  it('one untagged transfer settles one refund: two equal refunds to the same address need two transfers', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const first = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    const second = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    const once = await d.transfer(merchant, payer.address, 3_000_000n);
    await verifyCycles(4);
    const both = async () => Promise.all([first, second].map((r) => refundOf(shop, order.reference, r.id)));
    const afterOne = await both();
    expect(afterOne.map((r) => r.status).sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(afterOne.find((r) => r.status === 'SUCCEEDED')!.txId).toBe(txIdOf(once));
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('3.000000');

    const pending = afterOne.find((r) => r.status === 'PENDING')!;
    const again = await d.transfer(merchant, payer.address, 3_000_000n);
    await refundBecomes(h, shop, order.reference, pending.id, 'SUCCEEDED');
    expect((await both()).map((r) => r.txId).sort()).toEqual([txIdOf(once), txIdOf(again)].sort());
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('6.000000');
  });

  it("a transaction naming one refund is that refund's, never another equal refund's by its amount", async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const first = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    const second = await createRefund(shop, order.reference, { amount: '3', to: payer.address });
    // The second is looked at first, as when it fell due earlier.
    await h.server.deps.db.models.Refund.update({ nextCheckAt: new Date(0) }, { where: { id: second.id } });
    const sent = await d.sendBuilt(first, merchant);
    const done = await refundBecomes<Refund>(h, shop, order.reference, first.id, 'SUCCEEDED');
    expect(done.txId).toBe(txIdOf(sent));
    expect(await refundOf(shop, order.reference, second.id)).toMatchObject({ status: 'PENDING', txId: null });
    const [succeeded] = await auditOf(shop, order.reference, 'refund.succeeded');
    expect(succeeded?.data).toMatchObject({ refundId: first.id, matchedBy: 'tag' });
  });

  it('a FAILED refund whose untagged transfer lands in its late window SUCCEEDS, late', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    const refund = await createRefund(shop, order.reference, { amount: '2.5', to: payer.address });
    await advance(Math.ceil((Date.parse(refund.deadlineAt) - (Date.now() + aheadMs)) / 1000) + 5);
    await refundBecomes(h, shop, order.reference, refund.id, 'FAILED');
    const sent = await d.transfer(merchant, payer.address, 2_500_000n);
    const late = await refundBecomes<Refund>(h, shop, order.reference, refund.id, 'SUCCEEDED');
    expect(late).toMatchObject({ txId: txIdOf(sent), late: true });
    expect(((await h.getOrder(shop, order.reference)) as Order).amountRefunded).toBe('2.500000');
  });

  it('a transfer made before the refund was created is not the refund', async () => {
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    // The merchant paid the payer 4 for something else; five minutes later it refunds 4.
    const earlier = await d.transfer(merchant, payer.address, 4_000_000n);
    await advance(300);
    const refund = await createRefund(shop, order.reference, { amount: '4', to: payer.address });
    const genuine = await onlyTheGenuineTransferCounts(shop, order.reference, refund, merchant, 4_000_000n);
    expect(genuine).not.toBe(earlier);
    expect(await auditOf(shop, order.reference, 'refund.transaction_rejected')).toEqual([]);
  });
});

describe('SOLANA refund scan cost', () => {
  it('reads the refund address from the refund on: one listing a cycle, bounded by its cursor, and each new transaction once', async () => {
    const d = drivers.solana;
    const { shop, merchant, payer, order } = await paidOrderOn(h, d, '10');
    // The payer's token account has a history before the refund (a busy address has much more).
    const stranger = await d.newPayer();
    for (let i = 0; i < 5; i++) await d.transfer(stranger.key, payer.address, 1_000_000n);
    await advance(300);
    const created = await h.server.api<Refund>('POST', `/orders/${order.reference}/refunds`, {
      token: shop.token,
      body: { amount: '2', to: payer.address },
    });
    expect(created.status, created.text).toBe(201);

    // Every request the service makes to the chain, with its parameters.
    const account = getAssociatedTokenAddressSync(chains.solanaMint, new PublicKey(payer.address)).toBase58();
    let requests: { method: string; params: unknown[] }[] = [];
    let sent = '';
    chains.solana.setRpcFault(
      (method, params) => void requests.push({ method, params: params as unknown[] }),
    );
    const cycle = async () => {
      requests = [];
      await h.server.jobs.runNow('verify-refunds');
      return {
        listings: requests
          .filter((r) => r.method === 'getSignaturesForAddress' && r.params[0] === account)
          .map((r) => r.params[1] as { until?: string }),
        reads: requests.filter((r) => r.method === 'getTransaction').length,
      };
    };
    try {
      // The first look lists what came since the refund (nothing): one call, no transaction read.
      const first = await cycle();
      expect(first.listings).toHaveLength(1);
      expect(first.listings[0]!.until).toBeUndefined();
      expect(first.reads).toBe(0);
      // From then on each look asks only for what came after the newest older signature.
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 60));
        const next = await cycle();
        expect(next.listings).toHaveLength(1);
        expect(next.listings[0]!.until).toEqual(expect.any(String));
        expect(next.reads).toBe(0);
      }
      sent = await d.transfer(merchant, payer.address, 2_000_000n);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const found = await cycle();
      expect(found.listings).toHaveLength(1);
      expect(requests.filter((r) => r.method === 'getTransaction').map((r) => r.params[0])).toEqual([sent]);
    } finally {
      chains.solana.setRpcFault(null);
    }
    const done = await refundBecomes<Refund>(h, shop, order.reference, created.body.id, 'SUCCEEDED');
    expect(done.txId).toBe(sent);
  });
});
