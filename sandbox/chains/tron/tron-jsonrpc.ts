import type { Hex } from 'viem';
import type { NodeBlock, NodeLog, NodeReceipt, NodeTx, RpcAnswer, TronContext } from './tron-context';
import { blockIdOf, evmAddressOf } from './tron-ids';

/**
 * TRON's Ethereum-style JSON-RPC (`POST /jsonrpc`) over the Hardhat node, with TRON's rules:
 * developers.tron.network/reference/json-rpc-api-overview (methods, tags, errors) and java-tron's
 * TronJsonRpcImpl / LogFilterWrapper (messages). Read-only: no eth_sendRawTransaction,
 * eth_sendTransaction, eth_getTransactionCount (-32601). Block tags latest/earliest/finalized
 * (= the latest solidified block); pending and safe are -32602. eth_getLogs takes 20-byte hex
 * addresses only (`41…` refused), spans at most maxBlockRange blocks, answers at most maxLogResults
 * logs (-32005). Answers name transactions by their TRON txID (`0x` + 64 hex) and blocks by their
 * TRON block id; receipts' and blocks' logsBloom are zeros; an unmined transaction has "0x" in
 * blockHash, blockNumber and transactionIndex.
 */

type Entry = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const ZERO_BLOOM = `0x${'00'.repeat(256)}`;
/** Methods java-tron's JSON-RPC serves (developers.tron.network/reference/json-rpc-api-overview). */
const SERVED = new Set([
  'web3_clientVersion',
  'web3_sha3',
  'net_version',
  'net_listening',
  'net_peerCount',
  'eth_chainId',
  'eth_protocolVersion',
  'eth_syncing',
  'eth_blockNumber',
  'eth_gasPrice',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByHash',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionReceipt',
  'eth_getBalance',
  'eth_getStorageAt',
  'eth_getCode',
  'eth_call',
  'eth_estimateGas',
  'eth_getLogs',
  'eth_accounts',
]);
/** Methods taking `latest` only: eth_getBalance, eth_getStorageAt, eth_getCode, eth_call (index of the tag). */
const LATEST_ONLY: Record<string, number> = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_call: 1,
  eth_getStorageAt: 2,
};
/** Methods whose first parameter is a block number or tag. */
const BY_NUMBER = new Set([
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByNumber',
  'eth_getTransactionByBlockNumberAndIndex',
]);
const BY_BLOCK_HASH = new Set([
  'eth_getBlockByHash',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByBlockHashAndIndex',
]);

export class TronJsonRpc {
  constructor(private readonly ctx: TronContext) {}

  /** One request entry's answer (a batch is answered entry by entry by the caller). */
  async answer(entry: Entry): Promise<Record<string, unknown>> {
    const reply = (body: RpcAnswer) => ({ jsonrpc: '2.0', id: entry.id ?? null, ...body });
    try {
      if (typeof entry !== 'object' || entry === null || typeof entry.method !== 'string')
        throw new RpcError(-32600, 'invalid json request');
      const params = Array.isArray(entry.params) ? [...(entry.params as unknown[])] : [];
      return reply({ result: await this.run(entry.method, params) });
    } catch (error) {
      if (error instanceof RpcError) return reply({ error: { code: error.code, message: error.message } });
      return reply({ error: { code: -32000, message: (error as Error).message } });
    }
  }

  private async run(method: string, params: unknown[]): Promise<unknown> {
    if (!SERVED.has(method))
      throw new RpcError(-32601, `the method ${method} does not exist/is not available`);
    const { ctx } = this;
    await ctx.settle();
    if (method in LATEST_ONLY) latestOnly(params[LATEST_ONLY[method]!]);
    if (BY_NUMBER.has(method)) params[0] = await this.blockNumberParam(params[0]);
    if (BY_BLOCK_HASH.has(method)) {
      const hash = typeof params[0] === 'string' ? await ctx.hashOfBlockId(params[0]) : null;
      if (!hash) return null;
      params[0] = hash;
    }
    switch (method) {
      case 'web3_clientVersion':
        return 'TRON/stablepay-local-hardhat';
      case 'eth_gasPrice':
        return `0x${ctx.params.energyFee.toString(16)}`;
      case 'eth_accounts':
        return [];
      case 'eth_getBalance': {
        const address = typeof params[0] === 'string' ? evmAddressOf(params[0].replace(/^0x/, '41')) : null;
        if (!address) throw new RpcError(-32602, `invalid address: ${String(params[0])}`);
        return `0x${ctx.state.balance(address).toString(16)}`;
      }
      case 'eth_getTransactionByHash':
      case 'eth_getTransactionReceipt': {
        const known = typeof params[0] === 'string' ? ctx.state.byId(params[0]) : undefined;
        if (!known) return null;
        return this.rewrite(method, await this.forward(method, [known.hash]));
      }
      case 'eth_getLogs':
        return this.getLogs(params[0]);
    }
    return this.rewrite(method, await this.forward(method, params));
  }

  private async forward(method: string, params: unknown[]): Promise<unknown> {
    const answer = await this.ctx.call(method, params);
    if (answer.error) throw new RpcError(answer.error.code, answer.error.message);
    return answer.result;
  }

