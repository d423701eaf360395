import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { decodeFunctionData, erc20Abi, toHex, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createChainRegistry } from '../../server/chains/registry';
import { loadConfig } from '../../server/config';
import { decodeBase58 } from '../../server/lib/base58';
import type { ObservedTransaction, Transfer } from '../../server/chains/chain-adapter';
import { paysOrder, toleranceBps, toleranceUnits } from '../../server/payments/underpayment-tolerance';
import { shortfallSumUnits } from '../../server/orders/payment-options';
import { judgeRefund, type RefundFacts } from '../../server/refunds/judge-refund';
import { pageLanguage } from '../../server/refunds/page-language';
import { refundHoldsAmount } from '../../contract';
import { refundableUnits } from '../../server/orders/refundable-amount';
import { lateUntil, refundAmount, refundDeadline } from '../../server/refunds/refund-rules';

const facts: RefundFacts = {
  tag: 'TAG',
  tokenMint: 'MINT',
  from: 'SHOP',
  to: 'PAYER',
  amountUnits: 5_000_000n,
  decimals: 6,
  sendableSince: new Date('2026-11-22T10:00:00Z'),
};
const transfer = (o: Partial<Transfer> = {}): Transfer => ({
  from: 'SHOP',
  to: 'PAYER',
  token: 'MINT',
  amountUnits: 5_000_000n,
  position: 0,
  ...o,
});
const final = (
  o: { tags?: string[]; transfers?: Transfer[]; blockTime?: Date | null } = {},
): ObservedTransaction => ({
  txId: 'tx',
  state: 'final',
  blockTime: o.blockTime === undefined ? new Date('2026-11-22T10:05:00Z') : o.blockTime,
  tags: o.tags ?? [],
  transfers: o.transfers ?? [transfer()],
});

describe('refundable amount', () => {
  it('is received less committed refunds, never negative', () => {
    expect(refundableUnits(10n, 3n)).toBe(7n);
    expect(refundableUnits(10n, 10n)).toBe(0n);
    expect(refundableUnits(10n, 12n)).toBe(0n);
  });
  it('defaults to everything refundable and refuses more than that or nothing', () => {
    expect(refundAmount(null, 7n)).toEqual({ ok: true, units: 7n });
    expect(refundAmount(7n, 7n)).toEqual({ ok: true, units: 7n });
    expect(refundAmount(8n, 7n)).toEqual({ ok: false, reason: 'is more than what is left to refund' });
    expect(refundAmount(null, 0n)).toEqual({ ok: false, reason: 'nothing is left to refund' });
  });
  it('has its deadline counted from when it became sendable', () => {
    expect(refundDeadline(new Date('2026-11-22T10:00:00Z'), 86400).toISOString()).toBe(
      '2026-11-23T10:00:00.000Z',
    );
  });
});

describe('what a refund holds of what its order received', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('every refund that is or may still be paid holds its amount', () => {
    for (const status of ['AWAITING_ADDRESS', 'AWAITING_APPROVAL', 'PENDING', 'SUCCEEDED'] as const)
      expect(refundHoldsAmount({ status, lateUntil: null }, now), status).toBe(true);
  });
  it('a FAILED one until its late window ends (its transfer may still land), then no more', () => {
    const failed = (lateUntil: string | null) => ({ status: 'FAILED' as const, lateUntil });
    expect(refundHoldsAmount(failed('2026-11-22T10:00:01Z'), now)).toBe(true);
    expect(refundHoldsAmount(failed('2026-11-22T10:00:00Z'), now)).toBe(false);
    expect(refundHoldsAmount(failed(null), now)).toBe(false);
    expect(refundHoldsAmount({ status: 'FAILED', lateUntil: new Date('2026-11-23T00:00:00Z') }, now)).toBe(
      true,
    );
  });
  it('a late window only for a refund that could be sent', () => {
    expect(lateUntil(now, true, 3600)?.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(lateUntil(now, false, 3600)).toBeNull();
  });
});

