import type { Hex } from 'viem';
import type { NodeBlock, NodeLog, NodeReceipt, NodeTx, TronContext } from './tron-context';
import { blockIdOf, hex41Of } from './tron-ids';
import type { KnownTx } from './tron-state';

/**
 * The HTTP API's shapes of blocks, transactions and transaction infos, built from Hardhat's answers.
 * Like java-tron's JSON (protobuf printed with defaults left out), fields at their default value
 * (0, "", false, empty lists) are not written.
 */

/** A protobuf-JSON-like copy of `value` without its default-valued fields. */
export function withoutDefaults<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutDefaults) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || v === null || v === 0 || v === '' || v === false) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = withoutDefaults(v);
  }
  return out as T;
}

const ms = (timestamp: Hex) => Number(BigInt(timestamp)) * 1000;
const bare = (hex: string) => hex.replace(/^0x/, '').toLowerCase();

/** The contract result a transaction's receipt maps to (developers.tron.network/docs/resource-model). */
export function contractRet(known: KnownTx, receipt: NodeReceipt): string {
  if (receipt.status === '0x1') return 'SUCCESS';
  return known.gasLimit !== null && BigInt(receipt.gasUsed) >= known.gasLimit ? 'OUT_OF_ENERGY' : 'REVERT';
}

/**
 * A transaction as /wallet/gettransactionbyid writes it
 * (developers.tron.network/reference/gettransactionbyid): ret (once executed), signature, txID,
 * raw_data, raw_data_hex. One the gateway did not see broadcast gets a raw_data made from the node's
 * view of it and no signature or raw_data_hex.
 */
export function transactionShape(known: KnownTx, nodeTx: NodeTx, receipt: NodeReceipt | null) {
  const ret = receipt ? [{ contractRet: contractRet(known, receipt) }] : [];
  if (known.tx) return withoutDefaults({ ret, ...known.tx, visible: undefined });
  const raw_data = {
    contract: [
      {
        parameter: {
          value: {
            owner_address: hex41Of(nodeTx.from),
            contract_address: nodeTx.to ? hex41Of(nodeTx.to) : undefined,
            data: bare(nodeTx.input),
          },
          type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
        },
        type: 'TriggerSmartContract',
      },
    ],
  };
  return withoutDefaults({ ret, txID: known.txId, raw_data });
}

/** A log in gettransactioninfobyid: address 20 bytes without 41, topics and data bare hex. */
const logShape = (log: NodeLog) => ({
  address: bare(log.address),
  topics: log.topics.map(bare),
  data: bare(log.data),
});

/**
 * /wallet/gettransactioninfobyid (developers.tron.network/reference/gettransactioninfobyid): id,
 * fee, blockNumber, blockTimeStamp, contractResult, contract_address, receipt{energy_fee,
 * energy_usage_total, net_usage, net_fee, result}, log; `result: "FAILED"` and resMessage only on
 * failure, and no logs then.
 */
export function transactionInfoShape(o: {
  known: KnownTx;
  nodeTx: NodeTx;
  receipt: NodeReceipt;
  block: NodeBlock;
  contractResult: string;
}) {
  const { known, receipt, block } = o;
  const result = contractRet(known, receipt);
  const cost = known.cost;
  const energy = cost ? cost.energy : BigInt(receipt.gasUsed);
  const fee = cost ? cost.energyFee + cost.netFee : 0n;
  return withoutDefaults({
    id: known.txId,
    fee: Number(fee),
    blockNumber: Number(BigInt(receipt.blockNumber)),
    blockTimeStamp: ms(block.timestamp),
    contractResult: [o.contractResult],
    contract_address: o.nodeTx.to
      ? hex41Of(o.nodeTx.to)
      : receipt.contractAddress
        ? hex41Of(receipt.contractAddress)
        : '',
    receipt: {
      energy_fee: Number(cost?.energyFee ?? 0n),
      energy_usage_total: Number(energy),
      net_usage: cost && cost.netFee === 0n ? Number(cost.netUsage) : 0,
      net_fee: Number(cost?.netFee ?? 0n),
      result,
    },
    log: result === 'SUCCESS' ? receipt.logs.map(logShape) : [],
    result: result === 'SUCCESS' ? '' : 'FAILED',
    resMessage:
      result === 'SUCCESS'
        ? ''
        : Buffer.from(result === 'REVERT' ? 'REVERT opcode executed' : 'Not enough energy').toString('hex'),
  });
}

/**
 * A block as /wallet/getnowblock, getblockbynum and getblock write it
 * (developers.tron.network/reference/getnowblock): blockID, block_header{raw_data{number,
 * txTrieRoot, witness_address, parentHash, version, timestamp}, witness_signature}, transactions.
 */
export async function blockShape(ctx: TronContext, block: NodeBlock, detail: boolean) {
  const number = BigInt(block.number);
  const transactions = [];
  if (detail)
    for (const t of block.transactions as NodeTx[]) {
      const known = ctx.state.ofHash(t.hash);
      const receipt = await ctx.rpc<NodeReceipt>('eth_getTransactionReceipt', [t.hash]);
      transactions.push(transactionShape(known, t, receipt));
    }
  return withoutDefaults({
    blockID: blockIdOf(number, block.hash),
    block_header: {
      raw_data: {
        number: Number(number),
        txTrieRoot: bare(block.transactionsRoot),
        witness_address: hex41Of(block.miner),
        parentHash: number > 0n ? blockIdOf(number - 1n, block.parentHash) : bare(block.parentHash),
        version: 32,
        timestamp: ms(block.timestamp),
      },
      // No super representative signs local blocks.
      witness_signature: '',
    },
    transactions,
  });
}
