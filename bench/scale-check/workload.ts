import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { errorMessage } from '../lib/cleanup';
import { progress, seconds } from '../lib/progress';
import { killAndRestart } from './chaos';
import type { Client } from './client';
import { runTask, type WorkloadRun } from './payer';
import { AMOUNTS, EMAIL, KILL_AT, KILLED, PASSWORD, RESTART_AFTER_MS, SIZES } from './settings';
import type { Stack } from './stack';

export type Task =
  | { kind: 'pay'; key: string; amount: string; withReference: boolean; report: boolean }
  | { kind: 'expire'; key: string; amount: string };

export type PaidOrder = {
  reference: string;
  withReference: boolean;
  reported: boolean;
  txId: string;
  /** When the payment was sent (epoch ms, to compare with the database's times). */
  sentAtWall: number;
  /** Payment sent -> the checkout page's poll saw PAID (unset: not within POLL_LIMIT_MS). */
  seenPaidMs?: number;
};

export const kindOf = (p: PaidOrder) =>
  `${p.withReference ? 'reference' : 'amount only'}${p.reported ? ' + submit-tx' : ', scanner'}`;

export type Timeline = {
  start: number;
  killedAt?: number;
  killedAfter?: string;
  /** Requests HAProxy had on the instance when it was killed. */
  servingAtKill?: number;
  chaosError?: string;
  restartedAt?: number;
  backInRotationAt?: number;
  workloadDoneAt?: number;
  convergedAt?: number;
};

export type Work = { paid: PaidOrder[]; expiring: string[]; created: number; chainErrors: string[] };

function buildTasks(runId: string): Task[] {
  const tasks: Task[] = [];
  const total = SIZES.paid + SIZES.expiring;
  const every = Math.floor(total / SIZES.expiring);
  let paid = 0;
  for (let i = 0; i < total; i++) {
    const amount = AMOUNTS[i % AMOUNTS.length] ?? '10.00';
    const key = `scale-${runId}-${i}`;
    if (i % every === every - 1 && tasks.filter((t) => t.kind === 'expire').length < SIZES.expiring)
      tasks.push({ kind: 'expire', key, amount });
    else {
      // 0: reference + reported; 1: amount only + reported; 2: reference, found by the scanner;
      // 3: amount only, found by the scanner.
      tasks.push({ kind: 'pay', key, amount, withReference: paid % 2 === 0, report: paid % 4 < 2 });
      paid++;
    }
  }
  return tasks;
}

/** Logged in through the balancer: a receiving wallet and the webhook target set up. */
async function prepareMerchant(stack: Stack, call: Client['call']) {
  const login = await call<{ token: string }>('POST', '/auth/login', {
    body: { email: EMAIL, password: PASSWORD },
  });
  if (!login) throw new Error('cannot log in through the balancer');
  const token = login.token;
  const owner: PublicKey = Keypair.generate().publicKey;
  const wallet = await call<{ wallet_id: string }>('POST', '/users/me/wallets', {
    token,
    body: { network: 'SOLANA', public_address: owner.toBase58(), name: 'scale check' },
    expect: 201,
  });
  if (!wallet) throw new Error('cannot add the wallet through the balancer');
  if (!(await call('POST', '/users/me/webhook-secret', { token })))
    throw new Error('cannot set the webhook secret through the balancer');
  if (!(await call('PATCH', '/users/me', { token, body: { webhook_url: stack.receiver.url } })))
    throw new Error('cannot set the webhook URL through the balancer');
  return { token, owner, walletId: wallet.wallet_id };
}

async function fundPayers(stack: Stack): Promise<Keypair[]> {
  progress(`funding ${SIZES.paid} payers on the local chain`);
  const payers: Keypair[] = [];
  for (let i = 0; i < SIZES.paid; i++)
    payers.push(await stack.chain.newPayer({ mint: stack.mint, units: 1_000_000_000n }));
  return payers;
}

/**
 * The orders through the balancer, SIZES.concurrency at a time; at KILL_AT of them, one instance
 * is killed and later started again (see killAndRestart).
 */
export async function runWorkload(stack: Stack, client: Client, timeline: Timeline): Promise<Work> {
  const merchant = await prepareMerchant(stack, client.call);
  const tasks = buildTasks(randomBytes(4).toString('hex'));
  const run: WorkloadRun = {
    stack,
    call: client.call,
    ...merchant,
    payers: await fundPayers(stack),
    payerIndex: 0,
    work: { paid: [], expiring: [], created: 0, chainErrors: [] },
  };
  let next = 0;
  let done = 0;
  let chaos: Promise<void> | undefined;
  const afterTask = () => {
    done++;
    // Caught here: an error must wait for the end of the workload, not surface as an unhandled rejection.
    if (!chaos && done >= tasks.length * KILL_AT)
      chaos = killAndRestart(stack, timeline, () => `${done} of ${tasks.length} orders done`).catch(
        (error: unknown) => {
          timeline.chaosError = errorMessage(error);
        },
      );
  };

  progress(
    `workload: ${tasks.length} orders through the balancer, ${SIZES.concurrency} at a time; ` +
      `instance ${KILLED} is killed at ${KILL_AT * 100}% and started again ${seconds(RESTART_AFTER_MS)} later`,
  );
  timeline.start = performance.now();
  await Promise.all(
    Array.from({ length: SIZES.concurrency }, async () => {
      while (next < tasks.length) {
        const task = tasks[next++];
        if (task) await runTask(run, task);
        afterTask();
      }
    }),
  );
  timeline.workloadDoneAt = performance.now();
  await chaos;
  if (timeline.chaosError)
    throw new Error(`killing and restarting instance ${KILLED}: ${timeline.chaosError}`);
  return run.work;
}
