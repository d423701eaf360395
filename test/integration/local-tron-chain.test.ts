import { createHash } from 'node:crypto';
import { TronWeb, utils } from 'tronweb';
import { createPublicClient, http, keccak256, pad, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalTron, type LocalTron, type TronWallet } from '../../sandbox/chains/tron';
import { tronPost, tronRpc, type RpcBlock, type RpcReceipt, type RpcTx } from '../support/local-tron';

/**
 * The TRON-compatible local chain: its USDT's quirks and the HTTP API's shapes, through real TRON
 * transactions broadcast to /wallet/broadcasttransaction. The JSON-RPC rules and faults:
 * local-tron-rpc.test.ts.
 */

let tron: LocalTron;
let payer: TronWallet;
let startupMs = 0;

beforeAll(async () => {
  const started = performance.now();
  tron = await startLocalTron();
  startupMs = performance.now() - started;
  payer = await tron.newWallet({ usdt: 1_000_000_000n });
});
afterAll(() => tron?.stop());

const post = async <T = Record<string, unknown>>(path: string, body: unknown = {}): Promise<T> => {
  const answer = await tronPost<T>(tron, path, body);
  expect(answer.status).toBe(200);
  return answer.body;
};
/** The result of a JSON-RPC call that must succeed. */
const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
  const reply = await tronRpc<T>(tron, method, params);
  expect(reply.error).toBeUndefined();
  return reply.result as T;
};
const newRecipient = () => tron.newWallet({ trx: 0n });
const TRANSFER_TOPIC = keccak256(toHex('Transfer(address,address,uint256)')).slice(2);
const word = (hex: string) => pad(`0x${hex.replace(/^0x/, '')}` as Hex, { size: 32 }).slice(2);
type Info = {
  id: string;
  fee?: number;
  blockNumber: number;
  blockTimeStamp: number;
  contractResult: string[];
  contract_address: string;
  receipt: {
    energy_usage_total?: number;
    net_usage?: number;
    net_fee?: number;
    energy_fee?: number;
    result: string;
  };
  log?: { address: string; topics: string[]; data: string }[];
  result?: string;
  resMessage?: string;
};

