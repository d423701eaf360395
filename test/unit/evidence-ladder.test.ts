import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { ObservedTransaction, Transfer } from '../../server/chains/chain-adapter';
import { taggedTransferData, tagOf } from '../../server/chains/evm/order-tag';
import { transfersOf, TRANSFER_TOPIC } from '../../server/chains/evm/read-transaction';
import { tokenTransfers } from '../../server/chains/solana/read-transaction';
import type { Order, PaymentClaim } from '../../server/db/models';
import { isPayable } from '../../server/orders/payable';
import { judge, notFoundBackoffMs, NOT_FOUND_BACKOFF_MAX_MS } from '../../server/payments/judge-claim';
import type { ClaimFacts } from '../../server/payments/judge-claim';

/** The evidence ladder and the facts it reads, as pure rules: no database, no chain. */

const NOW = new Date('2026-06-01T12:00:00Z');
const deps = {
  clock: () => NOW,
  config: { PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: 600, PAYMENT_RECHECK_MS: 1000 } as never,
};
/** What the database says, as judge reads it: nothing else points at the transaction. */
const NONE: ClaimFacts = {
  named: null,
  paidExactly: [],
  creditedElsewhere: null,
  ownsRecipient: true,
  provenSender: null,
};
const facts = (over: Partial<ClaimFacts>): ClaimFacts => ({ ...NONE, ...over });
/** Another order an amount matches: its own amount, or one it shares (amountUnique false). */
const unique = (ref: string) => ({ reference: ref, unique: true });
const shared = (ref: string) => ({ reference: ref, unique: false });
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
    tokenDecimals: 6,
    recipient: RECIPIENT,
    amountUnits: 10_000_000n,
    amountReceivedUnits: 0n,
    amountUnique: true,
    createdAt: new Date(NOW.getTime() - 60_000),
    ...over,
  }) as Order;
