import { Keypair, PublicKey } from '@solana/web3.js';
import { parse } from 'csv-parse/sync';
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Payout } from '../../contract/payouts';
import { parseUnits } from '../../contract/decimal';
import { randomEvmAddress } from '../../sandbox/chains/evm/local-evm';
import { addMember } from '../support/members';
import { BSC_CONFIRMATIONS, withOptionChains, units18, type OptionChains } from '../support/option-chains';
import { REFUND_POLYGON_CONFIRMATIONS } from '../support/refund-chains';
import { expectErrorBody } from '../support/test-server';

/**
 * Payouts (issue 40) on the local chains: a batch over Solana, Polygon and BSC (18 decimals) made,
 * approved, its unsigned transactions signed by the merchant's own keys, reported and verified on
 * chain; what may approve; transactions that pay an item otherwise; bad items named; isolation.
 */
type Shop = Awaited<ReturnType<OptionChains['newShop']>>;
type Tx = { network: string; from: string; items: string[]; transaction: unknown; feeEstimate: string };

const o = withOptionChains();

const api = () => o.h.server.api;

/** The shop's wallets funded with tokens to pay out. */
async function fundedShop(): Promise<Shop> {
  const s = await o.newShop();
  await o.chains.solana.mintTo(s.keys.solana.publicKey, o.chains.solanaMint, 1_000_000_000_000n);
  await o.chains.polygon.mint(o.chains.polygonUsdt, s.keys.polygon.address, 1_000_000_000_000n);
  await o.bsc.evm.mint(o.bsc.usdt, s.keys.bsc.address, units18('1000000'));
  return s;
}

