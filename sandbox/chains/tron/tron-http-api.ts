import { TronWeb } from 'tronweb';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { broadcast } from './tron-broadcast';
import {
  intrinsicGas,
  type NodeBlock,
  type NodeReceipt,
  type NodeTx,
  type TronContext,
} from './tron-context';
import { base58Of, evmAddressOf, hex41Of, refBlockOf } from './tron-ids';
import { blockShape, transactionInfoShape, transactionShape, withoutDefaults } from './tron-shapes';

/**
 * TRON's HTTP API (`/wallet/*`, `/walletsolidity/*`) over the Hardhat node: the endpoints the service
 * and tronweb use, with java-tron's shapes (each cites its developers.tron.network/reference page).
 * Errors are HTTP 200 with {"Error": "…"}; "not found" is {}; default-valued fields are left out.
 * The solidity variants answer only for solidified blocks (head − solidifyLag).
 */

type Body = Record<string, unknown>;
type Handler = (ctx: TronContext, body: Body, solidity: boolean) => Promise<unknown>;

class ApiError extends Error {}

/** The 20-byte address a request names: base58 with visible=true, else 41-hex (java-tron also takes either). */
function addressParam(body: Body, field: string): Address {
  const value = body[field];
  const address = typeof value === 'string' ? evmAddressOf(value) : null;
  if (!address) throw new ApiError(`class java.lang.IllegalArgumentException : Invalid ${field}`);
  return address;
}

const txIdParam = (body: Body) => {
  const value = typeof body.value === 'string' ? body.value.replace(/^0x/, '').toLowerCase() : '';
  if (!/^[0-9a-f]{64}$/.test(value))
    throw new ApiError('class java.lang.IllegalArgumentException : Invalid transaction id');
  return value;
};

async function limitFor(ctx: TronContext, solidity: boolean): Promise<bigint> {
  return solidity ? ctx.solidifiedNumber() : ctx.headNumber();
}

/** developers.tron.network/reference/getnowblock (and walletsolidity-getnowblock: the solidified block). */
const getnowblock: Handler = async (ctx, _body, solidity) =>
  blockShape(ctx, (await ctx.block(await limitFor(ctx, solidity), true))!, true);

/** developers.tron.network/reference/getblockbynum: {} beyond the head (beyond solidified for walletsolidity). */
const getblockbynum: Handler = async (ctx, body, solidity) => {
  const num = Number(body.num ?? 0);
  if (!Number.isSafeInteger(num) || num < 0)
    throw new ApiError('class java.lang.NumberFormatException : num');
  if (BigInt(num) > (await limitFor(ctx, solidity))) return {};
  const block = await ctx.block(BigInt(num), true);
  return block ? blockShape(ctx, block, true) : {};
};

/** developers.tron.network/reference/getblockbyid: `value` a block id. */
const getblockbyid: Handler = async (ctx, body, solidity) => {
  const hash = typeof body.value === 'string' ? await ctx.hashOfBlockId(body.value) : null;
  if (!hash) return {};
  const block = (await ctx.rpc<NodeBlock | null>('eth_getBlockByHash', [hash, true]))!;
  if (BigInt(block.number) > (await limitFor(ctx, solidity))) return {};
  return blockShape(ctx, block, true);
};

/**
 * developers.tron.network/reference/getblock: `id_or_num` a number or an id (absent: the latest),
 * `detail` whether transactions are included (tronweb's getCurrentRefBlockParams asks detail false).
 */
const getblock: Handler = async (ctx, body, solidity) => {
  const detail = body.detail === true || body.detail === 'true';
  const limit = await limitFor(ctx, solidity);
  const idOrNum = body.id_or_num === undefined ? undefined : String(body.id_or_num);
  let block: NodeBlock | null;
  if (idOrNum === undefined) block = await ctx.block(limit, detail);
  else if (/^\d+$/.test(idOrNum))
    block = BigInt(idOrNum) > limit ? null : await ctx.block(BigInt(idOrNum), detail);
  else {
    const hash = await ctx.hashOfBlockId(idOrNum);
    block = hash ? await ctx.rpc<NodeBlock | null>('eth_getBlockByHash', [hash, detail]) : null;
    if (block && BigInt(block.number) > limit) block = null;
  }
  return block ? blockShape(ctx, block, detail) : {};
};

/** A known transaction, its node view and receipt, if solidified when asked through walletsolidity. */
async function lookUp(ctx: TronContext, body: Body, solidity: boolean) {
  const known = ctx.state.byId(txIdParam(body));
  if (!known) return null;
  const nodeTx = await ctx.rpc<NodeTx | null>('eth_getTransactionByHash', [known.hash]);
  if (!nodeTx) return null;
  const receipt = await ctx.rpc<NodeReceipt | null>('eth_getTransactionReceipt', [known.hash]);
  if (solidity && (!receipt || BigInt(receipt.blockNumber) > (await ctx.solidifiedNumber()))) return null;
  return { known, nodeTx, receipt };
}

