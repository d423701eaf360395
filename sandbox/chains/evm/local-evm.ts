import {
  concat,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  erc20Abi,
  http,
  numberToHex,
  parseEther,
  type Address,
  type Chain,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { testTokenArtifact, type TokenArtifact } from './compile-token';
import { USDC_EIP712_VERSION, usdcTokenArtifact } from './usdc-token';
import { startNodeProcess } from './node-process';
import { RpcProxy } from './rpc-proxy';
import { listenOrStop } from '../listen';

/**
 * A local EVM chain for the sandbox, tests, the demo and benchmarks: a Hardhat 2 node (own process, chain id of
 * your choice) behind a counting proxy. The service reaches it only through `url` (the proxy); the
 * helpers here talk to the node directly, so they work while the RPC is "down" and are not counted.
 */

export type LocalWallet = PrivateKeyAccount & { privateKey: Hex };

/** A fresh address nobody holds the key of: a receiving wallet that only has to exist. */
export const randomEvmAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

export type LocalEvm = {
  /** The endpoint for the service (through the proxy). */
  url: string;
  /** The node itself, bypassing the proxy (not counted, never stopped by stopRpc). */
  nodeUrl: string;
  chainId: number;
  chain: Chain;
  /** Process id of the Hardhat node. */
  nodePid: number;
  /** viem clients on nodeUrl. */
  publicClient: PublicClient;
  walletClient: WalletClient;
  /**
   * Deploys TestToken.sol (default 6 decimals, "Tether USD"/"USDT"). Like mint() and newWallet(),
   * it mines a block when automine is off (with whatever else is pending then).
   */
  deployToken(opts?: { name?: string; symbol?: string; decimals?: number }): Promise<Address>;
  /**
   * Deploys UsdcToken.sol: a USDC with EIP-3009 (x402's `exact` scheme), "USD Coin"/"USDC", 6
   * decimals, EIP-712 version "2" as Circle's.
   */
  deployUsdc(opts?: {
    name?: string;
    symbol?: string;
    version?: string;
    decimals?: number;
  }): Promise<Address>;
  /** Deploys any compiled contract (see compile-token.ts) with its constructor's arguments. */
  deployContract(artifact: TokenArtifact, args?: readonly unknown[]): Promise<Address>;
  mint(token: Address, to: Address, units: bigint): Promise<Hex>;
  balanceOf(token: Address, owner: Address): Promise<bigint>;
  /** A fresh key (or `privateKey`) with `eth` for gas (default 100 ETH) and, given a token, `units`. */
  newWallet(opts?: { eth?: bigint; token?: Address; units?: bigint; privateKey?: Hex }): Promise<LocalWallet>;
  /** ERC-20 transfer(to, units) signed by `from`, `dataSuffix` appended to the calldata. */
  transfer(opts: {
    from: LocalWallet;
    token: Address;
    to: Address;
    units: bigint;
    dataSuffix?: Hex;
  }): Promise<Hex>;
  /** A raw transaction. `gas` given skips estimation: a reverting call then lands with status 0. */
  sendTransaction(opts: {
    from: LocalWallet;
    to: Address;
    data?: Hex;
    value?: bigint;
    gas?: bigint;
  }): Promise<Hex>;
  mine(blocks?: number): Promise<void>;
  blockNumber(): Promise<bigint>;
  /** evm_snapshot: an id for revert(). */
  snapshot(): Promise<Hex>;
  /** evm_revert: drops the blocks and transactions after the snapshot; the id is used up. */
  revert(id: Hex): Promise<void>;
  /** Off: transactions wait in the mempool until mine(); transfer() then returns without a receipt. */
  setAutomine(on: boolean): Promise<void>;
  /** Any JSON-RPC method on the node directly (hardhat_*, evm_*, eth_*). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** JSON-RPC calls per method received through `url` since start or resetRpcCalls() (live object). */
  readonly rpcCalls: Record<string, number>;
  resetRpcCalls(): void;
  /** Closes the proxy's listener (connections refused); the chain keeps running. */
  stopRpc(): Promise<void>;
  /** Listens again on the same port. */
  startRpc(): Promise<void>;
  /** The endpoint accepts requests and answers none (a hanging provider), until answerRpc(). */
  hangRpc(): void;
  answerRpc(): void;
  /** eth_getLogs through `url` refused beyond `max` results, as providers cap them; null: no cap. */
  limitLogs(max: number | null): void;
  stop(): Promise<void>;
};

const DEFAULT_WALLET_ETH = parseEther('100');
const DEPLOY_GAS = 3_000_000n;
const MINT_GAS = 200_000n;
const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
] as const;

