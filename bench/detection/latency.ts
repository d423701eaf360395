import { setTimeout as sleep } from 'node:timers/promises';
import { PublicKey, type Keypair } from '@solana/web3.js';
import { QueryTypes } from 'sequelize';
import { getAddress, type Address, type Hex } from 'viem';
import type { z } from 'zod';
import type { Order, ZEvmTransaction, ZSolanaTransaction } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import type { LocalWallet, ReceivedWebhook } from '../../test/support/harness';
import { evmTag } from '../evm';
import { nth } from '../fixtures';
import { progress } from '../lib/progress';
import { EVM_CONFIRMATIONS, EVM_NETWORK } from '../settings';
import type { Ctx, EvmCtx } from '../stack';
import type { BlockTicker } from './block-ticker';

/** Whether the service is told of the payment (transaction request and submit-tx) or finds it alone. */
export type Way = 'reported' | 'unreported';
/**
 * One network and way of paying: ms from final on chain to the order.paid webhook, split at the
 * settling (the event's time: final -> settled, settled -> webhook); who settled each payment
 * (the scanner, or the verifier of a reported claim: its source); and the webhooks that never came.
 */
export type Detection = {
  network: string;
  way: Way;
  samplesMs: number[];
  settleMs: number[];
  deliverMs: number[];
  settledBy: Record<string, number>;
  missed: number;
};

/** A payment whose webhook has not come this long after it was final counts as missed. */
const WEBHOOK_TIMEOUT_MS = 60_000;
/** How long a sent EVM transaction may wait for its block, and that block for its confirmations. */
const BLOCK_TIMEOUT_MS = 30_000;

export type Receiver = {
  received: ReceivedWebhook[];
  waitFor(predicate: (r: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
};

export type Payments = {
  ctx: Ctx;
  receiver: Receiver;
  samples: number;
  /** A random pause before each payment, up to this: payments fall anywhere in the service's cycles. */
  jitterMs: number;
};

/** Pays `orders` one after the other by `pay` (which returns when the payment was final); the latencies. */
async function measureWay(
  run: Payments,
  label: Pick<Detection, 'network' | 'way'>,
  orders: Order[],
  pay: (order: Order, i: number) => Promise<number>,
): Promise<Detection> {
  const detection: Detection = {
    ...label,
    samplesMs: [],
    settleMs: [],
    deliverMs: [],
    settledBy: {},
    missed: 0,
  };
  for (const [i, order] of orders.entries()) {
    await sleep(Math.random() * run.jitterMs);
    const finalAt = await pay(order, i);
    const hook = await paidWebhook(run.receiver, order.reference);
    if (!hook) {
      detection.missed++;
      continue;
    }
    const settledAt = Date.parse(String((hook.json as { createdAt?: unknown }).createdAt));
    detection.samplesMs.push(hook.at - finalAt);
    detection.settleMs.push(settledAt - finalAt);
    detection.deliverMs.push(hook.at - settledAt);
    const by = await settledBy(run.ctx, order.reference);
    detection.settledBy[by] = (detection.settledBy[by] ?? 0) + 1;
  }
  progress(
    `detection: ${label.network} ${label.way}, ${detection.samplesMs.length} of ${orders.length} webhooks arrived`,
  );
  return detection;
}

/** The order.paid webhook of `reference` (`at`: when it arrived, the receiver's clock), or null after the timeout. */
async function paidWebhook(receiver: Receiver, reference: string): Promise<ReceivedWebhook | null> {
  const paid = (hook: ReceivedWebhook) =>
    hook.json.type === 'order.paid' && hook.json.data.order.reference === reference;
  try {
    await receiver.waitFor((hooks) => hooks.some(paid), WEBHOOK_TIMEOUT_MS);
  } catch {
    return null;
  }
  return receiver.received.find(paid) ?? null;
}

/** Who settled the order's payment: 'scanner', or the reporter of the claim the verifier settled. */
async function settledBy(ctx: Ctx, reference: string): Promise<string> {
  const [row] = await ctx.server.deps.db.sequelize.query<{ source: string }>(
    `SELECT c.source FROM payment_claims c JOIN orders o ON o.id = c.order_id
      WHERE o.reference = :reference AND c.status = 'VERIFIED'`,
    { type: QueryTypes.SELECT, replacements: { reference } },
  );
  return row?.source ?? 'unknown';
}

type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;
type EvmTransactionResponse = z.infer<typeof ZEvmTransaction>;

/** Orders to pay, per way. */
export type SampleOrders = Record<Way, Order[]>;

/** Payers for the Solana payments, one a payment, funded on the local chain. */
export async function solanaPayers(ctx: Ctx, samples: number): Promise<Keypair[]> {
  const payers: Keypair[] = [];
  for (let i = 0; i < samples * 2; i++)
    payers.push(await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n }));
  return payers;
}

