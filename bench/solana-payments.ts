import type { Keypair } from '@solana/web3.js';
import type { z } from 'zod';
import type { ZSolanaTransaction } from '../contract';
import { createOrders, nth, verifyUntilPaid } from './fixtures';
import { progress } from './lib/progress';
import type { Report } from './measure';
import { measurePayPath } from './payment-path';
import { SIZES } from './settings';
import type { Ctx } from './stack';

type SolanaTransactionResponse = z.infer<typeof ZSolanaTransaction>;

/** The Solana payment path end to end: the payer's three steps, then verify-payments until all are PAID. */
export async function benchPayments(ctx: Ctx, report: Report): Promise<void> {
  progress('the payment path (tx-request, sign and send, submit-tx, verify-payments)');
  const n = SIZES.payments;
  const orders = await createOrders(ctx, n);
  const payers: Keypair[] = [];
  for (let i = 0; i < n; i++)
    payers.push(await ctx.chain.newPayer({ mint: ctx.mint, units: 1_000_000_000n }));
  const payer = (i: number) => nth(payers, i, 'payer');

  await measurePayPath(ctx, report, {
    prefix: '',
    sendCall: 'sendTransaction',
    orders,
    requestTx: (order, i) =>
      ctx.api.json<SolanaTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer(i).publicKey.toBase58()}`,
      ),
    signAndSend: (built, i) => ctx.chain.signAndSend(built.transaction, payer(i)),
  });

  const verify = await verifyUntilPaid(
    ctx,
    orders.map((o) => o.reference),
  );
  report.rows.push({ name: `verify-payments until ${n} PAID`, count: n, totalMs: verify.ms });
  report.notes.push(
    `verify-payments: ${n} payments verified in ${verify.runs} run(s) of batch ${SIZES.jobBatch}`,
  );
}
