import { createPublicClient, http, pad, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LACK_OF_RESOURCES,
  startLocalTron,
  type LocalTron,
  type TronWallet,
} from '../../sandbox/chains/tron';
import { tronPost, tronRpc, type RpcBlock, type RpcLog, type RpcTx } from '../support/local-tron';

/**
 * The local TRON chain's JSON-RPC rules (TRON's, not Ethereum's), its solidified block, unmined
 * transactions, and the faults and call counts tests use. Shapes of the HTTP API:
 * local-tron-chain.test.ts.
 */

let tron: LocalTron;
let payer: TronWallet;

beforeAll(async () => {
  tron = await startLocalTron();
  payer = await tron.newWallet({ usdt: 1_000_000_000n });
});
afterAll(() => tron?.stop());

const rpc = <T = unknown>(method: string, params: unknown[] = []) => tronRpc<T>(tron, method, params);
const hex = (n: bigint) => `0x${n.toString(16)}`;

describe('local TRON chain: JSON-RPC as TRON serves it', () => {
  it('refuses the methods TRON does not serve with -32601', async () => {
    for (const method of [
      'eth_sendRawTransaction',
      'eth_sendTransaction',
      'eth_getTransactionCount',
      'hardhat_mine',
    ])
      expect((await rpc(method, ['0x00'])).error).toEqual({
        code: -32601,
        message: `the method ${method} does not exist/is not available`,
      });
  });

  it('takes latest, earliest and finalized, refuses pending and safe, and latest only for state reads', async () => {
    for (const tag of ['latest', 'earliest', 'finalized'])
      expect((await rpc<RpcBlock>('eth_getBlockByNumber', [tag, false])).result?.number).toMatch(/^0x/);
    expect((await rpc('eth_getBlockByNumber', ['pending', false])).error).toEqual({
      code: -32602,
      message: 'TAG pending not supported',
    });
    expect((await rpc('eth_getBlockByNumber', ['safe', false])).error?.code).toBe(-32602);
    expect((await rpc('eth_getBalance', [payer.hex, 'finalized'])).error).toEqual({
      code: -32602,
      message: 'TAG [earliest | pending | finalized] not supported',
    });
    expect((await rpc('eth_call', [{ to: tron.usdtHex, data: '0x313ce567' }, '0x1'])).error?.message).toBe(
      'QUANTITY not supported, just support TAG as latest',
    );
    // eth_getBalance is the account's TRX in sun.
    expect(BigInt((await rpc<Hex>('eth_getBalance', [payer.hex, 'latest'])).result!)).toBe(
      tron.trxBalance(payer.address),
    );
  });

  it('puts finalized (the solidified block) solidifyLag blocks under the head, in JSON-RPC and /walletsolidity', async () => {
    await tron.mine(30); // a chain taller than the lag
    const merchant = await tron.newWallet({ trx: 0n });
    const txId = await tron.transfer({ from: payer, to: merchant.address, units: 5n });
    const mined = Number((await tron.txInfo(txId)).blockNumber);
    const finalized = async () =>
      BigInt((await rpc<RpcBlock>('eth_getBlockByNumber', ['finalized', false])).result!.number);
    expect(await finalized()).toBe(BigInt(mined) - 19n);
    expect(await tron.txInfo(txId, true)).toEqual({});
    expect((await tronPost(tron, '/walletsolidity/gettransactionbyid', { value: txId })).body).toEqual({});
    expect((await tronPost(tron, '/walletsolidity/getblockbynum', { num: mined })).body).toEqual({});
    await tron.mine(18);
    expect(await tron.txInfo(txId, true)).toEqual({});
    await tron.mine(1);
    expect(await finalized()).toBe(BigInt(mined));
    expect(await tron.txInfo(txId, true)).toMatchObject({ id: txId, receipt: { result: 'SUCCESS' } });
    const now = (
      await tronPost<{ block_header: { raw_data: { number: number } } }>(tron, '/walletsolidity/getnowblock')
    ).body;
    expect(now.block_header.raw_data.number).toBe(mined);

    tron.params.solidifyLag = 0; // a private net with one SR solidifies every block at once
    try {
      expect(await finalized()).toBe(await tron.blockNumber());
    } finally {
      tron.params.solidifyLag = 19;
    }
  });

  it('shows an unmined transaction with "0x" block fields, which viem cannot parse', async () => {
    await tron.setAutomine(false);
    let txId: string;
    try {
      txId = await tron.transfer({ from: payer, to: (await tron.newWallet()).address, units: 1n });
      const pending = (await rpc<RpcTx>('eth_getTransactionByHash', [`0x${txId}`])).result!;
      expect(pending).toMatchObject({
        hash: `0x${txId}`,
        blockHash: '0x',
        blockNumber: '0x',
        transactionIndex: '0x',
      });
      expect((await rpc('eth_getTransactionReceipt', [`0x${txId}`])).result).toBeNull();
      expect(await tron.txInfo(txId)).toEqual({});
      expect((await tronPost(tron, '/wallet/gettransactionbyid', { value: txId })).body).not.toHaveProperty(
        'ret',
      );
      // viem formats blockNumber with BigInt("0x"): an adapter must read such answers itself.
      const client = createPublicClient({ transport: http(tron.jsonRpcUrl, { retryCount: 0 }) });
      await expect(client.getTransaction({ hash: `0x${txId}` })).rejects.toThrow(/BigInt|0x/);
      await tron.mine();
    } finally {
      await tron.setAutomine(true);
    }
    const mined = (await rpc<RpcTx>('eth_getTransactionByHash', [`0x${txId}`])).result!;
    expect(mined.blockNumber).toMatch(/^0x[0-9a-f]+$/);
    expect(await tron.txInfo(txId)).toMatchObject({
      receipt: { result: 'SUCCESS' },
      fee: expect.any(Number),
    });
  });

  it('takes eth_getLogs addresses as 20-byte hex only, and at most 5,000 blocks and maxLogResults logs a call', async () => {
    const merchant = await tron.newWallet({ trx: 0n });
    const txId = await tron.transfer({ from: payer, to: merchant.address, units: 3n });
    const at = BigInt(Number((await tron.txInfo(txId)).blockNumber));
    const topics = [null, null, pad(merchant.hex, { size: 32 })];
    const getLogs = (filter: Record<string, unknown>) =>
      rpc<RpcLog[]>('eth_getLogs', [{ fromBlock: hex(at), toBlock: hex(at), topics, ...filter }]);
    expect((await getLogs({ address: tron.usdtHex })).result!.map((l) => l.transactionHash)).toEqual([
      `0x${txId}`,
    ]);
    expect((await getLogs({ address: [tron.usdtHex.slice(2)] })).result).toHaveLength(1); // java-tron: 0x optional
    const hex41 = `41${tron.usdtHex.slice(2)}`;
    expect((await getLogs({ address: hex41 })).error).toEqual({
      code: -32602,
      message: `invalid address: ${hex41}`,
    });
    expect((await getLogs({ address: tron.usdt })).error?.code).toBe(-32602);
    expect((await getLogs({ fromBlock: 'pending' })).error?.code).toBe(-32602);

    await tron.mine(5_001);
    const from = at;
    expect((await getLogs({ address: tron.usdtHex, toBlock: hex(from + 5_000n) })).result).toHaveLength(1);
    expect((await getLogs({ address: tron.usdtHex, toBlock: hex(from + 5_001n) })).error).toEqual({
      code: -32602,
      message: 'exceed max block range: 5000',
    });
    expect((await rpc('eth_getLogs', [{ fromBlock: hex(from), toBlock: 'latest' }])).error?.message).toBe(
      'exceed max block range: 5000',
    );

    tron.params.maxLogResults = 0;
    try {
      expect((await getLogs({})).error).toEqual({
        code: -32005,
        message: 'query returned more than 0 results',
      });
    } finally {
      tron.params.maxLogResults = 10_000;
    }
  });

  it('finds logs and blocks by their TRON block id', async () => {
    const txId = await tron.transfer({ from: payer, to: (await tron.newWallet()).address, units: 2n });
    const receipt = (await rpc<{ blockHash: string }>('eth_getTransactionReceipt', [`0x${txId}`])).result!;
    const logs = (await rpc<RpcLog[]>('eth_getLogs', [{ blockHash: receipt.blockHash }])).result!;
    expect(logs.map((l) => l.transactionHash)).toEqual([`0x${txId}`]);
    expect(
      (await rpc<RpcBlock>('eth_getBlockByHash', [receipt.blockHash, false])).result!.transactions,
    ).toEqual([`0x${txId}`]);
    const blockId = receipt.blockHash.slice(2);
    expect(
      (await tronPost<{ blockID: string }>(tron, '/wallet/getblockbyid', { value: blockId })).body.blockID,
    ).toBe(blockId);
    expect((await tronPost(tron, '/wallet/getblock', { id_or_num: blockId })).body).toHaveProperty(
      'blockID',
      blockId,
    );
  });
});