describe('judgeRefund: a refund is verified like a payment', () => {
  it('accepts the exact amount from the wallet to the address, by tag or by amount', () => {
    expect(judgeRefund(facts, final({ tags: ['TAG'] }))).toMatchObject({ kind: 'accept', matchedBy: 'tag' });
    expect(judgeRefund(facts, final())).toMatchObject({ kind: 'accept', matchedBy: 'amount' });
    // Two transfers on the path add up.
    expect(
      judgeRefund(
        facts,
        final({
          tags: ['TAG'],
          transfers: [transfer({ amountUnits: 2_000_000n }), transfer({ amountUnits: 3_000_000n })],
        }),
      ),
    ).toMatchObject({ kind: 'accept' });
  });
  it('never verifies the wrong amount, token, sender or recipient', () => {
    expect(
      judgeRefund(facts, final({ tags: ['TAG'], transfers: [transfer({ amountUnits: 4_000_000n })] })),
    ).toEqual({
      kind: 'reject',
      reason: "sends 4.000000, not the refund's 5.000000",
    });
    expect(
      judgeRefund(facts, final({ tags: ['TAG'], transfers: [transfer({ amountUnits: 6_000_000n })] })).kind,
    ).toBe('reject');
    expect(judgeRefund(facts, final({ tags: ['TAG'], transfers: [transfer({ token: 'OTHER' })] })).kind).toBe(
      'reject',
    );
    expect(
      judgeRefund(facts, final({ tags: ['TAG'], transfers: [transfer({ from: 'SOMEONE' })] })).kind,
    ).toBe('reject');
    expect(
      judgeRefund(facts, final({ tags: ['TAG'], transfers: [transfer({ to: 'ELSEWHERE' })] })).kind,
    ).toBe('reject');
    // Untagged and not on the path at all: not this refund's business.
    expect(judgeRefund(facts, final({ transfers: [transfer({ from: 'SOMEONE' })] }))).toEqual({
      kind: 'ignore',
    });
    // Untagged, on the path, another amount: recorded, not verified.
    expect(judgeRefund(facts, final({ transfers: [transfer({ amountUnits: 1n })] })).kind).toBe('reject');
  });
  it('ignores an untagged transfer from before the refund could be sent; waits for finality', () => {
    expect(judgeRefund(facts, final({ blockTime: new Date('2026-11-22T09:00:00Z') }))).toEqual({
      kind: 'ignore',
    });
    expect(
      judgeRefund(facts, final({ tags: ['TAG'], blockTime: new Date('2026-11-22T09:00:00Z') })).kind,
    ).toBe('accept');
    expect(judgeRefund(facts, { txId: 'tx', state: 'not_final' }).kind).toBe('wait');
    expect(judgeRefund(facts, { txId: 'tx', state: 'not_found' }).kind).toBe('wait');
    expect(
      judgeRefund(facts, { txId: 'tx', state: 'failed', blockTime: null, tags: ['TAG'], transfers: [] }),
    ).toEqual({ kind: 'reject', reason: 'transaction failed on chain' });
  });
});

describe('underpayment tolerance', () => {
  const order = (amount: bigint, received: bigint) => ({
    amountUnits: amount,
    tokenDecimals: 6,
    amountReceivedUnits: received,
  });
  it('is the profile setting, else the server default', () => {
    expect(toleranceBps({ UNDERPAYMENT_TOLERANCE_BPS: 25 }, { underpaymentToleranceBps: null })).toBe(25);
    expect(toleranceBps({ UNDERPAYMENT_TOLERANCE_BPS: 25 }, { underpaymentToleranceBps: 0 })).toBe(0);
    expect(toleranceBps({ UNDERPAYMENT_TOLERANCE_BPS: 25 }, null)).toBe(25);
  });
  it('allows a shortfall of at most bps of the amount, rounded down', () => {
    expect(toleranceUnits(10_000_000n, 100)).toBe(100_000n);
    expect(toleranceUnits(999n, 100)).toBe(9n);
    expect(paysOrder(order(10_000_000n, 9_900_000n), 100)).toBe(true);
    expect(paysOrder(order(10_000_000n, 9_899_999n), 100)).toBe(false);
    expect(paysOrder(order(10_000_000n, 9_999_999n), 0)).toBe(false);
    expect(paysOrder(order(10_000_000n, 12_000_000n), 0)).toBe(true);
    expect(shortfallSumUnits(order(10n, 12n))).toBe(0n);
  });
});