  /** A block parameter: a hex number, or latest / earliest / finalized (TRON's solidified block). */
  private async blockNumberParam(tag: unknown): Promise<string> {
    if (tag === undefined || tag === 'latest') return 'latest';
    if (tag === 'earliest') return 'earliest';
    if (tag === 'finalized') return `0x${(await this.ctx.solidifiedNumber()).toString(16)}`;
    if (tag === 'pending') throw new RpcError(-32602, 'TAG pending not supported');
    if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) return tag;
    throw new RpcError(-32602, 'invalid block number');
  }

  private async getLogs(filter: unknown): Promise<unknown> {
    if (typeof filter !== 'object' || filter === null) throw new RpcError(-32602, 'invalid json request');
    const f = { ...(filter as Record<string, unknown>) };
    if (f.address !== undefined) {
      const list = Array.isArray(f.address) ? (f.address as unknown[]) : [f.address];
      // java-tron's addressToByteArray: exactly 20 bytes of hex ("0x" optional); a 41-prefixed
      // 21-byte address or a base58 one is "invalid address".
      f.address = list.map((a) => {
        if (typeof a !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(a))
          throw new RpcError(-32602, `invalid address: ${String(a)}`);
        return `0x${a.replace(/^0x/, '')}`.toLowerCase();
      });
    }
    if (typeof f.blockHash === 'string') {
      const hash = await this.ctx.hashOfBlockId(f.blockHash);
      if (!hash) throw new RpcError(-32000, 'header not found');
      f.blockHash = hash;
    } else {
      const head = await this.ctx.headNumber();
      const resolve = async (tag: unknown) => {
        const p = await this.blockNumberParam(tag);
        return p === 'latest' ? head : p === 'earliest' ? 0n : BigInt(p);
      };
      const from = await resolve(f.fromBlock);
      const to = await resolve(f.toBlock);
      if (from > to) throw new RpcError(-32602, 'please verify: fromBlock <= toBlock');
      const max = BigInt(this.ctx.params.maxBlockRange);
      // LogFilterWrapper: min(toBlock, head) - fromBlock > maxBlockRange is refused.
      if ((to < head ? to : head) - from > max) throw new RpcError(-32602, `exceed max block range: ${max}`);
      f.fromBlock = `0x${from.toString(16)}`;
      f.toBlock = `0x${to.toString(16)}`;
    }
    const logs = (await this.forward('eth_getLogs', [f])) as NodeLog[];
    if (logs.length > this.ctx.params.maxLogResults)
      throw new RpcError(-32005, `query returned more than ${this.ctx.params.maxLogResults} results`);
    return logs.map((l) => this.log(l));
  }

  private rewrite(method: string, result: unknown): unknown {
    if (result === null || typeof result !== 'object') return result;
    if (method.startsWith('eth_getBlockBy')) return this.block(result as NodeBlock);
    if (method === 'eth_getTransactionReceipt') return this.receipt(result as NodeReceipt);
    if (method.startsWith('eth_getTransactionBy')) return this.tx(result as NodeTx);
    return result;
  }

  private txHash = (hash: Hex): Hex => `0x${this.ctx.state.ofHash(hash).txId}`;
  private blockHash = (number: Hex, hash: Hex): Hex => `0x${blockIdOf(BigInt(number), hash)}`;

  private tx(tx: NodeTx): NodeTx {
    const mined = tx.blockHash !== null && tx.blockNumber !== null;
    return {
      ...tx,
      hash: this.txHash(tx.hash),
      // TRON leaves "0x" where Ethereum nodes put null: viem's BigInt("0x") throws on it.
      blockHash: mined ? this.blockHash(tx.blockNumber!, tx.blockHash!) : '0x',
      blockNumber: tx.blockNumber ?? '0x',
      transactionIndex: tx.transactionIndex ?? '0x',
    };
  }

  private log(log: NodeLog): NodeLog {
    return {
      ...log,
      transactionHash: this.txHash(log.transactionHash),
      blockHash: this.blockHash(log.blockNumber, log.blockHash),
    };
  }

  private receipt(r: NodeReceipt): NodeReceipt {
    return {
      ...r,
      transactionHash: this.txHash(r.transactionHash),
      blockHash: this.blockHash(r.blockNumber, r.blockHash),
      logsBloom: ZERO_BLOOM,
      logs: r.logs.map((l) => this.log(l)),
    };
  }

  private block(b: NodeBlock): NodeBlock {
    const number = BigInt(b.number);
    return {
      ...b,
      hash: this.blockHash(b.number, b.hash),
      parentHash: number > 0n ? `0x${blockIdOf(number - 1n, b.parentHash)}` : b.parentHash,
      logsBloom: ZERO_BLOOM,
      transactions: b.transactions.map((t) => (typeof t === 'string' ? this.txHash(t) : this.tx(t))),
    };
  }
}

/** eth_getBalance, eth_getCode, eth_getStorageAt, eth_call: TRON answers for the latest state only. */
function latestOnly(tag: unknown): void {
  if (tag === undefined || tag === 'latest') return;
  if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag))
    throw new RpcError(-32602, 'QUANTITY not supported, just support TAG as latest');
  throw new RpcError(-32602, 'TAG [earliest | pending | finalized] not supported');
}
