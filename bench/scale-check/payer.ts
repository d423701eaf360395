import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { PublicKey, type Keypair } from '@solana/web3.js';
import type { Order } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import { errorMessage } from '../lib/cleanup';
import type { Client } from './client';
import { PAYER_DELAY_MS, POLL_LIMIT_MS, POLL_MS } from './settings';
import type { Stack } from './stack';
import type { PaidOrder, Task, Work } from './workload';

/** What the workers share: the merchant's session, the funded payers, and what was done. */
export type WorkloadRun = {
  stack: Stack;
  call: Client['call'];
  token: string;
  walletId: string;
  /** The owner of the merchant's receiving wallet. */
  owner: PublicKey;
  payers: Keypair[];
  payerIndex: number;
  work: Work;
};

/** One order through the balancer: created with its Idempotency-Key, then expired or paid. */
export async function runTask(run: WorkloadRun, task: Task): Promise<void> {
  const order = await run.call<Order>('POST', '/orders', {
    token: run.token,
    idempotencyKey: task.key,
    body: { network: 'SOLANA', token: 'USDT', amount: task.amount, merchantWalletId: run.walletId },
    expect: 201,
  });
  if (!order) return;
  run.work.created++;
  if (task.kind === 'expire') {
    await run.stack.db.sequelize.query(
      `UPDATE orders SET expires_at = now() - interval '1 second' WHERE reference = :reference`,
      { replacements: { reference: order.reference } },
    );
    run.work.expiring.push(order.reference);
    return;
  }
  await payAndWatch(run, task, order);
}

/**
 * The checkout page polls while the payer gets the wallet out; the payer pays (and reports it,
 * for half the orders); the page shows the payment once it is final.
 */
async function payAndWatch(run: WorkloadRun, task: Task & { kind: 'pay' }, order: Order): Promise<void> {
  const payer = run.payers[run.payerIndex++];
  if (!payer) throw new Error('no payer left');
  const info = () => run.call<{ status: string }>('GET', `/pay/${order.reference}/info`);
  const until = performance.now() + PAYER_DELAY_MS;
  while (performance.now() < until) {
    await info();
    await sleep(Math.min(POLL_MS, Math.max(0, until - performance.now())));
  }
  let txId: string;
  try {
    txId = await run.stack.chain.transfer({
      payer,
      recipientOwner: run.owner,
      mint: run.stack.mint,
      amountUnits: parseUnits(order.amount, 6),
      reference: task.withReference ? new PublicKey(order.reference) : undefined,
    });
  } catch (error) {
    run.work.chainErrors.push(`${order.reference}: ${errorMessage(error)}`);
    return;
  }
  const sentAt = performance.now();
  const record: PaidOrder = {
    reference: order.reference,
    withReference: task.withReference,
    reported: task.report,
    txId,
    sentAtWall: Date.now(),
  };
  run.work.paid.push(record);
  if (task.report)
    await run.call('POST', `/pay/${order.reference}/submit-tx`, { body: { txId }, expect: 202 });
  record.seenPaidMs = await msUntilPaid(info, sentAt);
}

/** Polls until the page shows PAID: ms since `sentAt`, or undefined after POLL_LIMIT_MS. */
async function msUntilPaid(
  info: () => Promise<{ status: string } | null>,
  sentAt: number,
): Promise<number | undefined> {
  while (performance.now() - sentAt < POLL_LIMIT_MS) {
    if ((await info())?.status === 'PAID') return performance.now() - sentAt;
    await sleep(POLL_MS);
  }
  return undefined;
}