/** developers.tron.network/reference/gettransactionbyid: a pending transaction has no `ret` yet. */
const gettransactionbyid: Handler = async (ctx, body, solidity) => {
  const found = await lookUp(ctx, body, solidity);
  return found ? transactionShape(found.known, found.nodeTx, found.receipt) : {};
};

/** developers.tron.network/reference/gettransactioninfobyid: {} until the transaction is in a block. */
const gettransactioninfobyid: Handler = async (ctx, body, solidity) => {
  const found = await lookUp(ctx, body, solidity);
  if (!found?.receipt) return {};
  const { known, nodeTx, receipt } = found;
  const block = (await ctx.block(BigInt(receipt.blockNumber)))!;
  return transactionInfoShape({
    known,
    nodeTx,
    receipt,
    block,
    contractResult: await contractResult(ctx, nodeTx, receipt),
  });
};

/**
 * What the call returned: replayed with eth_call on the state before its block (exact when it is the
 * only transaction of its block, as with automine). A revert's data as the node gives it.
 */
async function contractResult(ctx: TronContext, nodeTx: NodeTx, receipt: NodeReceipt): Promise<string> {
  if (!nodeTx.to) return '';
  const before = `0x${(BigInt(receipt.blockNumber) - 1n).toString(16)}`;
  const answer = await ctx.call('eth_call', [
    { from: nodeTx.from, to: nodeTx.to, data: nodeTx.input },
    before,
  ]);
  return (answer.error ? revertData(answer.error.data) : String(answer.result)).replace(/^0x/, '');
}

/** The revert data in a Hardhat eth_call error (a string, or {data} in some versions). */
function revertData(data: unknown): string {
  if (typeof data === 'string') return data;
  const inner = (data as { data?: unknown } | undefined)?.data;
  return typeof inner === 'string' ? inner : '0x';
}

/** The calldata of a triggerconstantcontract/estimateenergy request: `data`, or selector + parameter. */
function callData(body: Body): Hex {
  if (typeof body.data === 'string' && body.data) return `0x${body.data.replace(/^0x/, '')}`;
  if (typeof body.function_selector !== 'string' || !body.function_selector)
    throw new ApiError('class java.lang.IllegalArgumentException : function_selector is empty');
  const selector = keccak256(toHex(body.function_selector.replace(/\s/g, ''))).slice(2, 10);
  return `0x${selector}${String(body.parameter ?? '').replace(/^0x/, '')}`;
}

/** Energy a call would use: Hardhat's gas estimate less Ethereum's intrinsic gas. */
async function simulate(ctx: TronContext, body: Body) {
  const contract = addressParam(body, 'contract_address');
  const from = body.owner_address === undefined ? `0x${'0'.repeat(40)}` : addressParam(body, 'owner_address');
  const data = callData(body);
  const call = { from, to: contract, data };
  const answer = await ctx.call('eth_call', [call, 'latest']);
  if (answer.error) {
    return { ok: false as const, energy: 0n, result: revertData(answer.error.data).replace(/^0x/, '') };
  }
  const gas = BigInt(await ctx.rpc<Hex>('eth_estimateGas', [call]));
  const energy = gas - intrinsicGas(data.slice(2));
  return {
    ok: true as const,
    energy: energy > 0n ? energy : 0n,
    result: String(answer.result).replace(/^0x/, ''),
  };
}

/**
 * developers.tron.network/reference/triggerconstantcontract: result, energy_used, constant_result.
 * A reverting call: java-tron still answers result.result true and marks the transaction's ret
 * FAILED, with the revert data in constant_result.
 */
const triggerconstantcontract: Handler = async (ctx, body) => {
  const sim = await simulate(ctx, body);
  return withoutDefaults({
    result: {
      result: true,
      ...(sim.ok ? {} : { message: Buffer.from('REVERT opcode executed').toString('hex') }),
    },
    energy_used: Number(sim.energy),
    constant_result: [sim.result],
    transaction: { ret: [sim.ok ? {} : { ret: 'FAILED' }] },
  });
};

/** developers.tron.network/reference/estimateenergy: {result: {result: true}, energy_required}. */
const estimateenergy: Handler = async (ctx, body) => {
  const sim = await simulate(ctx, body);
  if (!sim.ok)
    return {
      result: { code: 'CONTRACT_EXE_ERROR', message: Buffer.from('REVERT opcode executed').toString('hex') },
    };
  return { result: { result: true }, energy_required: Number(sim.energy) };
};

