import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createPublicClient,
  encodeEventTopics,
  encodeFunctionData,
  erc20Abi,
  http,
  keccak256,
  pad,
  toHex,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalEvm, type LocalEvm, type LocalWallet } from '../../sandbox/chains/evm/local-evm';

let polygon: LocalEvm;
let ethereum: LocalEvm;
const startupMs: Record<number, number> = {};
let token: Address;
let payer: LocalWallet;

async function timedStart(chainId: number): Promise<LocalEvm> {
  const started = performance.now();
  const chain = await startLocalEvm({ chainId });
  startupMs[chainId] = performance.now() - started;
  return chain;
}

beforeAll(async () => {
  [polygon, ethereum] = await Promise.all([timedStart(137), timedStart(1)]);
  token = await polygon.deployToken();
  payer = await polygon.newWallet({ token, units: 1_000_000_000n });
});
afterAll(async () => {
  await polygon?.stop();
  await ethereum?.stop();
});

type RpcResponse = { id?: number; result?: unknown; error?: { code: number; message: string } };

async function rpc(url: string, body: unknown): Promise<RpcResponse & RpcResponse[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as RpcResponse & RpcResponse[];
}
const call = (url: string, method: string, params: unknown[] = []) =>
  rpc(url, { jsonrpc: '2.0', id: 1, method, params }).then((r) => r.result);

const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const [TRANSFER_TOPIC] = encodeEventTopics({ abi: erc20Abi, eventName: 'Transfer' });
const addressTopic = (address: Address) => pad(address.toLowerCase() as Hex, { size: 32 });

