import { privateKeyToAccount } from 'viem/accounts';
import { getAddress } from 'viem';
import { requireEvm } from './evm';
import { signedPayment, solanaPayment } from '../test/support/harness';
import { progress } from './lib/progress';
import { concurrent, sequential, type Report } from './measure';
import { EVM_CHAIN_ID, EVM_NETWORK, SIZES } from './settings';
import type { Ctx } from './stack';

const PRICE = 10_000n;
const SETTLE_CONCURRENCY = 8;

/**
 * x402 (issue 39) on one instance, on EVM then Solana. EVM: the cost of POST /x402/verify (this
 * account's checks, then @x402/evm's: signature, time window, a simulated transfer), settlements per second
 * (POST /x402/settle of distinct authorizations, 8 at a time: sends are serialized per gas key,
 * each waits for its receipt; Hardhat mines each at once), with the order each one records.
 */
export async function benchX402(ctx: Ctx, report: Report): Promise<void> {
  await benchX402Evm(ctx, report);
  await benchX402Solana(ctx, report);
}

/**
 * Verifies of one payment (after a warm-up), with the RPC calls they make, then settlements of
 * distinct payments, SETTLE_CONCURRENCY at a time: rows and a note for the report.
 */
async function verifyAndSettle(
  ctx: Ctx,
  report: Report,
  o: {
    /** ` on Solana` or nothing (EVM), in the rows' and note's names. */
    on: string;
    chain: { readonly rpcCalls: Record<string, number>; resetRpcCalls(): void };
    payment: () => Promise<unknown>;
    /** How the settlements were made, for the note. */
    how: string;
  },
): Promise<void> {
  const { secret: apiKey } = await ctx.api.json<{ secret: string }>('POST', '/users/me/api-keys', {
    token: ctx.token,
    body: { name: 'x402 bench', scopes: ['x402:settle'] },
    expect: 201,
  });
  const call = async (path: string, body: unknown, ok: (answer: Record<string, unknown>) => boolean) => {
    const answer = await ctx.api.json<Record<string, unknown>>('POST', path, { token: apiKey, body });
    if (!ok(answer)) throw new Error(`${path}: ${JSON.stringify(answer).slice(0, 300)}`);
  };
  const one = await o.payment();
  for (let i = 0; i < SIZES.warmUp; i++) await call('/x402/verify', one, (a) => a.isValid === true);
  o.chain.resetRpcCalls();
  report.rows.push(
    await sequential(`POST /x402/verify${o.on} (one payment)`, SIZES.x402Verifies, () =>
      call('/x402/verify', one, (a) => a.isValid === true),
    ),
  );
  const verifyCalls = Object.values(o.chain.rpcCalls).reduce((a, b) => a + b, 0);
  const bodies = await Promise.all(Array.from({ length: SIZES.x402Settlements }, o.payment));
  const settled = await concurrent(
    `POST /x402/settle${o.on} (${SETTLE_CONCURRENCY} at a time)`,
    SIZES.x402Settlements,
    SETTLE_CONCURRENCY,
    (i) => call('/x402/settle', bodies[i], (a) => a.success === true),
  );
  report.rows.push(settled);
  report.notes.push(
    `x402${o.on}: verify costs ${(verifyCalls / SIZES.x402Verifies).toFixed(1)} RPC calls; ` +
      `${(SIZES.x402Settlements / (settled.totalMs / 1000)).toFixed(1)} settlements/s on one instance ` +
      `(${o.how})`,
  );
}

/**
 * The same on Solana: verify (this account's checks, the fee payer's balance and the fee, then
 * @x402/svm's: layout, signatures, a simulation), and settlements of distinct transactions (each
 * co-signed by the fee payer, sent and confirmed; not serialized: Solana has no nonces).
 */
async function benchX402Solana(ctx: Ctx, report: Report): Promise<void> {
  const feePayer = ctx.x402FeePayer;
  if (!feePayer) return;
  progress('x402 on SOLANA: verify, then settle');
  await ctx.chain.mintTo(ctx.wallet.owner, ctx.mint, 0n);
  const from = await ctx.chain.newPayer({ mint: ctx.mint, units: 10n ** 12n });
  await verifyAndSettle(ctx, report, {
    on: ' on Solana',
    chain: ctx.chain,
    payment: () =>
      solanaPayment(ctx.chain.connection, {
        from,
        payTo: ctx.wallet.owner,
        mint: ctx.mint,
        feePayer: feePayer.publicKey,
        amountUnits: PRICE,
      }),
    how: 'one fee payer, each answered once confirmed, litesvm',
  });
}

async function benchX402Evm(ctx: Ctx, report: Report): Promise<void> {
  const evm = requireEvm(ctx);
  progress(`x402 on ${EVM_NETWORK}: verify, then settle`);
  const payer = await evm.chain.newWallet({ token: evm.usdc, units: 10n ** 12n });
  const account = Object.assign(privateKeyToAccount(payer.privateKey), { address: payer.address });
  await verifyAndSettle(ctx, report, {
    on: '',
    chain: evm.chain,
    payment: () =>
      signedPayment(account, {
        chainId: EVM_CHAIN_ID,
        asset: evm.usdc,
        payTo: getAddress(evm.wallet.address),
        amountUnits: PRICE,
      }),
    how: 'one gas key, sends serialized, each answered on inclusion, Hardhat automine',
  });
}
