import { utils } from 'tronweb';
import { numberToHex, recoverAddress, type Address, type Hex } from 'viem';
import { gasFloor, intrinsicGas, type NodeBlock, type TronContext } from './tron-context';
import { evmAddressOf, refBlockOf, txIdOf } from './tron-ids';
import type { TronTransaction } from './tron-state';

/**
 * /wallet/broadcasttransaction (developers.tron.network/reference/broadcasttransaction): a real
 * signed TRON transaction is decoded (tronweb's protobuf), checked as java-tron checks it (txID,
 * signature against owner_address, expiration, TaPoS reference block, the owner's TRX for
 * bandwidth) and run on Hardhat as a call from the owner's 20 bytes (impersonated, its gas ETH
 * topped up silently). Answers {result: true, txid} or {code, txid, message (hex)} with java-tron's
 * codes (SIGERROR, TAPOS_ERROR, TRANSACTION_EXPIRATION_ERROR, DUP_TRANSACTION_ERROR,
 * BANDWITH_ERROR, CONTRACT_VALIDATE_ERROR). Only TriggerSmartContract without TRX value is run.
 */

type Refusal = { code: string; txid?: string; message: string };
const refuse = (code: string, message: string, txid?: string) =>
  ({ code, ...(txid ? { txid } : {}), message: Buffer.from(message).toString('hex') }) as Refusal;

/** Longest a transaction may be valid for after its reference (java-tron: 24 hours). */
const MAX_EXPIRATION_MS = 24 * 3600 * 1000;
const GAS_ETH = numberToHex(10n ** 24n);
/** The most gas one call gets on Hardhat (its block gas limit is 30M). */
const MAX_GAS = 20_000_000n;

type Decoded = {
  owner_address: string;
  contract_address: string;
  call_value: number;
  data: string;
  expiration: number;
  ref_block_bytes: string;
  ref_block_hash: string;
  fee_limit: number;
};