/** Builds transactions offline only: it never reaches this URL. */
const builder = new TronWeb({ fullHost: 'http://127.0.0.1:9' }).transactionBuilder;

/**
 * developers.tron.network/reference/triggersmartcontract: the unsigned transaction
 * {result: {result: true}, transaction: {visible, txID, raw_data, raw_data_hex}}, referencing the
 * latest block and expiring 60 s after it (what tronweb does when it asks a node to build one).
 */
const triggersmartcontract: Handler = async (ctx, body) => {
  const contract = addressParam(body, 'contract_address');
  const owner = addressParam(body, 'owner_address');
  const head = (await ctx.block(await ctx.headNumber()))!;
  const timestamp = Number(BigInt(head.timestamp)) * 1000;
  const blockHeader = {
    ...refBlockOf(BigInt(head.number), ctx.blockId(head)),
    expiration: timestamp + 60_000,
    timestamp,
  };
  const selector = typeof body.function_selector === 'string' ? body.function_selector : '';
  const options = {
    feeLimit: Number(body.fee_limit ?? 0) || undefined,
    callValue: Number(body.call_value ?? 0),
    txLocal: true,
    blockHeader,
    ...(selector ? { rawParameter: String(body.parameter ?? '') } : { input: callData(body).slice(2) }),
  };
  const built = await builder.triggerSmartContract(
    base58Of(contract),
    selector,
    options as never,
    [],
    base58Of(owner),
  );
  return { result: { result: true }, transaction: built.transaction };
};

/** developers.tron.network/reference/account-getaccount: {} for an account that does not exist. */
const getaccount: Handler = async (ctx, body) => {
  const address = addressParam(body, 'address');
  if (!ctx.state.exists(address)) return {};
  const visible = body.visible === true || body.visible === 'true';
  return withoutDefaults({
    address: visible ? base58Of(address) : hex41Of(address),
    balance: Number(ctx.state.balance(address)),
    create_time: ctx.state.createdAt(address),
  });
};

/** developers.tron.network/reference/getaccountresource: no staking here, so no EnergyLimit/NetLimit. */
const getaccountresource: Handler = async (ctx, body) => {
  const address = addressParam(body, 'address');
  if (!ctx.state.exists(address)) return {};
  return withoutDefaults({
    freeNetUsed: Number(ctx.state.freeNet(address)),
    freeNetLimit: ctx.params.freeNetLimit,
    TotalNetLimit: 43_200_000_000,
    TotalNetWeight: 26_000_000_000,
    TotalEnergyLimit: 180_000_000_000,
    TotalEnergyWeight: 19_000_000_000,
  });
};

/** developers.tron.network/reference/wallet-getchainparameters: {chainParameter: [{key, value}]}. */
const getchainparameters: Handler = async (ctx) => ({
  chainParameter: withoutDefaults([
    { key: 'getMaintenanceTimeInterval', value: 21_600_000 },
    { key: 'getCreateAccountFee', value: 100_000 },
    { key: 'getTransactionFee', value: ctx.params.transactionFee },
    { key: 'getFreeNetLimit', value: ctx.params.freeNetLimit },
    { key: 'getEnergyFee', value: ctx.params.energyFee },
    { key: 'getMemoFee', value: 1_000_000 },
    { key: 'getAllowTvmTransferTrc10', value: 1 },
    { key: 'getAllowMultiSign', value: 1 },
    { key: 'getMaxFeeLimit', value: 15_000_000_000 },
  ]),
});

const BOTH: Record<string, Handler> = {
  getnowblock,
  getblockbynum,
  getblockbyid,
  getblock,
  gettransactionbyid,
  gettransactioninfobyid,
  getaccount,
  triggerconstantcontract,
  estimateenergy,
};
const FULL_ONLY: Record<string, Handler> = {
  ...BOTH,
  getaccountresource,
  getchainparameters,
  triggersmartcontract,
  broadcasttransaction: (ctx, body) => broadcast(ctx, body),
};

/** The answer to `/wallet/<name>` or `/walletsolidity/<name>`; null: no such endpoint (404). */
export async function answerHttpApi(ctx: TronContext, path: string, body: Body): Promise<unknown> {
  const match = /^\/(wallet|walletsolidity)\/([a-z0-9]+)$/.exec(path);
  if (!match) return null;
  const solidity = match[1] === 'walletsolidity';
  const handler = (solidity ? BOTH : FULL_ONLY)[match[2]!];
  if (!handler) return null;
  try {
    await ctx.settle();
    return await handler(ctx, body, solidity);
  } catch (error) {
    if (error instanceof ApiError) return { Error: error.message };
    return { Error: `class java.lang.Exception : ${(error as Error).message}` };
  }
}