const claim = (source: PaymentClaim['source'] = 'payer', over: Partial<PaymentClaim> = {}) =>
  ({
    source,
    attempts: 0,
    proofSignature: null,
    createdAt: new Date(NOW.getTime() - 1000),
    ...over,
  }) as PaymentClaim;
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
        option: expect.objectContaining({ index: 0 }),
      });
  });

  it('a closed (superseded) order: the scanner credits it nothing, a report under way still settles', () => {
    const closed = order({ supersededAt: NOW });
    const tagged = tx([transfer(10_000_000n)], [reference]);
    expect(judge(deps, closed, claim('scanner'), tagged)).toMatchObject({
      kind: 'reject',
      reason: 'the order is closed: another order paid for what it billed',
    });
    expect(judge(deps, closed, claim('payer'), tagged)).toMatchObject({ kind: 'accept', matchedBy: 'tag' });
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

  it("an amount that is also another order's amount or remainder is nobody's evidence", () => {
    const partlyPaid = order({ amountReceivedUnits: 4_000_000n }); // 6 still due
    const theirs = facts({ paidExactly: [unique('B')] }); // another watched order of exactly 6, or with 6 due
    const six = tx([transfer(6_000_000n)]);
    // Not this order's by its amount: the scanner leaves it unattributed...
    const scanned = judge(deps, partlyPaid, claim('scanner'), six, theirs);
    expect(scanned).toMatchObject({ kind: 'reject' });
    expect((scanned as { reason: string }).reason).toMatch(
      /6\.000000 is also the exact amount \(or amount due\) of another order \(reference B\): nobody's evidence/,
    );
    // ... nor B's: a report without proof credits nothing, the merchant's word or the sender's proof do.
    expect(judge(deps, partlyPaid, claim('payer'), six, theirs)).toMatchObject({ kind: 'unproven' });
    expect(judge(deps, partlyPaid, claim('merchant'), six, theirs)).toMatchObject({ matchedBy: 'claim' });
    const signed = claim('payer', { proofSignature: '0xsig' });
    expect(judge(deps, partlyPaid, signed, six, { ...theirs, provenSender: PAYER })).toMatchObject({
      matchedBy: 'claim',
    });
    // A full amount too: another order with as much still due makes it nobody's.
    expect(judge(deps, order(), claim('scanner'), tx([transfer(10_000_000n)]), theirs)).toMatchObject({
      kind: 'reject',
    });
    // Alone, the remainder is this order's.
    expect(judge(deps, partlyPaid, claim('scanner'), six)).toMatchObject({ matchedBy: 'amount' });
  });

  it("an order that shares this order's amount (made when no free amount was left) makes it nobody's, and is no bar to a claim", () => {
    const ten = tx([transfer(10_000_000n)]);
    // Its payer's plain transfer must not pay the order that reserved the amount.
    const scanned = judge(deps, order(), claim('scanner'), ten, facts({ paidExactly: [shared('SHARED')] }));
    expect(scanned).toMatchObject({ kind: 'reject' });
    expect((scanned as { reason: string }).reason).toMatch(
      /another order \(reference SHARED\): nobody's evidence/,
    );
    // A shared amount is nobody's evidence: the merchant may attribute it to either order.
    const onShared = order({ amountUnique: false } as Partial<Order>);
    expect(judge(deps, onShared, claim('scanner'), ten)).toMatchObject({ kind: 'reject' });
    expect(
      judge(deps, onShared, claim('merchant'), ten, facts({ paidExactly: [shared('OTHER')] })),
    ).toMatchObject({
      matchedBy: 'claim',
    });
  });

  it('an amount shared with other orders (amountUnique false) is no evidence: tag or claim only', () => {
    const shared = order({ amountUnique: false });
    expect(judge(deps, shared, claim('scanner'), tx([transfer(10_000_000n)]))).toMatchObject({
      kind: 'reject',
    });
    expect(judge(deps, shared, claim('merchant'), tx([transfer(10_000_000n)]))).toMatchObject({
      matchedBy: 'claim',
    });
    // Anyone can force shared amounts (a thousand orders at one price): a stranger's report of
    // someone else's transfer is no claim.
    expect(judge(deps, shared, claim('payer'), tx([transfer(10_000_000n)]))).toMatchObject({
      kind: 'unproven',
    });
    expect(judge(deps, shared, claim('scanner'), tx([transfer(10_000_000n)], [reference]))).toMatchObject({
      matchedBy: 'tag',
    });
  });

  it('3. claim: another amount, attested by the merchant or proven by the sender, naming and paying no other order', () => {
    expect(judge(deps, order(), claim('merchant'), tx([transfer(9_950_000n)]))).toMatchObject({
      kind: 'accept',
      matchedBy: 'claim',
      credited: 9_950_000n,
    });
    const signed = claim('payer', { proofSignature: '0xsig' });
    expect(judge(deps, order(), signed, tx([transfer(9_950_000n)]), facts({ provenSender: PAYER }))).toEqual({
      kind: 'accept',
      matchedBy: 'claim',
      credited: 9_950_000n,
      blockTime: NOW,
      sender: PAYER,
      option: expect.objectContaining({ index: 0 }),
    });
    // The scanner has no claim of anyone's: it never takes that rung.
    expect(judge(deps, order(), claim('scanner'), tx([transfer(9_950_000n)]))).toMatchObject({
      kind: 'reject',
    });
    // Another order's exact amount is that order's evidence, stronger than a claim.
    const other = judge(
      deps,
      order(),
      claim('merchant'),
      tx([transfer(9_950_000n)]),
      facts({ paidExactly: [unique('REF2')] }),
    );
    expect(other).toMatchObject({ kind: 'reject' });
    expect((other as { reason: string }).reason).toMatch(/exact amount of another order \(reference REF2\)/);
    // Two other orders' is nobody's evidence: no bar to a claim.
    expect(
      judge(
        deps,
        order(),
        claim('merchant'),
        tx([transfer(9_950_000n)]),
        facts({ paidExactly: [unique('REF2'), unique('REF3')] }),
      ),
    ).toMatchObject({ kind: 'accept', matchedBy: 'claim' });
  });

  it('a transaction naming another order never pays this one, whatever its amount', () => {
    const verdict = judge(
      deps,
      order(),
      claim('merchant'),
      tx([transfer(10_000_000n)], ['OTHER']),
      facts({ named: 'OTHER' }),
    );
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

describe('claims against other people', () => {
  const short = () => tx([transfer(9_950_000n)]); // an exchange withdrawal short by its fee

  it("a payer's unsigned report of an untagged, inexact transfer is recorded unproven: it credits nothing", () => {
    const verdict = judge(deps, order(), claim('payer'), short());
    expect(verdict).toMatchObject({ kind: 'unproven', credited: 9_950_000n, sender: PAYER, blockTime: NOW });
    expect((verdict as { reason: string }).reason).toMatch(/not signed by the sending wallet/);
  });

  it('a signature that is not by a sender of the transfer is refused', () => {
    const forged = claim('payer', { proofSignature: '0xforged' });
    expect(judge(deps, order(), forged, short())).toEqual({
      kind: 'reject',
      reason: 'the signature is not by a wallet that sent this transfer',
    });
  });

  it('tag and exact amount need no proof, whoever reports them', () => {
    expect(judge(deps, order(), claim('payer'), tx([transfer(9_950_000n)], [reference]))).toMatchObject({
      kind: 'accept',
      matchedBy: 'tag',
    });
    expect(judge(deps, order(), claim('payer'), tx([transfer(10_000_000n)]))).toMatchObject({
      kind: 'accept',
      matchedBy: 'amount',
    });
  });

  it('a transaction credited to another order is never credited again, whatever the evidence', () => {
    for (const c of [claim('merchant'), claim('payer', { proofSignature: 's' }), claim('scanner')])
      expect(
        judge(
          deps,
          order(),
          c,
          tx([transfer(10_000_000n)], [reference]),
          facts({ creditedElsewhere: 'A', provenSender: PAYER }),
        ),
      ).toEqual({
        kind: 'reject',
        reason: 'the transaction was already credited to another order (reference A)',
      });
  });

  it('an order whose receiving wallet another merchant owns is never credited, not even by its tag', () => {
    const verdict = judge(
      deps,
      order(),
      claim('merchant'),
      tx([transfer(10_000_000n)], [reference]),
      facts({ ownsRecipient: false }),
    );
    expect(verdict).toMatchObject({ kind: 'reject' });
    expect((verdict as { reason: string }).reason).toMatch(/registered to another account/);
  });

  it('the merchant may attribute a transfer that predates the order; nobody else may', () => {
    const early = tx([transfer(9_950_000n)], [], new Date(order().createdAt.getTime() - 3_600_000));
    expect(judge(deps, order(), claim('merchant'), early)).toMatchObject({
      kind: 'accept',
      matchedBy: 'claim',
    });
    expect(
      judge(deps, order(), claim('payer', { proofSignature: 's' }), early, facts({ provenSender: PAYER })),
    ).toMatchObject({
      kind: 'reject',
      reason: 'the transaction does not name the order and predates it',
    });
  });

  it('made-up transaction ids are read again after 1 s, doubling, at most every 5 minutes', () => {
    expect([0, 1, 2, 3, 8, 9, 30].map((n) => notFoundBackoffMs(1000, n))).toEqual([
      1000,
      2000,
      4000,
      8000,
      256_000,
      NOT_FOUND_BACKOFF_MAX_MS,
      NOT_FOUND_BACKOFF_MAX_MS,
    ]);
    expect(judge(deps, order(), claim('payer', { attempts: 4 }), { txId: 'x', state: 'not_found' })).toEqual({
      kind: 'wait',
      reason: 'transaction not found yet',
      retryInMs: 16_000,
    });
    // Over the 600 s deadline that is 10 reads, where a read every second made 600.
    let at = 0;
    let reads = 0;
    for (; at <= 600_000; reads++) at += notFoundBackoffMs(1000, reads);
    expect(reads).toBe(10);
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
    const o = { status, expiresAt: new Date(NOW.getTime() + inSeconds * 1000), supersededAt: null } as Order;
    expect(isPayable(o, rule)).toBe(payable);
  });
  it('an order another order paid for (superseded) is never payable again, late window or not', () => {
    for (const status of ['PENDING', 'EXPIRED'] as const)
      expect(
        isPayable({ status, expiresAt: new Date(NOW.getTime() + 60_000), supersededAt: NOW }, rule),
      ).toBe(false);
  });
});
