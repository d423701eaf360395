import type { Address, Hex } from 'viem';
import { blockIdOf } from './tron-ids';
import type { KnownTx, TronCost, TronState } from './tron-state';

/**
 * What the gateway's JSON-RPC, HTTP API and broadcast share: the Hardhat node, the TRON-side state,
 * the network's parameters, and the rules derived from them (the solidified block, fees).
 */

export type RpcAnswer = { result?: unknown; error?: { code: number; message: string; data?: unknown } };

/** Hardhat's JSON-RPC block (hex quantities), as much of it as the gateway reads. */
export type NodeBlock = {
  number: Hex;
  hash: Hex;
  parentHash: Hex;
  timestamp: Hex;
  miner: Address;
  transactionsRoot: Hex;
  transactions: (Hex | NodeTx)[];
  [key: string]: unknown;
};
export type NodeTx = {
  hash: Hex;
  from: Address;
  to: Address | null;
  input: Hex;
  blockHash: Hex | null;
  blockNumber: Hex | null;
  transactionIndex: Hex | null;
  [key: string]: unknown;
};
/** Where a mined transaction's log or receipt stands: its transaction and block. */
type InBlock = { transactionHash: Hex; blockHash: Hex; blockNumber: Hex; [key: string]: unknown };
export type NodeLog = InBlock & {
  address: Address;
  topics: Hex[];
  data: Hex;
};
export type NodeReceipt = InBlock & {
  gasUsed: Hex;
  status: Hex;
  contractAddress: Address | null;
  logs: NodeLog[];
};

/** The network's settings; changeable while running (gateway.configure). */
export type TronParams = {
  /** Blocks between the head and the latest solidified block (TRON: 19 of 27 SRs, about 19 blocks). */
  solidifyLag: number;
  /** eth_getLogs: most blocks between fromBlock and toBlock (java-tron's maxBlockRange). */
  maxBlockRange: number;
  /** eth_getLogs: most logs in one answer (java-tron's LogBlockQuery.MAX_RESULT). */
  maxLogResults: number;
  /** Sun per unit of energy burnt (chain parameter getEnergyFee; 100 since August 2025). */
  energyFee: number;
  /** Sun per byte of bandwidth burnt (chain parameter getTransactionFee). */
  transactionFee: number;
  /** Free bandwidth of every account (chain parameter getFreeNetLimit). */
  freeNetLimit: number;
};

export const DEFAULT_TRON_PARAMS: TronParams = {
  solidifyLag: 19,
  maxBlockRange: 5000,
  maxLogResults: 10_000,
  energyFee: 100,
  transactionFee: 1000,
  freeNetLimit: 600,
};

export class TronContext {
  constructor(
    readonly nodeUrl: string,
    readonly state: TronState,
    readonly params: TronParams,
  ) {}

  private nextId = 1;

  /** The node's answer as it came (result or error). */
  async call(method: string, params: unknown[] = []): Promise<RpcAnswer> {
    const res = await fetch(this.nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(30_000),
    });
    return (await res.json()) as RpcAnswer;
  }

  async rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const answer = await this.call(method, params);
    if (answer.error) throw new Error(`${method}: ${answer.error.message} (${answer.error.code})`);
    return answer.result as T;
  }

  async headNumber(): Promise<bigint> {
    return BigInt(await this.rpc<Hex>('eth_blockNumber'));
  }

  /** The latest solidified block: the head less the lag (TRON's `finalized`). */
  async solidifiedNumber(): Promise<bigint> {
    const head = await this.headNumber();
    const lag = BigInt(this.params.solidifyLag);
    return head > lag ? head - lag : 0n;
  }

  async block(number: bigint, full = false): Promise<NodeBlock | null> {
    return this.rpc<NodeBlock | null>('eth_getBlockByNumber', [`0x${number.toString(16)}`, full]);
  }

  blockId(block: NodeBlock): string {
    return blockIdOf(BigInt(block.number), block.hash);
  }

  /** The node's hash of the block a TRON block id names (its number checked against its hash). */
  async hashOfBlockId(blockId: string): Promise<Hex | null> {
    const id = blockId.replace(/^0x/, '').toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(id)) return null;
    const block = await this.block(BigInt(`0x${id.slice(0, 16)}`));
    return block && this.blockId(block) === id ? block.hash : null;
  }

  /**
   * Charges the TRX fee of every broadcast transaction mined since the last call (with automine off
   * they are mined later than broadcast): energy and bandwidth burnt as TRON does.
   */
  async settle(): Promise<void> {
    for (const known of this.state.unsettled()) {
      const receipt = await this.rpc<NodeReceipt | null>('eth_getTransactionReceipt', [known.hash]);
      if (!receipt) continue;
      known.cost = this.costOf(known, BigInt(receipt.gasUsed));
      if (known.owner) this.state.burn(known.owner, known.cost.energyFee + known.cost.netFee);
    }
  }

  /** Bandwidth a transaction takes: its raw bytes, its signatures and TRON's fixed allowance for the result. */
  netUsageOf(rawDataHex: string, signatures: number): bigint {
    return BigInt(rawDataHex.length / 2 + 65 * signatures + 64 + 5);
  }

  private costOf(known: KnownTx, gasUsed: bigint): TronCost {
    const tx = known.tx!;
    const data = String(
      (tx.raw_data.contract as { parameter: { value: { data?: string } } }[])[0]?.parameter.value.data ?? '',
    );
    const energy = gasUsed > intrinsicGas(data) ? gasUsed - intrinsicGas(data) : 0n;
    const netUsage = this.netUsageOf(tx.raw_data_hex, tx.signature.length);
    const owner = known.owner!;
    let netFee = 0n;
    if (BigInt(this.params.freeNetLimit) - this.state.freeNet(owner) >= netUsage)
      this.state.useFreeNet(owner, netUsage);
    else netFee = netUsage * BigInt(this.params.transactionFee);
    return { energy, energyFee: energy * BigInt(this.params.energyFee), netUsage, netFee };
  }
}

/** Ethereum's intrinsic gas of a call with `dataHex` (no 0x): what TRON does not count as energy. */
export function intrinsicGas(dataHex: string): bigint {
  let gas = 21_000n;
  for (let i = 0; i < dataHex.length; i += 2) gas += dataHex.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
}

/** The least gas Hardhat (Prague, EIP-7623) accepts for such a call: 21,000 + 10 per calldata token. */
export function gasFloor(dataHex: string): bigint {
  let tokens = 0n;
  for (let i = 0; i < dataHex.length; i += 2) tokens += dataHex.slice(i, i + 2) === '00' ? 1n : 4n;
  return 21_000n + 10n * tokens;
}