describe('local TRON chain: faults and call counts for tests', () => {
  it('answers 429 to the next requests in scope, then serves again', async () => {
    tron.injectFault({ kind: '429', requests: 2, scope: 'jsonrpc' });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(tron.jsonRpcUrl, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([429, 429, 200]);
  });

  it('answers 403 or 200 {"Error": "…lack of computing resources"} for a while', async () => {
    tron.injectFault({ kind: 'busy', ms: 300, scope: 'http' });
    expect(await tronPost(tron, '/wallet/getnowblock')).toEqual({
      status: 200,
      body: { Error: LACK_OF_RESOURCES },
    });
    expect((await rpc('eth_blockNumber')).result).toMatch(/^0x/); // another scope
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await tronPost(tron, '/wallet/getnowblock')).body).toHaveProperty('blockID');
    tron.injectFault({ kind: '403' });
    expect((await tronPost(tron, '/wallet/getnowblock')).status).toBe(403);
    tron.clearFault();
    expect((await tronPost(tron, '/wallet/getnowblock')).status).toBe(200);
  });

  it('counts requests per JSON-RPC method and HTTP path, batch entries included, its own helpers not', async () => {
    tron.resetCalls();
    await tron.transfer({ from: payer, to: (await tron.newWallet()).address, units: 1n }); // helper: not counted
    await fetch(tron.jsonRpcUrl, {
      method: 'POST',
      headers: { 'TRON-PRO-API-KEY': 'key-1' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] },
      ]),
    });
    await tronPost(tron, '/walletsolidity/getnowblock');
    expect(tron.calls).toEqual({ eth_blockNumber: 2, eth_chainId: 1, 'walletsolidity/getnowblock': 1 });
    expect([...tron.apiKeys]).toContain('key-1');
  });
});