describe('local EVM chains (Hardhat nodes behind a counting proxy)', () => {
  it('runs chain ids 137 and 1 side by side', async () => {
    console.log(
      `startup: chain 137 ${startupMs[137]!.toFixed(0)} ms, chain 1 ${startupMs[1]!.toFixed(0)} ms`,
    );
    expect(Math.max(startupMs[137]!, startupMs[1]!)).toBeLessThan(5000);
    expect(polygon.url).not.toBe(ethereum.url);
    expect(polygon.nodePid).not.toBe(ethereum.nodePid);
    const [a, b] = await Promise.all([call(polygon.url, 'eth_chainId'), call(ethereum.url, 'eth_chainId')]);
    expect([a, b]).toEqual(['0x89', '0x1']);
    expect(await createPublicClient({ transport: http(ethereum.url) }).getChainId()).toBe(1);
  });

  it('deploys a 6-decimal token, mints and transfers', async () => {
    const read = <T>(functionName: 'decimals' | 'symbol' | 'name') =>
      polygon.publicClient.readContract({ address: token, abi: erc20Abi, functionName }) as Promise<T>;
    expect(await read<number>('decimals')).toBe(6);
    expect(await read<string>('symbol')).toBe('USDT');
    expect(await read<string>('name')).toBe('Tether USD');
    const other = await ethereum.deployToken({ name: 'Other', symbol: 'OTH' });
    expect(await ethereum.publicClient.getCode({ address: other })).toMatch(/^0x[0-9a-f]{100,}$/);

    const merchant = newAddress();
    const before = await polygon.balanceOf(token, payer.address);
    const hash = await polygon.transfer({ from: payer, token, to: merchant, units: 1_250_000n });
    const receipt = await polygon.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(await polygon.balanceOf(token, merchant)).toBe(1_250_000n);
    expect(await polygon.balanceOf(token, payer.address)).toBe(before - 1_250_000n);
  });

  it('accepts a 32-byte tag after the transfer arguments and finds its Transfer log by recipient', async () => {
    const [first, second, nobody] = [newAddress(), newAddress(), newAddress()];
    const tag = keccak256(toHex('order 42'));
    const hash = await polygon.transfer({
      from: payer,
      token,
      to: first,
      units: 7_000_000n,
      dataSuffix: tag,
    });
    await polygon.transfer({ from: payer, token, to: second, units: 3_000_000n });
    const tx = await polygon.publicClient.getTransaction({ hash });
    expect((tx.input.length - 2) / 2).toBe(4 + 32 + 32 + 32);
    expect(tx.input.endsWith(tag.slice(2))).toBe(true);
    expect((await polygon.publicClient.getTransactionReceipt({ hash })).status).toBe('success');

    type Log = { transactionHash: Hex; data: Hex; topics: Hex[] };
    const getLogs = (recipients: Hex | Hex[]) =>
      call(polygon.url, 'eth_getLogs', [
        { address: token, fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER_TOPIC, null, recipients] },
      ]) as Promise<Log[]>;
    const logs = await getLogs(addressTopic(first));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.transactionHash).toBe(hash);
    expect(BigInt(logs[0]!.data)).toBe(7_000_000n);
    expect(logs[0]!.topics[1]).toBe(addressTopic(payer.address));

    const several = await getLogs([first, second, nobody].map(addressTopic));
    expect(several.map((log) => BigInt(log.data))).toEqual([7_000_000n, 3_000_000n]);
  });

  it('mines a reverting transfer sent with a gas limit, as a real node does', async () => {
    const broke = await polygon.newWallet();
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [newAddress(), 1n] });
    const hash = await polygon.sendTransaction({ from: broke, to: token, data, gas: 100_000n });
    const receipt = await polygon.publicClient.getTransactionReceipt({ hash });
    expect(receipt.status).toBe('reverted');
    expect(receipt.logs).toEqual([]);
    // Without a gas limit, estimation fails first, as in a wallet.
    await expect(polygon.transfer({ from: broke, token, to: newAddress(), units: 1n })).rejects.toThrow(
      /exceeds balance/,
    );
  });

  it('drops a mined transfer on snapshot, mine and revert (a reorganisation)', async () => {
    const merchant = newAddress();
    const height = await polygon.blockNumber();
    const nonce = await polygon.publicClient.getTransactionCount({ address: payer.address });
    const balance = await polygon.balanceOf(token, payer.address);
    const id = await polygon.snapshot();

    const hash = await polygon.transfer({ from: payer, token, to: merchant, units: 5_000_000n });
    await polygon.mine(2);
    expect(await polygon.blockNumber()).toBe(height + 3n);
    const droppedBlockHash = (await polygon.publicClient.getTransactionReceipt({ hash })).blockHash;

    await polygon.revert(id);
    expect(await call(polygon.url, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect(await polygon.blockNumber()).toBe(height);
    expect(await polygon.balanceOf(token, merchant)).toBe(0n);
    expect(await polygon.balanceOf(token, payer.address)).toBe(balance);
    expect(await polygon.publicClient.getTransactionCount({ address: payer.address })).toBe(nonce);

    await polygon.mine(3); // the other branch
    const block = await polygon.publicClient.getBlock({ blockNumber: height + 1n });
    expect(block.hash).not.toBe(droppedBlockHash);
  });

  it('holds transactions in the mempool while automine is off', async () => {
    await polygon.setAutomine(false);
    try {
      const hash = await polygon.transfer({ from: payer, token, to: newAddress(), units: 1n });
      expect(await call(polygon.url, 'eth_getTransactionReceipt', [hash])).toBeNull();
      const pending = (await call(polygon.url, 'eth_getTransactionByHash', [hash])) as {
        blockNumber: Hex | null;
      };
      expect(pending.blockNumber).toBeNull();
      await polygon.mine();
      expect((await polygon.publicClient.getTransactionReceipt({ hash })).status).toBe('success');
    } finally {
      await polygon.setAutomine(true);
    }
  });

  it('refuses connections while the RPC is down and keeps the chain state across', async () => {
    const height = await polygon.blockNumber();
    await polygon.stopRpc();
    const failure = await fetch(polygon.url, { method: 'POST', body: '{}' }).catch((error: Error) => error);
    expect((failure as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    await expect(
      createPublicClient({ transport: http(polygon.url, { retryCount: 0 }) }).getBlockNumber(),
    ).rejects.toThrow();

    // The chain goes on meanwhile: a payment made while the service cannot see it.
    const merchant = newAddress();
    await polygon.transfer({ from: payer, token, to: merchant, units: 2_000_000n });

    await polygon.startRpc();
    expect(BigInt((await call(polygon.url, 'eth_blockNumber')) as Hex)).toBe(height + 1n);
    const logs = (await call(polygon.url, 'eth_getLogs', [
      {
        address: token,
        fromBlock: toHex(height),
        toBlock: 'latest',
        topics: [TRANSFER_TOPIC, null, addressTopic(merchant)],
      },
    ])) as unknown[];
    expect(logs).toHaveLength(1);
  });

  it('counts the JSON-RPC calls that go through the proxy, batch entries included', async () => {
    ethereum.resetRpcCalls();
    await call(ethereum.url, 'eth_blockNumber');
    const batch = await rpc(ethereum.url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'eth_getLogs', params: [{ fromBlock: '0x0' }] },
    ]);
    expect(batch.map((entry) => entry.id)).toEqual([1, 2, 3]);
    await createPublicClient({ transport: http(ethereum.url) }).getBalance({ address: newAddress() });
    // The helpers bypass the proxy: setting up a wallet is not the service's traffic.
    await ethereum.newWallet();
    expect(ethereum.rpcCalls).toEqual({
      eth_blockNumber: 2,
      eth_chainId: 1,
      eth_getLogs: 1,
      eth_getBalance: 1,
    });
  });

  it('leaves no node behind when its parent process is killed', async () => {
    const script = `
      import { startLocalEvm } from './sandbox/chains/evm/local-evm.ts';
      const chain = await startLocalEvm({ chainId: 5 });
      console.log(chain.nodePid);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const nodePid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
    });
    expect(isAlive(nodePid)).toBe(true);
    parent.kill('SIGKILL');
    for (let i = 0; i < 100 && isAlive(nodePid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAlive(nodePid)).toBe(false);
  });
});

/** Running, not a zombie (an orphan's exit may never be reaped by a container's init). */
function isAlive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