async function create(token: string, items: Record<string, string>[], status = 201) {
  const res = await api()<Payout>('POST', '/payouts', { token, body: { items, description: 'test batch' } });
  expect(res.status, res.text).toBe(status);
  return res;
}
async function approve(token: string, id: string) {
  return api()<Payout>('POST', `/payouts/${id}/approve`, { token });
}
async function transactionsOf(token: string, id: string) {
  const res = await api()<{ transactions: Tx[] }>('GET', `/payouts/${id}/transactions`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body.transactions;
}
async function report(token: string, id: string, network: string, txId: string) {
  const res = await api()<Payout>('POST', `/payouts/${id}/transactions`, { token, body: { network, txId } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A CSV download: its rows by header, and its headers. */
async function download(token: string, path: string) {
  const res = await fetch(`${o.h.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return { res, rows: parse(await res.text(), { columns: true }) as Record<string, string>[] };
}
const today = () => new Date().toISOString().slice(0, 10);
async function ledgerOf(token: string) {
  return (await download(token, `/dashboard/exports/payments.csv?from=${today()}&to=${today()}`)).rows;
}

/** Signs and sends one built transaction with the shop's key of its network; final when it returns. */
async function send(s: Shop, tx: Tx): Promise<string> {
  if (tx.network === 'SOLANA') return o.chains.solana.signAndSend(tx.transaction as string, s.keys.solana);
  const built = tx.transaction as { to: Address; data: Hex };
  const evm = tx.network === 'BSC' ? o.bsc.evm : o.chains.polygon;
  const from = tx.network === 'BSC' ? s.keys.bsc : s.keys.polygon;
  const hash = await evm.sendTransaction({ from, to: built.to, data: built.data });
  await evm.mine(tx.network === 'BSC' ? BSC_CONFIRMATIONS : REFUND_POLYGON_CONFIRMATIONS);
  return hash;
}

describe('payouts', () => {
  it('pays a batch of 50 over Solana, Polygon and BSC (18 decimals exact), each item verified on chain', async () => {
    const s = await fundedShop();
    const solanaTo = Array.from({ length: 20 }, () => Keypair.generate().publicKey.toBase58());
    const polygonTo = Array.from({ length: 15 }, () => randomEvmAddress());
    const bscTo = Array.from({ length: 15 }, () => randomEvmAddress());
    const items = [
      ...solanaTo.map((to, i) => ({ network: 'SOLANA', token: 'USDT', to, amount: `${i + 1}.25` })),
      ...polygonTo.map((to, i) => ({
        network: 'POLYGON',
        token: 'USDT',
        to,
        amount: `0.00000${(i % 9) + 1}`,
      })),
      ...bscTo.map((to, i) => ({
        network: 'BSC',
        token: 'USDT',
        to,
        amount: `${i}.000000000000000001`,
        reference: `aff-${i}`,
      })),
    ];
    const made = await create(s.shop.token, items);
    expect(made.body.status).toBe('DRAFT');
    expect(made.body.items).toHaveLength(50);
    expect(made.body.items[35]).toMatchObject({
      network: 'BSC',
      amount: '0.000000000000000001',
      status: 'PENDING',
    });
    // No transactions before approval.
    expectErrorBody(
      await api()('GET', `/payouts/${made.body.id}/transactions`, { token: s.shop.token }),
      409,
      'CONFLICT',
    );
    const approved = await approve(s.shop.token, made.body.id);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.status).toBe('APPROVED');

    const txs = await transactionsOf(s.shop.token, made.body.id);
    const solanaTxs = txs.filter((t) => t.network === 'SOLANA');
    // Several transfers per Solana transaction (each creating the recipient's token account), all 20 paid.
    expect(solanaTxs.length).toBeLessThan(20);
    expect(solanaTxs.flatMap((t) => t.items)).toHaveLength(20);
    expect(txs.filter((t) => t.network !== 'SOLANA')).toHaveLength(30);
    for (const t of txs) expect(Number(t.feeEstimate)).toBeGreaterThan(0);
    expect(txs.find((t) => t.network === 'SOLANA')!.from).toBe(s.keys.solana.publicKey.toBase58());

    let last: Payout | undefined;
    for (const t of txs) last = await report(s.shop.token, made.body.id, t.network, await send(s, t));
    expect(last!.status).toBe('COMPLETED');
    expect(last!.items.every((i) => i.status === 'CONFIRMED')).toBe(true);
    // The chain holds exactly what was asked: 18 decimals on BSC, the token accounts created on Solana.
    expect(await o.bsc.evm.balanceOf(o.bsc.usdt, bscTo[3] as Address)).toBe(units18('3.000000000000000001'));
    expect(await o.chains.solana.tokenBalance(new PublicKey(solanaTo[0]!), o.chains.solanaMint)).toBe(
      1_250_000n,
    );

    const events = await o.h.server.deps.db.sequelize.query<{ type: string }>(
      `SELECT type FROM events WHERE merchant_id = :m AND type LIKE 'payout.%'`,
      { type: 'SELECT' as never, replacements: { m: s.shop.id } },
    );
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'payout.item_confirmed')).toHaveLength(50);
    expect(types).toEqual(expect.arrayContaining(['payout.created', 'payout.approved', 'payout.completed']));
    const trail = await o.h.server.deps.db.sequelize.query<{ type: string; member_id: string | null }>(
      'SELECT type, member_id FROM payout_audit_entries WHERE payout_id = :p ORDER BY id',
      { type: 'SELECT' as never, replacements: { p: made.body.id } },
    );
    expect(trail[0]).toMatchObject({ type: 'payout.created', member_id: s.shop.id });
    expect(trail.find((e) => e.type === 'payout.approved')?.member_id).toBe(s.shop.id);
  }, 300_000);

  it('with two approvals asked for, refuses the creator and takes another member with payouts:approve', async () => {
    const s = await fundedShop();
    const finance = await addMember(o.h.server, s.shop.id, 'finance');
    const viewer = await addMember(o.h.server, s.shop.id, 'viewer');
    const admin = await addMember(o.h.server, s.shop.id, 'admin');
    // Only account:write sets it (finance approves payouts but may not lower the rule), 1 or 2.
    expectErrorBody(
      await api()('PATCH', '/account', { token: finance.token, body: { payoutApprovals: 1 } }),
      403,
      'FORBIDDEN',
    );
    expectErrorBody(
      await api()('PATCH', '/account', { token: admin.token, body: { payoutApprovals: 3 } }),
      400,
      'VALIDATION_ERROR',
    );
    const set = await api()('PATCH', '/account', { token: admin.token, body: { payoutApprovals: 2 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ payoutApprovals: 2 });
    expect((await api()('GET', '/account', { token: viewer.token })).body).toMatchObject({
      payoutApprovals: 2,
    });
    const made = await create(finance.token, [
      { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '1' },
    ]);
    expect(made.body.createdBy).toBe(finance.id);
    const own = await approve(finance.token, made.body.id);
    expectErrorBody(own, 409, 'CONFLICT');
    const refused = await approve(viewer.token, made.body.id);
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.text).toContain('payouts:approve');
    expect(
      (await api()<Payout>('GET', `/payouts/${made.body.id}`, { token: s.shop.token })).body.status,
    ).toBe('DRAFT');
    const ok = await approve(s.shop.token, made.body.id);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'APPROVED', approvals: [{ memberId: s.shop.id }] });
    // Approved once: again is a 409.
    expectErrorBody(await approve(s.shop.token, made.body.id), 409, 'CONFLICT');
    // A batch keeps the rule it was made under: back to one, the next batch its creator approves alone.
    await api()('PATCH', '/account', { token: s.shop.token, body: { payoutApprovals: 1 } });
    const next = await create(finance.token, [
      { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '1' },
    ]);
    expect((await approve(finance.token, next.body.id)).body).toMatchObject({ status: 'APPROVED' });
  });

  it('a transaction paying one item short or to another address leaves it unconfirmed: the batch is PARTIAL', async () => {
    const s = await fundedShop();
    const to = [randomEvmAddress(), randomEvmAddress(), randomEvmAddress()];
    const made = await create(
      s.shop.token,
      to.map((address) => ({ network: 'POLYGON', token: 'USDT', to: address, amount: '2' })),
    );
    await approve(s.shop.token, made.body.id);
    const txs = await transactionsOf(s.shop.token, made.body.id);
    expect(txs).toHaveLength(3);
    const [good, short, elsewhere] = txs as [Tx, Tx, Tx];
    const tagOf = (t: Tx) => (t.transaction as { data: Hex }).data.slice(-64);
    const call = (recipient: Address, units: bigint, tag: string) =>
      `${encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, units] })}${tag}` as Hex;
    const shortTx = {
      ...short,
      transaction: {
        ...(short.transaction as object),
        data: call(to[1] as Address, parseUnits('1.999999', 6), tagOf(short)),
      },
    };
    const otherTx = {
      ...elsewhere,
      transaction: {
        ...(elsewhere.transaction as object),
        data: call(randomEvmAddress(), parseUnits('2', 6), tagOf(elsewhere)),
      },
    };
    await report(s.shop.token, made.body.id, 'POLYGON', await send(s, good));
    await report(s.shop.token, made.body.id, 'POLYGON', await send(s, shortTx));
    const after = await report(s.shop.token, made.body.id, 'POLYGON', await send(s, otherTx));
    expect(after.items.map((i) => i.status)).toEqual(['CONFIRMED', 'FAILED', 'FAILED']);
    expect(after.items[1]!.failureReason).toContain('1.999999');
    expect(after.status).toBe('PARTIAL');
    expect(await o.chains.polygon.balanceOf(o.chains.polygonUsdt, to[0] as Address)).toBe(2_000_000n);

    // The batch's CSV: every item with its status, transaction and exact amount.
    const file = await download(s.shop.token, `/payouts/${made.body.id}.csv`);
    expect(file.rows).toEqual(
      after.items.map((i) =>
        expect.objectContaining({
          item_id: i.id,
          to: i.to,
          amount: '2.000000',
          status: i.status,
          tx_id: i.txId ?? '',
        }),
      ),
    );
    expect(file.rows[1]!.failure_reason).toContain('1.999999');
    // The ledger: the confirmed item is money out; the two that paid otherwise are not.
    const ledger = await ledgerOf(s.shop.token);
    expect(ledger).toEqual([
      expect.objectContaining({
        direction: 'OUT',
        order_reference: '',
        network: 'POLYGON',
        token: 'USDT',
        amount: '2.000000',
        tx_id: after.items[0]!.txId,
        sender: txs[0]!.from,
        recipient: to[0],
        payout_id: made.body.id,
      }),
    ]);
  });

  it("a reported transaction of another account's payout confirms nothing", async () => {
    const a = await fundedShop();
    const b = await fundedShop();
    const recipient = randomEvmAddress();
    const item = [{ network: 'POLYGON', token: 'USDT', to: recipient, amount: '3' }];
    const pa = await create(a.shop.token, item);
    const pb = await create(b.shop.token, item);
    await approve(a.shop.token, pa.body.id);
    await approve(b.shop.token, pb.body.id);
    const [txA] = await transactionsOf(a.shop.token, pa.body.id);
    await transactionsOf(b.shop.token, pb.body.id);
    const hash = await send(a, txA!);
    expect((await report(a.shop.token, pa.body.id, 'POLYGON', hash)).status).toBe('COMPLETED');
    const stolen = await report(b.shop.token, pb.body.id, 'POLYGON', hash);
    expect(stolen.status).toBe('SENDING');
    expect(stolen.items[0]).toMatchObject({ status: 'SENT', txId: null });
  });

  it('imports a CSV as the same batch, quoted fields and all, and names every bad row as items.N.field', async () => {
    const s = await fundedShop();
    const [a, b] = [randomEvmAddress(), randomEvmAddress()];
    const solana = Keypair.generate().publicKey.toBase58();
    const csv = [
      'network,token,to,amount,reference,note',
      `POLYGON,USDT,${a},12.5,inv-1,"Fees, November ""final""\r\nsecond line"`,
      `BSC,USDT,${b},0.000000000000000001,"=HYPERLINK(""http://x"")",`,
      `SOLANA,USDT,${solana},3,"",`,
    ].join('\r\n');
    const made = await api()<Payout>('POST', '/payouts/import', {
      token: s.shop.token,
      body: { csv, description: 'from a file' },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.status).toBe('DRAFT');
    expect(made.body.items).toMatchObject([
      {
        network: 'POLYGON',
        to: a,
        amount: '12.500000',
        reference: 'inv-1',
        note: 'Fees, November "final"\r\nsecond line',
      },
      {
        network: 'BSC',
        to: b,
        amount: '0.000000000000000001',
        reference: '=HYPERLINK("http://x")',
        note: null,
      },
      { network: 'SOLANA', to: solana, amount: '3.000000', reference: null, note: null },
    ]);
    // Its CSV gives the text back as it came (line breaks and quotes), a formula neutralised.
    const file = await download(s.shop.token, `/payouts/${made.body.id}.csv`);
    expect(file.res.headers.get('content-type')).toContain('text/csv');
    expect(file.rows.map((r) => [r.reference, r.note, r.status, r.tx_id])).toEqual([
      ['inv-1', 'Fees, November "final"\r\nsecond line', 'PENDING', ''],
      ['\'=HYPERLINK("http://x")', '', 'PENDING', ''],
      ['', '', 'PENDING', ''],
    ]);

    const bad = await api()('POST', '/payouts/import', {
      token: s.shop.token,
      body: {
        csv: [
          'network,token,to,amount,reference,note',
          `POLYGON,USDT,${randomEvmAddress()},1,,`,
          `POLYGON,USDT,${solana},1,,`, // not a Polygon address
          `POLYGON,DAI,${randomEvmAddress()},1,,`, // no such token
          `POLYGON,USDT,${randomEvmAddress()},1.0000001,,`, // 7 places, USDT has 6 there
          `BSC,USDT,${randomEvmAddress()},0,,`,
          `POLYGON,USDT,${randomEvmAddress()}`, // no amount
          `SOLANA,USDT,${solana},2,,`,
        ].join('\n'),
      },
    });
    expectErrorBody(bad, 400, 'VALIDATION_ERROR');
    expect((bad.body.error.details as { path: string }[]).map((d) => d.path)).toEqual([
      'items.1.to',
      'items.2.token',
      'items.3.amount',
      'items.4.amount',
      'items.5.amount',
    ]);
    for (const [csv, says] of [
      ['network,token,amount\nPOLYGON,USDT,1', 'missing: to'],
      ['network,token,to,amount,memo\nPOLYGON,USDT,x,1,y', 'unknown: memo'],
      ['network,token,to,amount\nPOLYGON,USDT,"x,1', 'never closed'],
      ['network,token,to,amount\n', 'no data rows'],
      [
        `network,token,to,amount\n${Array.from({ length: 501 }, () => `POLYGON,USDT,${randomEvmAddress()},1`).join('\n')}`,
        'at most 500',
      ],
    ] as const) {
      const refused = await api()('POST', '/payouts/import', { token: s.shop.token, body: { csv } });
      expectErrorBody(refused, 400, 'VALIDATION_ERROR');
      expect(refused.body.error.details).toEqual([{ path: 'csv', message: expect.stringContaining(says) }]);
    }
    // What POST /payouts refuses, the import refuses: a viewer may not make batches at all.
    const viewer = await addMember(o.h.server, s.shop.id, 'viewer');
    expectErrorBody(
      await api()('POST', '/payouts/import', { token: viewer.token, body: { csv } }),
      403,
      'FORBIDDEN',
    );
  });

  it('names every bad item, and hides another account’s batches (404)', async () => {
    const s = await fundedShop();
    const bad = await api()('POST', '/payouts', {
      token: s.shop.token,
      body: {
        items: [
          { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '1' },
          { network: 'POLYGON', token: 'USDT', to: 'not-an-address', amount: '1' },
          { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '1.0000001' },
          { network: 'BSC', token: 'USDC', to: randomEvmAddress(), amount: '1' },
          { network: 'SOLANA', token: 'USDT', to: randomEvmAddress(), amount: '0' },
        ],
      },
    });
    expectErrorBody(bad, 400, 'VALIDATION_ERROR');
    const paths = (bad.body.error.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'body.items.1.to',
        'body.items.2.amount',
        'body.items.3.token',
        'body.items.4.to',
        'body.items.4.amount',
      ]),
    );
    expect(paths.some((p) => p.startsWith('body.items.0.'))).toBe(false);
    expect(
      (
        await api()('POST', '/payouts', {
          token: s.shop.token,
          body: {
            items: Array.from({ length: 501 }, () => ({
              network: 'POLYGON',
              token: 'USDT',
              to: randomEvmAddress(),
              amount: '1',
            })),
          },
        })
      ).status,
    ).toBe(400);

    const other = await fundedShop();
    const made = await create(other.shop.token, [
      { network: 'POLYGON', token: 'USDT', to: randomEvmAddress(), amount: '1' },
    ]);
    for (const [method, path] of [
      ['GET', `/payouts/${made.body.id}`],
      ['POST', `/payouts/${made.body.id}/approve`],
      ['POST', `/payouts/${made.body.id}/cancel`],
      ['GET', `/payouts/${made.body.id}/transactions`],
      ['GET', `/payouts/${made.body.id}.csv`],
    ] as const)
      expectErrorBody(await api()(method, path, { token: s.shop.token }), 404, 'NOT_FOUND');
    const list = await api()<{ items: { id: string }[] }>('GET', '/payouts', { token: s.shop.token });
    expect(list.body.items.map((p) => p.id)).not.toContain(made.body.id);
    const own = await api()<{ items: { id: string }[] }>('GET', '/payouts', { token: other.shop.token });
    expect(own.body.items.map((p) => p.id)).toEqual([made.body.id]);
    // Canceled from DRAFT; then nothing more.
    const canceled = await api()<Payout>('POST', `/payouts/${made.body.id}/cancel`, {
      token: other.shop.token,
    });
    expect(canceled.body.status).toBe('CANCELED');
    expectErrorBody(await approve(other.shop.token, made.body.id), 409, 'CONFLICT');
  });
});
