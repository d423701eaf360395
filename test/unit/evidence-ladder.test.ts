import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { ObservedTransaction, Transfer } from '../../server/chains/chain-adapter';
import { taggedTransferData, tagOf } from '../../server/chains/evm/order-tag';
import { transfersOf, TRANSFER_TOPIC } from '../../server/chains/evm/read-transaction';
import { tokenTransfers } from '../../server/chains/solana/read-transaction';
import type { Order, PaymentClaim } from '../../server/db/models';
import { isPayable } from '../../server/orders/payable';
import { judge } from '../../server/payments/settle-claim';

/** The evidence ladder and the facts it reads, as pure rules: no database, no chain. */

const NOW = new Date('2026-06-01T12:00:00Z');
const deps = {
  clock: () => NOW,
  config: { PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: 600 } as never,
};
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7';
const TOKEN = '0xc2132D05D31c914a87C6611C10748AEb04B58e8F';
const PAYER = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const reference = Keypair.generate().publicKey.toBase58();

const order = (over: Partial<Order> = {}) =>
  ({
    id: '1',
    reference,
    token: 'USDT',
    tokenMint: TOKEN,
    recipient: RECIPIENT,
    amountUnits: 10_000_000n,
    amountReceivedUnits: 0n,
    amountUnique: true,
    createdAt: new Date(NOW.getTime() - 60_000),
    ...over,
  }) as Order;
const claim = (source: PaymentClaim['source'] = 'payer') =>
  ({ source, createdAt: new Date(NOW.getTime() - 1000) }) as PaymentClaim;
const transfer = (amountUnits: bigint, over: Partial<Transfer> = {}): Transfer => ({
  from: PAYER,
  to: RECIPIENT,
  token: TOKEN,
  amountUnits,
  position: 0,
  ...over,
});
const tx = (transfers: Transfer[], tags: string[] = [], blockTime = NOW): ObservedTransaction => ({
  txId: '0xabc',
  state: 'final',
  blockTime,
  tags,
  transfers,
});

describe('the evidence ladder', () => {
  it('1. tag: pays its order whatever the amount, and records the sender', () => {
    for (const units of [1n, 10_000_000n, 99_000_000n])
      expect(judge(deps, order(), claim(), tx([transfer(units)], [reference]))).toEqual({
        kind: 'accept',
        credited: units,
        blockTime: NOW,
        matchedBy: 'tag',
        sender: PAYER,
      });
  });

  it('2. exact amount: the amount, or what is still due, without a tag', () => {
    expect(judge(deps, order(), claim('scanner'), tx([transfer(10_000_000n)]))).toMatchObject({
      kind: 'accept',
      matchedBy: 'amount',
    });
    const partlyPaid = order({ amountReceivedUnits: 4_000_000n });
    expect(judge(deps, partlyPaid, claim(), tx([transfer(6_000_000n)]))).toMatchObject({
      matchedBy: 'amount',
    });
  });

  it("a remainder that is another order's exact amount is that order's, not this one's", () => {
    const partlyPaid = order({ amountReceivedUnits: 4_000_000n }); // 6 still due
    const theirs = { named: null, paidExactly: 'B' }; // another payable order of exactly 6
    const verdict = judge(deps, partlyPaid, claim(), tx([transfer(6_000_000n)]), theirs);
    expect(verdict).toMatchObject({ kind: 'reject' });
    expect((verdict as { reason: string }).reason).toMatch(/exact amount of another order \(reference B\)/);
    // Its own full amount is unique among payable orders: that match stands.
    expect(judge(deps, order(), claim(), tx([transfer(10_000_000n)]), theirs)).toMatchObject({
      matchedBy: 'amount',
    });
  });

  it('an amount shared with other orders (amountUnique false) is no evidence: tag or claim only', () => {
    const shared = order({ amountUnique: false });
    expect(judge(deps, shared, claim('scanner'), tx([transfer(10_000_000n)]))).toMatchObject({
      kind: 'reject',
    });
    expect(judge(deps, shared, claim('payer'), tx([transfer(10_000_000n)]))).toMatchObject({
      matchedBy: 'claim',
    });
    expect(judge(deps, shared, claim('scanner'), tx([transfer(10_000_000n)], [reference]))).toMatchObject({
      matchedBy: 'tag',
    });
  });

  it('3. claim: another amount, reported by the payer, naming and paying no other order', () => {
    expect(judge(deps, order(), claim('payer'), tx([transfer(9_950_000n)]))).toMatchObject({
      kind: 'accept',
      matchedBy: 'claim',
      credited: 9_950_000n,
    });
    // The scanner has no claim of anyone's: it never takes that rung.
    expect(judge(deps, order(), claim('scanner'), tx([transfer(9_950_000n)]))).toMatchObject({
      kind: 'reject',
    });
    // Another order's exact amount is that order's evidence, stronger than a claim.
    const other = judge(deps, order(), claim(), tx([transfer(9_950_000n)]), {
      named: null,
      paidExactly: 'REF2',
    });
    expect(other).toMatchObject({ kind: 'reject' });
    expect((other as { reason: string }).reason).toMatch(/exact amount of another order \(reference REF2\)/);
  });

  it('a transaction naming another order never pays this one, whatever its amount', () => {
    const verdict = judge(deps, order(), claim(), tx([transfer(10_000_000n)], ['OTHER']), {
      named: 'OTHER',
      paidExactly: null,
    });
    expect(verdict).toEqual({
      kind: 'reject',
      reason: 'the transaction pays another order (reference OTHER)',
    });
  });

  it('an untagged transfer from before the order is refused; a tagged one is not subject to it', () => {
    const early = new Date(order().createdAt.getTime() - 120_000);
    expect(judge(deps, order(), claim(), tx([transfer(10_000_000n)], [], early))).toMatchObject({
      kind: 'reject',
      reason: 'the transaction does not name the order and predates it',
    });
    expect(judge(deps, order(), claim(), tx([transfer(10_000_000n)], [reference], early))).toMatchObject({
      kind: 'accept',
    });
  });

  it('facts first: wrong token, wrong recipient, failed, not final, not found until the deadline', () => {
    expect(judge(deps, order(), claim(), tx([transfer(1n, { token: PAYER })], [reference]))).toMatchObject({
      reason: expect.stringMatching(/^wrong token/),
    });
    expect(judge(deps, order(), claim(), tx([transfer(1n, { to: PAYER })], [reference]))).toMatchObject({
      reason: expect.stringMatching(/^wrong recipient/),
    });
    const failed = { ...tx([transfer(10_000_000n)], [reference]), state: 'failed' } as ObservedTransaction;
    expect(judge(deps, order(), claim(), failed)).toMatchObject({ kind: 'reject' });
    expect(judge(deps, order(), claim(), { txId: 'x', state: 'not_final' })).toMatchObject({ kind: 'wait' });
    expect(judge(deps, order(), claim(), { txId: 'x', state: 'not_found' })).toMatchObject({ kind: 'wait' });
    const old = { source: 'payer', createdAt: new Date(NOW.getTime() - 601_000) } as PaymentClaim;
    expect(judge(deps, order(), old, { txId: 'x', state: 'not_found' })).toMatchObject({ kind: 'reject' });
  });
});