export async function startLocalEvm(opts: {
  chainId: number;
  port?: number;
  host?: string;
}): Promise<LocalEvm> {
  const { chainId } = opts;
  const node = await startNodeProcess(chainId);
  const nodeUrl = `http://127.0.0.1:${node.port}`;
  const proxy = new RpcProxy(nodeUrl, opts.host ?? '127.0.0.1');
  await listenOrStop(
    () => proxy.listen(opts.port ?? 0),
    () => node.kill(),
  );
  const url = `http://${opts.host ?? '127.0.0.1'}:${proxy.port}`;
  const chain = defineChain({
    id: chainId,
    name: `Local ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const publicClient = createPublicClient({
    chain,
    transport: http(nodeUrl, { retryCount: 0 }),
  }) as PublicClient;
  const walletClient = createWalletClient({ chain, transport: http(nodeUrl, { retryCount: 0 }) });
  let automine = true;
  let nextId = 1;

  async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
    return body.result as T;
  }

  /** The helpers' own transactions must land even with automine off: mine a block for them then. */
  async function landed(hash: Hex): Promise<void> {
    if (!automine) await rpc('evm_mine');
    const receipt = await publicClient.getTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  }

  async function sendTransaction(o: {
    from: LocalWallet;
    to: Address;
    data?: Hex;
    value?: bigint;
    gas?: bigint;
  }): Promise<Hex> {
    const hash = await walletClient.sendTransaction({
      account: o.from,
      chain,
      to: o.to,
      data: o.data,
      value: o.value,
      gas: o.gas,
    });
    // Automine answers eth_sendRawTransaction once the block is mined: the receipt is there already.
    if (automine) await publicClient.getTransactionReceipt({ hash });
    return hash;
  }

  // The helpers' own transactions (deploy, mint) come from an impersonated account through
  // eth_sendTransaction: the node assigns nonces, so they may run concurrently, and nothing is signed.
  const helper = privateKeyToAccount(generatePrivateKey()).address;
  await rpc('hardhat_impersonateAccount', [helper]);
  await rpc('hardhat_setBalance', [helper, numberToHex(parseEther('1000000'))]);
  async function sendAsHelper(to: Address | undefined, data: Hex, gas: bigint): Promise<Hex> {
    const hash = await rpc<Hex>('eth_sendTransaction', [{ from: helper, to, data, gas: numberToHex(gas) }]);
    await landed(hash);
    return hash;
  }

  async function mint(token: Address, to: Address, units: bigint): Promise<Hex> {
    const data = encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [to, units] });
    return sendAsHelper(token, data, MINT_GAS);
  }

  async function deployContract({ abi, bytecode }: TokenArtifact, args: readonly unknown[] = []) {
    const data = encodeDeployData({ abi, bytecode, args });
    const hash = await sendAsHelper(undefined, data, DEPLOY_GAS);
    const { contractAddress } = await publicClient.getTransactionReceipt({ hash });
    if (!contractAddress) throw new Error(`deployment ${hash} created no contract`);
    return contractAddress;
  }

  return {
    url,
    nodeUrl,
    chainId,
    chain,
    nodePid: node.pid,
    publicClient,
    walletClient,

    deployToken: ({ name = 'Tether USD', symbol = 'USDT', decimals = 6 } = {}) =>
      deployContract(testTokenArtifact(), [name, symbol, decimals]),
    deployUsdc: ({ name = 'USD Coin', symbol = 'USDC', version = USDC_EIP712_VERSION, decimals = 6 } = {}) =>
      deployContract(usdcTokenArtifact(), [name, symbol, version, decimals]),
    deployContract,

    mint,

    balanceOf: (token, owner) =>
      publicClient.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),

    async newWallet({ eth = DEFAULT_WALLET_ETH, token, units, privateKey = generatePrivateKey() } = {}) {
      const wallet = Object.assign(privateKeyToAccount(privateKey), { privateKey });
      await rpc('hardhat_setBalance', [wallet.address, numberToHex(eth)]);
      if (token && units !== undefined) await mint(token, wallet.address, units);
      return wallet;
    },

    transfer({ from, token, to, units, dataSuffix }) {
      const call = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, units] });
      return sendTransaction({ from, to: token, data: dataSuffix ? concat([call, dataSuffix]) : call });
    },

    sendTransaction,

    async mine(blocks = 1) {
      await rpc('hardhat_mine', [numberToHex(blocks)]);
    },
    blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
    snapshot: () => rpc<Hex>('evm_snapshot'),
    async revert(id) {
      if (!(await rpc<boolean>('evm_revert', [id]))) throw new Error(`evm_revert: no snapshot ${id}`);
    },
    async setAutomine(on) {
      await rpc('evm_setAutomine', [on]);
      automine = on;
    },
    rpc,

    get rpcCalls() {
      return proxy.calls;
    },
    resetRpcCalls: () => proxy.resetCalls(),
    stopRpc: () => proxy.stop(),
    startRpc: () => proxy.listen(),
    hangRpc: () => proxy.hang(),
    answerRpc: () => proxy.speak(),
    limitLogs: (max) => proxy.limitLogs(max),
    async stop() {
      await proxy.stop();
      await node.kill();
    },
  };
}