export async function broadcast(
  ctx: TronContext,
  body: unknown,
): Promise<Refusal | { result: true; txid: string }> {
  const tx = body as Partial<TronTransaction> | null;
  if (!tx || typeof tx.raw_data_hex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(tx.raw_data_hex))
    return refuse('OTHER_ERROR', 'raw_data_hex missing or not hex');
  const rawHex = tx.raw_data_hex.toLowerCase();
  const txid = txIdOf(rawHex);
  if (tx.txID !== undefined && String(tx.txID).toLowerCase() !== txid)
    return refuse('SIGERROR', 'txID is not sha256(raw_data)', txid);
  let d: Decoded;
  try {
    const decoded = utils.deserializeTx.deserializeTransaction('TriggerSmartContract', rawHex) as {
      contract: {
        parameter: {
          value: Omit<Decoded, 'expiration' | 'ref_block_bytes' | 'ref_block_hash' | 'fee_limit'>;
        };
      }[];
    } & Decoded;
    d = { ...decoded, ...decoded.contract[0]!.parameter.value };
  } catch (error) {
    return refuse(
      'CONTRACT_VALIDATE_ERROR',
      `only TriggerSmartContract runs here: ${(error as Error).message}`,
      txid,
    );
  }
  if (ctx.state.hasTxId(txid)) return refuse('DUP_TRANSACTION_ERROR', 'dup transaction', txid);
  const owner = evmAddressOf(d.owner_address.toLowerCase());
  const contract = evmAddressOf(d.contract_address.toLowerCase());
  if (!owner || !contract) return refuse('CONTRACT_VALIDATE_ERROR', 'Invalid address', txid);

  // Signature: one 65-byte r‖s‖v over the txID, recovering owner_address (java-tron validateSignature).
  const signatures = Array.isArray(tx.signature) ? tx.signature : [];
  if (signatures.length !== 1 || !/^(0x)?[0-9a-fA-F]{130}$/.test(String(signatures[0])))
    return refuse('SIGERROR', 'Validate signature error: one 65-byte signature expected', txid);
  let signer: Address;
  try {
    signer = await recoverAddress({
      hash: `0x${txid}`,
      signature: `0x${String(signatures[0]).replace(/^0x/, '')}`,
    });
  } catch (error) {
    return refuse('SIGERROR', `Validate signature error: ${(error as Error).message}`, txid);
  }
  if (signer.toLowerCase() !== owner)
    return refuse(
      'SIGERROR',
      `Validate signature error: ${signer} is signed by another key than ${d.owner_address}`,
      txid,
    );

  const head = (await ctx.rpc<NodeBlock>('eth_getBlockByNumber', ['latest', false]))!;
  const headMs = Number(BigInt(head.timestamp)) * 1000;
  if (d.expiration <= headMs)
    return refuse('TRANSACTION_EXPIRATION_ERROR', `Transaction expired: ${d.expiration} <= ${headMs}`, txid);
  if (d.expiration > headMs + MAX_EXPIRATION_MS)
    return refuse(
      'TRANSACTION_EXPIRATION_ERROR',
      'expiration is more than 24 hours after the head block',
      txid,
    );
  if (!(await tapos(ctx, BigInt(head.number), d)))
    return refuse(
      'TAPOS_ERROR',
      `Tapos check error: no recent block ${d.ref_block_bytes}/${d.ref_block_hash}`,
      txid,
    );
  if (d.call_value)
    return refuse('CONTRACT_VALIDATE_ERROR', 'call_value is not supported by this local chain', txid);
  if ((await ctx.rpc<Hex>('eth_getCode', [contract, 'latest'])) === '0x')
    return refuse('CONTRACT_VALIDATE_ERROR', 'No contract or not a smart contract', txid);

  // Bandwidth: the free allowance, else burnt TRX; without either java-tron refuses the transaction.
  const balance = ctx.state.balance(owner);
  const net = ctx.netUsageOf(rawHex, 1);
  const freeLeft = BigInt(ctx.params.freeNetLimit) - ctx.state.freeNet(owner);
  const netFee = freeLeft >= net ? 0n : net * BigInt(ctx.params.transactionFee);
  if (netFee > balance) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.', txid);
  // Energy: what fee_limit and the TRX left after bandwidth can buy; out of it, OUT_OF_ENERGY.
  const affordable = d.fee_limit < balance - netFee ? BigInt(d.fee_limit) : balance - netFee;
  const energyLimit = affordable / BigInt(ctx.params.energyFee);
  const data = d.data.toLowerCase();
  const gasLimit = minBig(maxBig(intrinsicGas(data) + energyLimit, gasFloor(data)), MAX_GAS);

  await ctx.rpc('hardhat_impersonateAccount', [owner]);
  await ctx.rpc('hardhat_setBalance', [owner, GAS_ETH]);
  const transaction: TronTransaction = {
    txID: txid,
    raw_data: (tx.raw_data as Record<string, unknown> | undefined) ?? {},
    raw_data_hex: rawHex,
    signature: signatures.map((s) => String(s).replace(/^0x/, '')),
  };
  // The gateway answers one request at a time: nobody reads the chain before the hash is registered.
  const hash = await ctx.rpc<Hex>('eth_sendTransaction', [
    { from: owner, to: contract, data: `0x${data}`, gas: numberToHex(gasLimit) },
  ]);
  ctx.state.add({ txId: txid, hash, tx: transaction, gasLimit, owner });
  await ctx.settle();
  return { result: true, txid };
}

/** TaPoS: ref_block_bytes are the low 2 bytes of a recent block's number, ref_block_hash bytes 8-16 of its id. */
async function tapos(ctx: TronContext, head: bigint, d: Decoded): Promise<boolean> {
  const low = BigInt(`0x${d.ref_block_bytes}`);
  const number = head - ((head - low) & 0xffffn);
  if (number < 0n) return false;
  const block = await ctx.block(number);
  return (
    block !== null && refBlockOf(number, ctx.blockId(block)).ref_block_hash === d.ref_block_hash.toLowerCase()
  );
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);