describe('EVM order tags', () => {
  it('round-trips the reference through transfer calldata; plain transfers carry none', () => {
    const data = taggedTransferData(RECIPIENT, 5n, reference);
    expect(tagOf(data)).toBe(reference);
    expect(tagOf(data.toUpperCase().replace('0X', '0x'))).toBe(reference);
    expect(tagOf(data.slice(0, -64))).toBeNull(); // a plain transfer from the EIP-681 link
    expect(tagOf(`0x095ea7b3${data.slice(10)}`)).toBeNull(); // approve, not transfer
    expect(tagOf(null)).toBeNull();
    expect(() => taggedTransferData(RECIPIENT, 5n, 'not-a-key')).toThrow();
  });

  it('reads ERC-20 Transfer logs as transfers, ignoring other events and malformed data', () => {
    const topic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2).toLowerCase()}`;
    const logs = [
      {
        address: TOKEN.toLowerCase(),
        topics: [TRANSFER_TOPIC, topic(PAYER), topic(RECIPIENT)],
        data: '0x2a',
        logIndex: '0x3',
      },
      {
        address: TOKEN,
        topics: ['0x' + '1'.repeat(64), topic(PAYER), topic(RECIPIENT)],
        data: '0x2a',
        logIndex: 4,
      },
      { address: TOKEN, topics: [TRANSFER_TOPIC, topic(PAYER)], data: '0x2a', logIndex: 5 },
      {
        address: TOKEN,
        topics: [TRANSFER_TOPIC, topic(PAYER), topic(RECIPIENT)],
        data: 'garbage',
        logIndex: 6,
      },
    ];
    expect(transfersOf(logs)).toEqual([
      { from: PAYER, to: RECIPIENT, token: TOKEN, amountUnits: 42n, position: 3 },
    ]);
  });
});

describe('Solana transfers from token balances', () => {
  it('credits each owner whose balance grew, sent by the largest debit of the mint', () => {
    const bal = (accountIndex: number, owner: string, mint: string, amount: string) => ({
      accountIndex,
      owner,
      mint,
      uiTokenAmount: { amount, decimals: 6, uiAmount: null, uiAmountString: amount },
    });
    const transfers = tokenTransfers(
      [bal(1, 'payer', 'USDT', '100'), bal(2, 'fee', 'USDT', '0'), bal(4, 'x', 'OTHER', '5')],
      [
        bal(1, 'payer', 'USDT', '10'),
        bal(2, 'fee', 'USDT', '1'),
        bal(3, 'shop', 'USDT', '89'),
        bal(4, 'x', 'OTHER', '5'),
      ],
    );
    expect(transfers).toEqual([
      { from: 'payer', to: 'fee', token: 'USDT', amountUnits: 1n, position: 2 },
      { from: 'payer', to: 'shop', token: 'USDT', amountUnits: 89n, position: 3 },
    ]);
  });
});

describe('the payable rule', () => {
  const rule = { now: NOW, lateWindowSeconds: 3600 };
  it.each([
    ['PENDING', 60, true],
    ['CONFIRMING', -60, true],
    ['EXPIRED', -3599, true],
    ['EXPIRED', -3601, false],
    ['UNDERPAID', -3601, false],
    ['PAID', 600, false],
  ] as const)('%s, expiring in %i s: %s', (status, inSeconds, payable) => {
    const o = { status, expiresAt: new Date(NOW.getTime() + inSeconds * 1000) } as Order;
    expect(isPayable(o, rule)).toBe(payable);
  });
});
