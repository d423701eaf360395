import { randomEvmAddress } from '../sandbox/chains/evm/local-evm';
import { createMerchant } from '../test/support/harness';
import type { Address, Hex } from 'viem';
import { requireEvm } from './evm';
import { progress } from './lib/progress';
import { callsByMethod, timed, totalCalls, type Report } from './measure';
import { EVM_CONFIRMATIONS, EVM_NETWORK } from './settings';
import type { Ctx } from './stack';

/** Items of each payout: the most one batch takes. */
const ITEMS = 500;
const PASSWORD = 'bench-payouts-123';

type Tx = { purpose: string; items: string[]; transaction: { to: Address; data: Hex } };
type Payout = { id: string; status: string; items: { status: string }[] };

/**
 * Payouts of 500 items on the local EVM chain, two ways in the same run: the baseline, one tagged
 * transfer per item (500 transactions, each reported), and the PayoutBatch contract (an approve and
 * a pay() per 200 items, each pay() reported). For each: building the unsigned transactions
 * (GET /payouts/{id}/transactions), sending them, and reporting + verifying until COMPLETED, with
 * the RPC calls the service made and the gas the chain charged.
 */
export async function benchPayouts(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  const chain = evm.chain;
  progress(`payouts of ${ITEMS} items on ${EVM_NETWORK}: per-item transfers vs the PayoutBatch contract`);
  // A merchant of its own whose paying wallet's key the bench holds.
  const email = 'bench-payouts@stablepay.local';
  await createMerchant(ctx.server.deps.db.models, { email, password: PASSWORD, name: 'Bench Payouts' });
  const { token } = await ctx.api.json<{ token: string }>('POST', '/auth/login', {
    body: { email, password: PASSWORD },
  });
  const payer = await chain.newWallet({ token: evm.usdt, units: 10n ** 15n });
  await ctx.api.json('POST', '/users/me/wallets', {
    token,
    body: { network: EVM_NETWORK, public_address: payer.address },
    expect: 201,
  });
  const call = <T>(method: string, path: string, body?: unknown) =>
    ctx.api.json<T>(method, path, { token, body, expect: 200 });
  const gasOf = async (hashes: Hex[]) => {
    let gas = 0n;
    for (const hash of hashes) gas += (await chain.publicClient.getTransactionReceipt({ hash })).gasUsed;
    return gas;
  };

  // The contract, deployed from the transaction the service builds and reported.
  const deployment = await call<{ transaction: { data: Hex } }>('POST', '/payouts/batch-contracts', {
    network: EVM_NETWORK,
  });
  const deployHash = await chain.walletClient.sendTransaction({
    account: payer,
    chain: chain.chain,
    data: deployment.transaction.data,
    to: null,
  });
  await chain.mine(EVM_CONFIRMATIONS);
  await call('POST', `/payouts/batch-contracts/${EVM_NETWORK}`, { txId: deployHash });

  for (const batch of [false, true]) {
    const label = batch ? 'PayoutBatch' : 'per-item transfers';
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      network: EVM_NETWORK,
      token: 'USDT',
      to: randomEvmAddress(),
      amount: `0.${String(i + 1).padStart(6, '0')}`,
    }));
    const made = await ctx.api.json<Payout>('POST', '/payouts', { token, body: { items }, expect: 201 });
    await call('POST', `/payouts/${made.id}/approve`);

    chain.resetRpcCalls();
    const built = await timed(() =>
      call<{ transactions: Tx[] }>('GET', `/payouts/${made.id}/transactions${batch ? '?batch=true' : ''}`),
    );
    const buildCalls = { ...chain.rpcCalls };
    const txs = built.value.transactions;

    const sent = await timed(async () => {
      const hashes: Hex[] = [];
      for (const tx of txs)
        hashes.push(
          await chain.sendTransaction({ from: payer, to: tx.transaction.to, data: tx.transaction.data }),
        );
      return hashes;
    });
    await chain.mine(EVM_CONFIRMATIONS);
    const reported = sent.value.filter((_, i) => txs[i]!.purpose === 'pay');

    chain.resetRpcCalls();
    const verified = await timed(async () => {
      let last: Payout | null = null;
      for (const txId of reported)
        last = await call<Payout>('POST', `/payouts/${made.id}/transactions`, { network: EVM_NETWORK, txId });
      return last;
    });
    const verifyCalls = { ...chain.rpcCalls };
    if (verified.value?.status !== 'COMPLETED')
      throw new Error(`the ${label} payout is ${verified.value?.status}, not COMPLETED`);
    const gas = await gasOf(sent.value);

    report.rows.push(
      { name: `payout ${ITEMS}, ${label}: build transactions`, count: 1, totalMs: built.ms },
      { name: `payout ${ITEMS}, ${label}: report + verify until COMPLETED`, count: 1, totalMs: verified.ms },
    );
    report.notes.push(
      `payout of ${ITEMS} on ${EVM_NETWORK}, ${label}: ${txs.length} transactions to sign ` +
        `(${sent.value.length} sent in ${(sent.ms / 1000).toFixed(1)} s), ${reported.length} reported; ` +
        `gas ${gas} (${gas / BigInt(ITEMS)} per item); ` +
        `build RPC calls ${totalCalls(buildCalls)} (${callsByMethod(buildCalls)}); ` +
        `verify RPC calls ${totalCalls(verifyCalls)} (${callsByMethod(verifyCalls)})`,
    );
  }
}