describe("local TRON chain: USDT like TRON's, HTTP API with TRON's shapes", () => {
  it('starts with chain id 0x2b6653dc and keys whose T… address holds the Ethereum 20 bytes', async () => {
    console.log(`local TRON chain started in ${startupMs.toFixed(0)} ms`);
    expect(startupMs).toBeLessThan(10_000);
    expect(await rpc('eth_chainId')).toBe('0x2b6653dc');
    expect(payer.address).toBe(TronWeb.address.fromPrivateKey(payer.privateKey));
    expect(payer.hex).toBe(privateKeyToAccount(`0x${payer.privateKey}`).address.toLowerCase());
    expect(TronWeb.address.toHex(payer.address)).toBe(`41${payer.hex.slice(2)}`);
    expect(tron.usdt).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });

  it('moves USDT in a real TRON transaction whose transfer() returns false, the Transfer log the only proof', async () => {
    const merchant = await newRecipient();
    const txId = await tron.transfer({ from: payer, to: merchant.address, units: 1_250_000n });
    expect(await tron.tokenBalance(merchant.address)).toBe(1_250_000n);
    const info = await post<Info>('/wallet/gettransactioninfobyid', { value: txId });
    expect(info.id).toBe(txId);
    expect(info.contractResult).toEqual(['0'.repeat(64)]); // false
    expect(info.contract_address).toBe(`41${tron.usdtHex.slice(2)}`);
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info.receipt.energy_usage_total).toBeGreaterThan(10_000);
    expect(info.fee).toBe(info.receipt.energy_usage_total! * 100 + (info.receipt.net_fee ?? 0));
    expect(info).not.toHaveProperty('result'); // default-valued fields are left out
    expect(info.blockTimeStamp % 1000).toBe(0);
    expect(info.blockTimeStamp).toBeGreaterThan(1.7e12);
    expect(info.log).toEqual([
      {
        address: tron.usdtHex.slice(2), // 20 bytes, no 41
        topics: [TRANSFER_TOPIC, word(payer.hex), word(merchant.hex)],
        data: word(toHex(1_250_000n)),
      },
    ]);
    expect(tron.trxBalance(payer.address)).toBe(100_000_000n - BigInt(info.fee!));
  });

  it('names transactions by their TRON txID (sha256 of raw_data) in the HTTP API and the JSON-RPC', async () => {
    const txId = await tron.transfer({ from: payer, to: (await newRecipient()).address, units: 1n });
    const tx = await post<{ txID: string; raw_data_hex: string; signature: string[]; ret: unknown[] }>(
      '/wallet/gettransactionbyid',
      { value: txId },
    );
    expect(tx.txID).toBe(txId);
    expect(createHash('sha256').update(Buffer.from(tx.raw_data_hex, 'hex')).digest('hex')).toBe(txId);
    expect(tx.ret).toEqual([{ contractRet: 'SUCCESS' }]);
    expect(tx.signature).toHaveLength(1);
    const receipt = await rpc<RpcReceipt>('eth_getTransactionReceipt', [`0x${txId}`]);
    expect(receipt.transactionHash).toBe(`0x${txId}`);
    expect(receipt.logs[0]!.transactionHash).toBe(`0x${txId}`);
    expect(receipt.logsBloom).toBe(`0x${'0'.repeat(512)}`);
    const block = await rpc<RpcBlock>('eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.transactions).toEqual([`0x${txId}`]);
    expect(block.hash).toBe(receipt.blockHash);
    expect(block.hash.slice(2, 18)).toBe(BigInt(receipt.blockNumber).toString(16).padStart(16, '0'));
    const byHash = await rpc<RpcTx>('eth_getTransactionByHash', [`0x${txId}`]);
    expect(byHash.hash).toBe(`0x${txId}`);
    const httpBlock = await post<{ blockID: string; transactions: { txID: string }[] }>(
      '/wallet/getblockbynum',
      {
        num: Number(BigInt(receipt.blockNumber)),
      },
    );
    expect(`0x${httpBlock.blockID}`).toBe(block.hash);
    expect(httpBlock.transactions.map((t) => t.txID)).toEqual([txId]);
  });

  it('keeps a tag appended to the calldata, and the transfer still succeeds', async () => {
    const tag = keccak256(toHex('order 37'));
    const merchant = await newRecipient();
    const txId = await tron.transfer({ from: payer, to: merchant.address, units: 7_000_000n, tag });
    const tx = await post<{ raw_data: { contract: { parameter: { value: { data: string } } }[] } }>(
      '/wallet/gettransactionbyid',
      { value: txId },
    );
    const data = tx.raw_data.contract[0]!.parameter.value.data;
    expect(data.length / 2).toBe(4 + 32 + 32 + 32);
    expect(data.endsWith(tag.slice(2))).toBe(true);
    expect((await rpc<RpcTx>('eth_getTransactionByHash', [`0x${txId}`])).input).toBe(`0x${data}`);
    expect((await tron.txInfo(txId)).receipt).toMatchObject({ result: 'SUCCESS' });
    expect(await tron.tokenBalance(merchant.address)).toBe(7_000_000n);
  });

  it('records a transfer beyond the balance as FAILED (REVERT) with no logs', async () => {
    const poor = await tron.newWallet({ usdt: 5n });
    const txId = await tron.transfer({ from: poor, to: (await newRecipient()).address, units: 6n });
    const info = await post<Info>('/wallet/gettransactioninfobyid', { value: txId });
    expect(info.result).toBe('FAILED');
    expect(info.receipt.result).toBe('REVERT');
    expect(Buffer.from(info.resMessage!, 'hex').toString()).toBe('REVERT opcode executed');
    expect(info).not.toHaveProperty('log');
    const receipt = await rpc<RpcReceipt>('eth_getTransactionReceipt', [`0x${txId}`]);
    expect(receipt.status).toBe('0x0');
    expect(receipt.logs).toEqual([]);
    expect(await post('/wallet/gettransactionbyid', { value: txId })).toMatchObject({
      ret: [{ contractRet: 'REVERT' }],
    });
  });

  it('runs out of energy when the payer has no TRX for it, and refuses a payer without TRX for bandwidth', async () => {
    const broke = await tron.newWallet({ trx: 0n, usdt: 10n });
    // The free bandwidth carries the first transaction; nothing pays its energy.
    const txId = await tron.transfer({ from: broke, to: (await newRecipient()).address, units: 1n });
    const info = await tron.txInfo(txId);
    expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'OUT_OF_ENERGY' } });
    expect(await tron.tokenBalance(broke.address)).toBe(10n);
    await expect(
      tron.transfer({ from: broke, to: (await newRecipient()).address, units: 1n }),
    ).rejects.toThrow(/BANDWITH_ERROR/);
  });

  it("lets anyone send a 0-value transferFrom in a victim's name (address poisoning)", async () => {
    const [attacker, lookalike] = [await tron.newWallet(), await newRecipient()];
    const txId = await tron.transferFrom({
      from: attacker,
      owner: payer.address,
      to: lookalike.address,
      units: 0n,
    });
    const info = await tron.txInfo(txId);
    expect(info).toMatchObject({ receipt: { result: 'SUCCESS' } });
    expect((info as unknown as Info).log).toEqual([
      {
        address: tron.usdtHex.slice(2),
        topics: [TRANSFER_TOPIC, word(payer.hex), word(lookalike.hex)],
        data: '0'.repeat(64),
      },
    ]);
    await expect(
      tron.txInfo(
        await tron.transferFrom({ from: attacker, owner: payer.address, to: lookalike.address, units: 1n }),
      ),
    ).resolves.toMatchObject({ result: 'FAILED' });
  });

  it('has a fake "USDT" of 6 decimals at another address, whose transfers log from that address', async () => {
    const call = (token: string, selector: string) =>
      post<{ constant_result: string[] }>('/wallet/triggerconstantcontract', {
        owner_address: payer.address,
        contract_address: token,
        function_selector: selector,
        visible: true,
      });
    expect(tron.fakeUsdt).not.toBe(tron.usdt);
    expect(BigInt(`0x${(await call(tron.fakeUsdt, 'decimals()')).constant_result[0]}`)).toBe(6n);
    const symbol = (await call(tron.fakeUsdt, 'symbol()')).constant_result[0]!;
    expect(Buffer.from(symbol.slice(128), 'hex').toString().replace(/\0+$/, '')).toBe('USDT');
    await tron.mint(payer.address, 5_000_000n, tron.fakeUsdt);
    const merchant = await newRecipient();
    const txId = await tron.transfer({
      from: payer,
      to: merchant.address,
      units: 5_000_000n,
      token: tron.fakeUsdt,
    });
    expect(((await tron.txInfo(txId)) as unknown as Info).log![0]!.address).toBe(tron.fakeUsdtHex.slice(2));
    expect(await tron.tokenBalance(merchant.address)).toBe(0n);
  });

  it('refuses broadcasts with a bad signature, a changed body, an old reference block, an expiry or twice', async () => {
    const to = (await newRecipient()).address;
    const build = () =>
      tron.buildCall({
        from: payer.address,
        contract: tron.usdt,
        selector: 'transfer(address,uint256)',
        parameter: `0x${word(TronWeb.address.toHex(to).slice(2))}${word(toHex(1n))}`,
      });
    const stranger = await tron.newWallet();
    const refused = async (tx: unknown, code: string) => {
      const answer = await post<{ code: string; message: string; result?: boolean }>(
        '/wallet/broadcasttransaction',
        tx,
      );
      expect(answer.code).toBe(code);
      expect(answer.message).toMatch(/^([0-9a-f]{2})+$/); // hex, as java-tron writes it
      return Buffer.from(answer.message, 'hex').toString();
    };
    // tronweb's trx.sign refuses a key that is not the owner's; its crypto helper signs anyway.
    const forged = utils.crypto.signTransaction(stranger.privateKey, await build());
    expect(await refused(forged, 'SIGERROR')).toMatch(/signature/);
    const unsigned = await build();
    expect(await refused({ ...unsigned, signature: [] }, 'SIGERROR')).toMatch(/signature/);
    const signed = await tron.sign(await build(), payer);
    const tampered = signed.raw_data_hex.replace(word(toHex(1n)), word(toHex(2n)));
    await refused({ ...signed, raw_data_hex: tampered }, 'SIGERROR'); // txID no longer sha256(raw_data)
    await refused({ ...signed, raw_data_hex: tampered, txID: undefined }, 'SIGERROR'); // signature over another id
    // Built by hand on the latest block header, then with a reference block that is not the chain's,
    // and with an expiration already past.
    const head = await post<{
      blockID: string;
      block_header: { raw_data: { number: number; timestamp: number } };
    }>('/wallet/getblock');
    const { number, timestamp } = head.block_header.raw_data;
    const byHand = async (header: Record<string, unknown>) => {
      const blockHeader = {
        ref_block_bytes: (number & 0xffff).toString(16).padStart(4, '0'),
        ref_block_hash: head.blockID.slice(16, 32),
        expiration: timestamp + 60_000,
        timestamp,
        ...header,
      };
      const tronWeb = new TronWeb({ fullHost: tron.url });
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        tron.usdt,
        'transfer(address,uint256)',
        { feeLimit: 100_000_000, txLocal: true, blockHeader } as never,
        [
          { type: 'address', value: to },
          { type: 'uint256', value: 1 },
        ],
        payer.address,
      );
      return tron.sign(transaction as never, payer);
    };
    expect(
      (await post('/wallet/broadcasttransaction', await byHand({ expiration: timestamp + 59_000 }))).result,
    ).toBe(true);
    expect(await refused(await byHand({ ref_block_hash: 'ab'.repeat(8) }), 'TAPOS_ERROR')).toMatch(/Tapos/);
    expect(
      await refused(await byHand({ expiration: timestamp - 1 }), 'TRANSACTION_EXPIRATION_ERROR'),
    ).toMatch(/expired/);
    const ok = await tron.sign(await build(), payer);
    expect(await post('/wallet/broadcasttransaction', ok)).toEqual({ result: true, txid: ok.txID });
    await refused(ok, 'DUP_TRANSACTION_ERROR');
  });

  it('builds (triggersmartcontract), broadcasts and reads through tronweb pointed at the gateway', async () => {
    const tronWeb = new TronWeb({ fullHost: tron.url });
    const merchant = await newRecipient();
    const { transaction: tx } = await tronWeb.transactionBuilder.triggerSmartContract(
      tron.usdt,
      'transfer(address,uint256)',
      { feeLimit: 50_000_000 },
      [
        { type: 'address', value: merchant.address },
        { type: 'uint256', value: 3 },
      ],
      payer.address,
    );
    expect(tx.raw_data.fee_limit).toBe(50_000_000);
    const answer = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(tx, payer.privateKey));
    expect(answer).toMatchObject({ result: true, txid: tx.txID });
    expect(await tron.tokenBalance(merchant.address)).toBe(3n);
    const block = await tronWeb.trx.getCurrentBlock();
    expect(block.block_header.raw_data.number).toBe(Number(await tron.blockNumber()));
    expect(await tronWeb.trx.getBalance(payer.address)).toBe(Number(tron.trxBalance(payer.address)));
    expect(await tronWeb.trx.getTransactionInfo(tx.txID)).toEqual({}); // walletsolidity: not solidified yet
    await tron.solidify();
    expect(await tronWeb.trx.getTransactionInfo(tx.txID)).toMatchObject({ id: tx.txID });
    const params = await tronWeb.trx.getChainParameters();
    expect(params).toEqual(
      expect.arrayContaining([
        { key: 'getEnergyFee', value: 100 },
        { key: 'getTransactionFee', value: 1000 },
      ]),
    );
  });

  it('answers errors as 200 {"Error"}, unknown things as {}, and leaves default fields out', async () => {
    expect(await post('/wallet/getaccount', { address: 'Tnotanaddress' })).toHaveProperty('Error');
    expect(await post('/wallet/gettransactionbyid', { value: 'zz' })).toHaveProperty('Error');
    expect(await post('/wallet/gettransactionbyid', { value: 'ab'.repeat(32) })).toEqual({});
    expect(await post('/wallet/gettransactioninfobyid', { value: 'ab'.repeat(32) })).toEqual({});
    expect(
      await post('/wallet/getaccount', { address: (await newRecipient()).address, visible: true }),
    ).not.toHaveProperty('balance');
    const nobody = TronWeb.address.fromPrivateKey('2'.repeat(64)) as string;
    expect(await post('/wallet/getaccount', { address: nobody, visible: true })).toEqual({});
    expect(await post('/wallet/getaccount', { address: payer.address, visible: true })).toMatchObject({
      address: payer.address,
      balance: Number(tron.trxBalance(payer.address)),
    });
    expect(await post('/wallet/getaccountresource', { address: `41${payer.hex.slice(2)}` })).toMatchObject({
      freeNetLimit: 600,
    });
    const estimate = await post<{ energy_required: number }>('/wallet/estimateenergy', {
      owner_address: payer.address,
      contract_address: tron.usdt,
      function_selector: 'transfer(address,uint256)',
      parameter: `${word(payer.hex)}${word(toHex(1n))}`,
      visible: true,
    });
    expect(estimate.energy_required).toBeGreaterThan(5_000);
    const genesis = await post<{ block_header: { raw_data: Record<string, unknown> } }>(
      '/wallet/getblockbynum',
      { num: 0 },
    );
    expect(genesis.block_header.raw_data).not.toHaveProperty('number');
    const res = await fetch(`${tron.url}/wallet/nosuchthing`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
  });

  it('reads the chain with viem over the JSON-RPC: logs with 0x addresses, receipts, the finalized block', async () => {
    const client = createPublicClient({ transport: http(tron.jsonRpcUrl, { retryCount: 0 }) });
    const merchant = await newRecipient();
    const txId = await tron.transfer({ from: payer, to: merchant.address, units: 9n });
    const logs = await client.getLogs({
      address: tron.usdtHex,
      fromBlock: (await client.getBlockNumber()) - 10n,
      toBlock: 'latest',
    });
    expect(logs.map((l) => l.transactionHash)).toContain(`0x${txId}`);
    expect((await client.getTransactionReceipt({ hash: `0x${txId}` })).status).toBe('success');
    const head = await client.getBlockNumber();
    expect((await client.getBlock({ blockTag: 'finalized' })).number).toBe(head - 19n);
  });
});