/**
 * Solana, final when processed on the local chain (SOLANA_COMMITMENT finalized, no held finality):
 * reported, the payer's wallet pays through the transaction request and the checkout reports the
 * transaction id; unreported, a plain transfer to the wallet, every other one carrying the order's
 * reference key, the rest matched by amount alone.
 */
export function solanaDetection(run: Payments, payers: Keypair[], orders: SampleOrders) {
  const { ctx } = run;
  const payer = (way: Way, i: number) => nth(payers, way === 'reported' ? i : run.samples + i, 'payer');
  return Promise.all([
    measureWay(run, { network: 'SOLANA', way: 'reported' }, orders.reported, async (order, i) => {
      const built = await ctx.api.json<SolanaTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer('reported', i).publicKey.toBase58()}`,
      );
      const txId = await ctx.chain.signAndSend(built.transaction, payer('reported', i));
      const finalAt = Date.now();
      await ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
      return finalAt;
    }),
    measureWay(run, { network: 'SOLANA', way: 'unreported' }, orders.unreported, async (order, i) => {
      await ctx.chain.transfer({
        payer: payer('unreported', i),
        recipientOwner: new PublicKey(order.recipient),
        mint: ctx.mint,
        amountUnits: parseUnits(order.amount, 6),
        reference: i % 2 === 0 ? new PublicKey(order.reference) : undefined,
      });
      return Date.now();
    }),
  ]);
}

/** Payers for the EVM payments, funded while the chain still mines on demand (before the ticker). */
export async function evmPayers(evm: EvmCtx, samples: number): Promise<LocalWallet[]> {
  const payers: LocalWallet[] = [];
  for (let i = 0; i < samples * 2; i++)
    payers.push(await evm.chain.newWallet({ token: evm.usdt, units: 1_000_000_000n }));
  return payers;
}

/**
 * The EVM network, its blocks mined by `ticker`: final when the block giving the payment its
 * EVM_CONFIRMATIONS is mined. Reported: the payer's wallet sends what the transaction request
 * built (tagged) and the checkout reports the hash; unreported: a plain transfer, every other one
 * tagged, the rest matched by exact amount.
 */
export function evmDetection(
  run: Payments,
  evm: EvmCtx,
  ticker: BlockTicker,
  opts: { payers: LocalWallet[]; orders: SampleOrders },
) {
  const { ctx } = run;
  const payer = (way: Way, i: number) => nth(opts.payers, way === 'reported' ? i : run.samples + i, 'payer');
  const finalAt = async (hash: Hex) =>
    ticker.minedAt(
      (await ticker.blockOf(hash, BLOCK_TIMEOUT_MS)) + BigInt(EVM_CONFIRMATIONS),
      BLOCK_TIMEOUT_MS,
    );
  return Promise.all([
    measureWay(run, { network: EVM_NETWORK, way: 'reported' }, opts.orders.reported, async (order, i) => {
      const built = await ctx.api.json<EvmTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer('reported', i).address}`,
      );
      const txId = await evm.chain.sendTransaction({
        from: payer('reported', i),
        to: built.to as Address,
        data: built.data as Hex,
      });
      await ctx.api.json('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
      return finalAt(txId);
    }),
    measureWay(run, { network: EVM_NETWORK, way: 'unreported' }, opts.orders.unreported, async (order, i) =>
      finalAt(
        await evm.chain.transfer({
          from: payer('unreported', i),
          token: evm.usdt,
          to: getAddress(order.recipient),
          units: parseUnits(order.amount, 6),
          dataSuffix: i % 2 === 0 ? evmTag(order.reference) : undefined,
        }),
      ),
    ),
  ]);
}
