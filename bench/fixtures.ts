import { setTimeout as sleep } from 'node:timers/promises';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { QueryTypes } from 'sequelize';
import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { z } from 'zod';
import type { Order, ZWallet } from '../contract';
import { formatUnits, parseUnits } from '../contract/decimal';
import { timed } from './measure';
import { EVM_NETWORK, SIZES } from './settings';
import type { Ctx, EvmWallet, Wallet } from './stack';

export function amountSequence(first: string): () => string {
  let next = parseUnits(first, 6);
  return () => {
    const amount = next;
    next += 10_000n;
    return formatUnits(amount, 6, 2);
  };
}

/** A SOLANA receiving wallet whose keypair is generated here. */
export async function addWallet(ctx: Ctx, name: string): Promise<Wallet> {
  const owner = Keypair.generate().publicKey;
  const wallet = await ctx.api.json<z.infer<typeof ZWallet>>('POST', '/users/me/wallets', {
    token: ctx.token,
    body: { network: 'SOLANA', public_address: owner.toBase58(), name },
    expect: 201,
  });
  return { id: wallet.wallet_id, owner };
}

/** An EVM receiving wallet at a fresh address. */
export async function addEvmWallet(ctx: Ctx, name: string): Promise<EvmWallet> {
  const wallet = await ctx.api.json<z.infer<typeof ZWallet>>('POST', '/users/me/wallets', {
    token: ctx.token,
    body: { network: EVM_NETWORK, public_address: privateKeyToAccount(generatePrivateKey()).address, name },
    expect: 201,
  });
  return { id: wallet.wallet_id, address: getAddress(wallet.public_address) };
}

/** A USDT order to a SOLANA wallet, or to an EVM one (on EVM_NETWORK). */
export function createOrder(ctx: Ctx, wallet: Wallet | EvmWallet = ctx.wallet): Promise<Order> {
  const network = 'owner' in wallet ? 'SOLANA' : EVM_NETWORK;
  return ctx.api.json<Order>('POST', '/orders', {
    token: ctx.token,
    body: { network, token: 'USDT', amount: ctx.nextAmount(), merchantWalletId: wallet.id },
    expect: 201,
  });
}

export async function createOrders(
  ctx: Ctx,
  count: number,
  wallet: Wallet | EvmWallet = ctx.wallet,
): Promise<Order[]> {
  const orders: Order[] = [];
  for (let i = 0; i < count; i++) orders.push(await createOrder(ctx, wallet));
  return orders;
}

export async function sqlCount(
  ctx: Ctx,
  sql: string,
  replacements: Record<string, unknown> = {},
): Promise<number> {
  const rows = await ctx.server.deps.db.sequelize.query<{ n: number }>(sql, {
    type: QueryTypes.SELECT,
    replacements,
  });
  return rows[0]?.n ?? 0;
}

export const countPaid = (ctx: Ctx, references: string[]) =>
  sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM orders WHERE status = 'PAID' AND reference IN (:references)`,
    { references },
  );

export const countOpen = (ctx: Ctx, recipient: PublicKey | Address) =>
  sqlCount(
    ctx,
    `SELECT count(*)::int AS n FROM orders
      WHERE recipient = :recipient AND status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')`,
    { recipient: typeof recipient === 'string' ? recipient : recipient.toBase58() },
  );

/**
 * Closes every open order, or those of `references` (expired, past its late-payment window), so
 * that a scan cycle reads only the wallets a step opens orders on.
 */
export async function closeOpenOrders(ctx: Ctx, references?: string[]): Promise<void> {
  await ctx.server.deps.db.sequelize.query(
    `UPDATE orders SET status = 'EXPIRED', expires_at = now() - interval '30 days', updated_at = now()
      WHERE status IN ('PENDING', 'CONFIRMING', 'UNDERPAID')
        ${references ? 'AND reference IN (:references)' : ''}`,
    { replacements: { references: references ?? [] } },
  );
}

/**
 * Orders inserted straight into the table, `count` per template, each copying its template's
 * merchant, wallet, network and mint. References are 32 base58 characters (md5 hex with '0'
 * mapped to 'z'); amounts are distinct per template.
 */
export async function insertOrders(
  ctx: Ctx,
  opts: { template: string | string[]; count: number; status: 'EXPIRED' | 'PENDING'; baseUnits: bigint },
): Promise<void> {
  // EXPIRED ones are history, long past the late-payment window; PENDING ones expire with the template.
  const times =
    opts.status === 'EXPIRED'
      ? `now() - interval '30 days', now() - interval '30 days 15 minutes', now() - interval '30 days'`
      : `o.expires_at, now(), now()`;
  await ctx.server.deps.db.sequelize.query(
    `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                         amount_units, status, expires_at, created_at, updated_at)
     SELECT translate(md5(:salt || o.reference || g), '0', 'z'), o.merchant_id, o.wallet_id, o.network,
            o.token, o.token_mint, o.recipient, CAST(:base AS bigint) + g, :status, ${times}
       FROM orders o, generate_series(1, :count) AS g
      WHERE o.reference IN (:templates)`,
    {
      replacements: {
        salt: `${Date.now()}-${Math.random()}-`,
        base: opts.baseUnits.toString(),
        status: opts.status,
        count: opts.count,
        templates: typeof opts.template === 'string' ? [opts.template] : opts.template,
      },
    },
  );
  // As autovacuum would soon: with the statistics of before the insert, the planner expects a few
  // rows and sorts all of the merchant's orders for every listing page, even the first.
  await ctx.server.deps.db.sequelize.query('ANALYZE orders');
}

/**
 * Runs a job until `done`, at most `maxRuns` times; the time is that of the runs alone. A job
 * swallows its own errors (it logs them, and logging is off), so "not done" is reported here.
 */
export async function runJobUntil(
  ctx: Ctx,
  job: string,
  done: () => Promise<boolean>,
  maxRuns: number,
): Promise<{ ms: number; runs: number }> {
  let ms = 0;
  let runs = 0;
  while (!(await done())) {
    if (runs >= maxRuns) throw new Error(`${job}: still not done after ${runs} runs`);
    const run = await timed(() => ctx.server.jobs.runNow(job));
    ms += run.ms;
    runs++;
    if (run.value === 0) await sleep(100); // nothing was due: give the chain or the lease a moment
  }
  return { ms, runs };
}

/** Enough runs of a batch job for `count` items, and a few more for what the chain or a lease delays. */
export const runsFor = (count: number) => Math.ceil(count / SIZES.jobBatch) + 5;

/** Runs verify-payments until every one of `references` is PAID (at most `maxRuns` runs). */
export const verifyUntilPaid = (ctx: Ctx, references: string[], maxRuns = runsFor(references.length)) =>
  runJobUntil(
    ctx,
    'verify-payments',
    async () => (await countPaid(ctx, references)) === references.length,
    maxRuns,
  );

/** The i-th of `items`, which must be there. */
export function nth<T>(items: readonly T[], i: number, what: string): T {
  const item = items[i];
  if (item === undefined) throw new Error(`no ${what} ${i}`);
  return item;
}
