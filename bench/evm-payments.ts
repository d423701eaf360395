import type { Address, Hex } from 'viem';
import type { z } from 'zod';
import type { ZEvmTransaction } from '../contract';
import type { LocalWallet } from '../test/support/harness';
import { requireEvm } from './evm';
import { createOrders, nth, verifyUntilPaid } from './fixtures';
import { progress } from './lib/progress';
import { callsByMethod, totalCalls, type Report } from './measure';
import { measurePayPath } from './payment-path';
import { EVM_CONFIRMATIONS, EVM_NETWORK, SIZES } from './settings';
import type { Ctx } from './stack';

type EvmTransactionResponse = z.infer<typeof ZEvmTransaction>;

/**
 * The EVM payment path end to end: the payer's three steps, then verify-payments until all are
 * PAID, with the RPC calls the verification made.
 */
export async function benchEvmPayments(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  progress(`the ${EVM_NETWORK} payment path (tx-request, sign and send, submit-tx, verify-payments)`);
  const n = SIZES.evmPayments;
  const orders = await createOrders(ctx, n, evm.wallet);
  const payers: LocalWallet[] = [];
  for (let i = 0; i < n; i++)
    payers.push(await evm.chain.newWallet({ token: evm.usdt, units: 1_000_000_000n }));
  const payer = (i: number) => nth(payers, i, 'payer');

  await measurePayPath(ctx, report, {
    prefix: `${EVM_NETWORK} `,
    sendCall: 'eth_sendRawTransaction',
    orders,
    requestTx: (order, i) =>
      ctx.api.json<EvmTransactionResponse>(
        'GET',
        `/pay/tx-request/${order.reference}?account=${payer(i).address}`,
      ),
    // Automine: the node answers once the transaction's block is mined.
    signAndSend: (built, i) =>
      evm.chain.sendTransaction({ from: payer(i), to: built.to as Address, data: built.data as Hex }),
  });

  // Every payment final before the verifier runs: each claim is settled at its first check.
  await evm.chain.mine(EVM_CONFIRMATIONS);
  evm.chain.resetRpcCalls();
  const verify = await verifyUntilPaid(
    ctx,
    orders.map((o) => o.reference),
  );
  const calls = { ...evm.chain.rpcCalls };
  report.rows.push({ name: `${EVM_NETWORK} verify-payments until ${n} PAID`, count: n, totalMs: verify.ms });
  report.notes.push(
    `${EVM_NETWORK} verify-payments: ${n} payments verified in ${verify.runs} run(s) of batch ${SIZES.jobBatch}, ` +
      `${EVM_CONFIRMATIONS} confirmations; RPC calls ${callsByMethod(calls)} ` +
      `(${(totalCalls(calls) / n).toFixed(1)} per payment)`,
  );
}