describe('refund page language', () => {
  it('takes ?lang=, else the best Accept-Language, else English', () => {
    expect(pageLanguage('es', 'pt-BR')).toBe('es');
    expect(pageLanguage('xx', 'pt-PT,en;q=0.5')).toBe('pt-BR');
    expect(pageLanguage(undefined, 'de, en;q=0.3, es;q=0.7')).toBe('es');
    expect(pageLanguage(undefined, 'es;q=0, en')).toBe('en');
    expect(pageLanguage(undefined, undefined)).toBe('en');
    expect(pageLanguage(undefined, 'fr')).toBe('en');
  });
});

describe('chain adapters: refund links, transactions and where to find them', () => {
  const registry = createChainRegistry(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:1' }));
  const target = (network: 'SOLANA' | 'POLYGON') => {
    const chain = registry.get(network);
    return network === 'SOLANA'
      ? {
          id: 'rf_1',
          tag: Keypair.generate().publicKey.toBase58(),
          token: 'USDT' as const,
          tokenMint: chain.tokenMint('USDT')!,
          decimals: 6,
          from: Keypair.generate().publicKey.toBase58(),
          to: Keypair.generate().publicKey.toBase58(),
          amountUnits: 2_500_000n,
        }
      : {
          id: 'rf_1',
          tag: Keypair.generate().publicKey.toBase58(),
          token: 'USDT' as const,
          tokenMint: chain.tokenMint('USDT')!,
          decimals: 6,
          from: '0x52908400098527886E0F7030069857D2E4169EE7',
          to: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
          amountUnits: 2_500_000n,
        };
  };

  it("Solana: a Solana Pay transaction request for the wallet, found in the refund address's token account (tagged or not)", () => {
    const chain = registry.get('SOLANA');
    const t = target('SOLANA');
    expect(chain.refundTransactionRequests).toBe(true);
    expect(chain.refundUri('https://pay.example.com', t)).toBe(
      'solana:https://pay.example.com/pay/refunds/rf_1/tx-request',
    );
    expect(chain.refundScanTarget(t)).toEqual({
      key: getAssociatedTokenAddressSync(new PublicKey(t.tokenMint), new PublicKey(t.to), true).toBase58(),
      token: t.tokenMint,
      recipients: [t.to],
      senders: [t.from],
    });
  });

  it('EVM: an EIP-681 transfer, a tagged transfer call, found by from -> to logs', async () => {
    const chain = registry.get('POLYGON');
    const t = target('POLYGON');
    expect(chain.refundTransactionRequests).toBe(false);
    expect(chain.refundUri('https://pay.example.com', t)).toBe(
      `ethereum:${t.tokenMint}@137/transfer?address=${t.to}&uint256=2500000`,
    );
    const built = await chain.buildRefundTransaction(t);
    const data = built.body.data as Hex;
    expect(built.body).toMatchObject({ chainId: 137, to: t.tokenMint, value: '0' });
    expect(decodeFunctionData({ abi: erc20Abi, data: data.slice(0, 138) as Hex }).args).toEqual([
      t.to,
      2_500_000n,
    ]);
    expect(data.slice(-64)).toBe(toHex(decodeBase58(t.tag)!).slice(2));
    expect(chain.refundScanTarget(t)).toEqual({
      key: t.tokenMint,
      token: t.tokenMint,
      recipients: [t.to],
      senders: [t.from],
    });
  });
});
