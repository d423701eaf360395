import { fileURLToPath } from 'node:url';
import { TronWeb } from 'tronweb';
import { encodeAbiParameters, erc20Abi, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { compiledContract } from '../evm/compile-token';
import { startLocalEvm } from '../evm/local-evm';
import { listenOrStop } from '../listen';
import { DEFAULT_TRON_PARAMS, TronContext, type TronParams } from './tron-context';
import { HELPER_HEADER, TronGateway, type TronFault } from './tron-gateway';
import { base58Of, evmAddressOf, refBlockOf } from './tron-ids';
import { TronState, type TronTransaction } from './tron-state';

/** TRON mainnet's chain id (0x2b6653dc), which the local chain answers to eth_chainId. */
export const TRON_CHAIN_ID = 728_126_428;
/** TRON's USDT (mainnet): the local USDT's code sits at this address too, so defaults work. */
export const TRON_USDT_MAINNET = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const DEFAULT_FEE_LIMIT = 100_000_000; // 100 TRX, what wallets commonly set for a TRC-20 transfer
const SUN_PER_TRX = 1_000_000n;

/** A TRON key pair: `privateKey` 64 hex digits (no 0x), `address` base58 T…, `hex` the same 20 bytes as 0x. */
export type TronWallet = { privateKey: string; address: string; hex: Address };
export type BroadcastAnswer = { result?: boolean; txid?: string; code?: string; message?: string };
export type TransferOptions = {
  from: TronWallet;
  to: string;
  units: bigint;
  /** Token contract (T…); default the local USDT. */
  token?: string;
  /** Bytes appended to the calldata after the arguments (the order tag). */
  tag?: Hex;
  feeLimit?: number;
};

export async function startLocalTron(
  opts: {
    port?: number;
    host?: string;
    /** A block every so many ms besides one per transaction (0: only on transactions and mine()). */
    blockTimeMs?: number;
    params?: Partial<TronParams>;
  } = {},
) {
  const evm = await startLocalEvm({ chainId: TRON_CHAIN_ID });
  const params: TronParams = { ...DEFAULT_TRON_PARAMS, ...opts.params };
  const state = new TronState();
  const ctx = new TronContext(evm.nodeUrl, state, params);
  const gateway = new TronGateway(ctx, opts.host ?? '127.0.0.1');
  await listenOrStop(
    () => gateway.listen(opts.port ?? 0),
    () => evm.stop(),
  );
  const url = `http://${opts.host ?? '127.0.0.1'}:${gateway.port}`;
  const usdtArtifact = compiledContract(
    fileURLToPath(new URL('./TronUsdt.sol', import.meta.url)),
    'TronUsdt',
  );
  const deployed = await evm.deployContract(usdtArtifact);
  // The same code at the mainnet address: its state (balances) starts empty there.
  const usdtHex = evmAddressOf(TRON_USDT_MAINNET)!;
  await evm.rpc('hardhat_setCode', [usdtHex, await evm.rpc<Hex>('eth_getCode', [deployed, 'latest'])]);
  const fakeHex = (
    await evm.deployToken({ name: 'Tether USD', symbol: 'USDT', decimals: 6 })
  ).toLowerCase() as Address;
  if (opts.blockTimeMs) await evm.rpc('evm_setIntervalMining', [opts.blockTimeMs]);
  const tronWeb = new TronWeb({ fullHost: url });

  async function api<T>(path: string, body: unknown = {}): Promise<T> {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HELPER_HEADER]: '1' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as T;
  }
  const hexOf = (address: string): Address => {
    const hex = evmAddressOf(address);
    if (!hex) throw new Error(`not a TRON address: ${address}`);
    return hex;
  };
  const tokenHex = (token?: string) => (token === undefined ? usdtHex : hexOf(token));

  /** An unsigned TriggerSmartContract built offline by tronweb on the gateway's latest block. */
  async function buildCall(o: {
    from: string;
    contract: string;
    selector: string;
    parameter: Hex;
    feeLimit?: number;
  }): Promise<TronTransaction> {
    const head = await api<{
      blockID: string;
      block_header: { raw_data: { number?: number; timestamp: number } };
    }>('/wallet/getblock', { detail: false });
    const { number = 0, timestamp } = head.block_header.raw_data;
    const blockHeader = {
      ...refBlockOf(BigInt(number), head.blockID),
      expiration: timestamp + 60_000,
      timestamp,
    };
    const built = await tronWeb.transactionBuilder.triggerSmartContract(
      base58Of(hexOf(o.contract)),
      o.selector,
      {
        feeLimit: o.feeLimit ?? DEFAULT_FEE_LIMIT,
        txLocal: true,
        blockHeader,
        rawParameter: o.parameter,
      } as never,
      [],
      base58Of(hexOf(o.from)),
    );
    return built.transaction as unknown as TronTransaction;
  }

  async function sign(tx: TronTransaction, wallet: TronWallet): Promise<TronTransaction> {
    return (await tronWeb.trx.sign(tx as never, wallet.privateKey)) as unknown as TronTransaction;
  }

  const broadcast = (tx: TronTransaction) => api<BroadcastAnswer>('/wallet/broadcasttransaction', tx);

  /** Build, sign, broadcast; the txID, or an error when the gateway refuses it. */
  async function send(
    wallet: TronWallet,
    call: Omit<Parameters<typeof buildCall>[0], 'from'>,
  ): Promise<string> {
    const answer = await broadcast(await sign(await buildCall({ ...call, from: wallet.address }), wallet));
    if (answer.result !== true)
      throw new Error(
        `broadcast refused: ${answer.code} ${Buffer.from(answer.message ?? '', 'hex').toString()}`,
      );
    return answer.txid!;
  }

  async function mintTo(address: string, units: bigint, token?: string): Promise<void> {
    await evm.mint(tokenHex(token), hexOf(address), units);
  }

  return {
    /** The gateway's base URL: TRON's HTTP API (`/wallet/*`, `/walletsolidity/*`): TRON_API_URL. */
    url,
    /** TRON's JSON-RPC on the gateway: TRON_RPC_URL. */
    jsonRpcUrl: `${url}/jsonrpc`,
    chainId: TRON_CHAIN_ID,
    /** The USDT (T…) and its 20 bytes; the same-symbol fake token ("USDT", 6 decimals, elsewhere). */
    usdt: TRON_USDT_MAINNET,
    usdtHex,
    fakeUsdt: base58Of(fakeHex),
    fakeUsdtHex: fakeHex,
    /** The network's settings, changeable while running (solidifyLag, maxBlockRange, maxLogResults, fees). */
    params,
    /** The Hardhat chain underneath (its node URL, snapshots, raw rpc): not TRON, not counted. */
    evm,
    /** Calls per JSON-RPC method / HTTP path that reached the gateway (helpers' own excluded). */
    get calls() {
      return gateway.calls;
    },
    resetCalls: () => gateway.resetCalls(),
    /** TRON-PRO-API-KEY values the gateway received. */
    apiKeys: gateway.apiKeys,
    injectFault: (fault: TronFault) => gateway.injectFault(fault),
    clearFault: () => gateway.clearFault(),

    /** A fresh (or given) key with `trx` sun (default 100 TRX) and `usdt` units (6 decimals). */
    async newWallet(o: { trx?: bigint; usdt?: bigint; privateKey?: string } = {}): Promise<TronWallet> {
      const privateKey = (o.privateKey ?? generatePrivateKey()).replace(/^0x/, '');
      const hex = privateKeyToAccount(`0x${privateKey}`).address.toLowerCase() as Address;
      const wallet = { privateKey, address: base58Of(hex), hex };
      state.credit(hex, o.trx ?? 100n * SUN_PER_TRX, Date.now());
      if (o.usdt) await mintTo(wallet.address, o.usdt);
      return wallet;
    },
    /** Adds TRX (in sun) to an address: a faucet. */
    fundTrx: (address: string, sun: bigint) => state.credit(hexOf(address), sun, Date.now()),
    /** Mints USDT (or `token`) units to an address (a transaction of the chain's own helper). */
    mint: mintTo,
    trxBalance: (address: string) => state.balance(hexOf(address)),
    tokenBalance: (address: string, token?: string) =>
      evm.publicClient.readContract({
        address: tokenHex(token),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [hexOf(address)],
      }),

    buildCall,
    sign,
    /** POST /wallet/broadcasttransaction with a signed transaction; the gateway's answer as is. */
    broadcast,
    /** A TRC-20 transfer as a real TRON transaction (built, signed, broadcast); its txID. */
    transfer: (o: TransferOptions) =>
      send(o.from, {
        contract: o.token ?? TRON_USDT_MAINNET,
        selector: 'transfer(address,uint256)',
        parameter: `${encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [hexOf(o.to), o.units])}${(o.tag ?? '0x').slice(2)}`,
        feeLimit: o.feeLimit,
      }),
    /** transferFrom(owner, to, units) called by `from` (0 units: address poisoning, allowed to anyone). */
    transferFrom: (o: TransferOptions & { owner: string }) =>
      send(o.from, {
        contract: o.token ?? TRON_USDT_MAINNET,
        selector: 'transferFrom(address,address,uint256)',
        parameter: encodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }],
          [hexOf(o.owner), hexOf(o.to), o.units],
        ),
        feeLimit: o.feeLimit,
      }),
    /** gettransactioninfobyid through /wallet or /walletsolidity (not counted). */
    txInfo: (txId: string, solidity = false) =>
      api<Record<string, unknown>>(`/${solidity ? 'walletsolidity' : 'wallet'}/gettransactioninfobyid`, {
        value: txId,
      }),

    mine: (blocks = 1) => evm.mine(blocks),
    /** Mines solidifyLag blocks: everything mined so far is solidified. */
    solidify: () => evm.mine(params.solidifyLag),
    blockNumber: () => evm.blockNumber(),
    setAutomine: (on: boolean) => evm.setAutomine(on),
    async stop() {
      await gateway.close();
      await evm.stop();
    },
  };
}
export type LocalTron = Awaited<ReturnType<typeof startLocalTron>>;
