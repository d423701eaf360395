import { formatUnits } from '../../../contract/decimal';
import { taggedTransferData } from '../evm/order-tag';
import { tronToHex } from './address';
import {
  chainParameter,
  type TronApi,
  type TronAccount,
  type TronBlock,
  type TronChainParameters,
  type TronConstantCall,
} from './http-api';

/** A TRC-20 transfer to build: `tag` (an order reference or a refund tag) goes after the arguments. */
export type TronTransferSpec = { token: string; from: string; to: string; amountUnits: bigint; tag: string };

export type TronUnsignedTransaction = {
  visible: false;
  txID: string;
  raw_data_hex: string;
  raw_data: Record<string, unknown>;
};

/**
 * How long a built transaction may wait for its signature: a person reads and confirms it in the
 * wallet first (java-tron accepts up to 24 h; tronweb's own default of 60 s is too short for that).
 */
export const EXPIRATION_MS = 10 * 60_000;
/** Energy fee_limit allows: twice a USDT transfer to an address that holds none (about 130,000). */
export const FEE_LIMIT_ENERGY = 260_000;
/** fee_limit when the chain reports no energy price (a private chain): 1 TRX. */
const MIN_FEE_LIMIT_SUN = 1_000_000;
/** The energy a USDT transfer to a new holder burns: the estimate when the dry run says nothing. */
export const NEW_HOLDER_ENERGY = 130_000;
/**
 * Bandwidth beside raw_data's bytes: the 65-byte signature, 4 bytes of protobuf framing, and the 64
 * bytes java-tron adds for the result (MAX_RESULT_SIZE_IN_TX): 345 for an untagged USDT transfer.
 */
const BANDWIDTH_OVERHEAD = 65 + 4 + 64;
/** TRX has 6 decimals: 1 TRX = 1,000,000 sun. */
const TRX_DECIMALS = 6;

type TronWebModule = typeof import('tronweb');
let tronweb: Promise<TronWebModule> | null = null;
/** tronweb, loaded on first use: it costs about 0.4 s, which a server with TRON off never pays. */
export const loadTronWeb = (): Promise<TronWebModule> => (tronweb ??= import('tronweb'));

/** `transfer(to, amount)` with the tag, as hex after the 4-byte selector (tronweb's rawParameter). */
const transferParameter = (spec: TronTransferSpec) =>
  taggedTransferData(tronToHex(spec.to), spec.amountUnits, spec.tag).slice(2 + 8);

/**
 * The unsigned TriggerSmartContract transaction, built offline by tronweb from the head block's
 * header (TaPoS: its number's low 2 bytes and 8 bytes of its id), as TRON wallets sign it.
 */
export async function buildTronTransfer(
  api: TronApi,
  spec: TronTransferSpec,
  params: TronChainParameters,
): Promise<TronUnsignedTransaction> {
  const block = await api.post<TronBlock>('/wallet/getnowblock', {});
  const number = block.block_header.raw_data.number ?? 0;
  const timestamp = block.block_header.raw_data.timestamp ?? 0;
  const feeLimit = Math.max(MIN_FEE_LIMIT_SUN, FEE_LIMIT_ENERGY * chainParameter(params, 'getEnergyFee'));
  const { TronWeb } = await loadTronWeb();
  const builder = new TronWeb({ fullHost: 'http://offline.invalid' }).transactionBuilder;
  const { transaction } = await builder.triggerSmartContract(
    spec.token,
    'transfer(address,uint256)',
    {
      feeLimit,
      txLocal: true,
      rawParameter: transferParameter(spec),
      blockHeader: {
        ref_block_bytes: number.toString(16).slice(-4).padStart(4, '0'),
        ref_block_hash: block.blockID.slice(16, 32),
        expiration: timestamp + EXPIRATION_MS,
        timestamp,
      },
    },
    [],
    spec.from,
  );
  return transaction as unknown as TronUnsignedTransaction;
}

/**
 * What sending it costs: the node's dry run of the same call, priced at the chain's parameters,
 * beside the TRX the sending wallet holds (so its owner is warned before TronLink refuses).
 */
export async function estimateTronCost(
  api: TronApi,
  spec: TronTransferSpec,
  transaction: TronUnsignedTransaction,
  params: TronChainParameters,
): Promise<{ energy: number; bandwidth: number; trx: string; trxBalance: string; covered: boolean }> {
  const [dryRun, account] = await Promise.all([
    api.post<TronConstantCall>('/wallet/triggerconstantcontract', {
      owner_address: spec.from,
      contract_address: spec.token,
      function_selector: 'transfer(address,uint256)',
      parameter: transferParameter(spec),
      visible: true,
    }),
    api.post<TronAccount>('/wallet/getaccount', { address: spec.from, visible: true }),
  ]);
  // A dry run that did not run (a node without the VM's estimate) says nothing: assume the dearer case.
  const energy =
    dryRun.result?.result === true && dryRun.energy_used ? dryRun.energy_used : NEW_HOLDER_ENERGY;
  const bandwidth = transaction.raw_data_hex.length / 2 + BANDWIDTH_OVERHEAD;
  const sun =
    BigInt(energy) * BigInt(chainParameter(params, 'getEnergyFee')) +
    BigInt(bandwidth) * BigInt(chainParameter(params, 'getTransactionFee'));
  const balance = BigInt(account.balance ?? 0);
  return {
    energy,
    bandwidth,
    trx: formatUnits(sun, TRX_DECIMALS, 0),
    trxBalance: formatUnits(balance, TRX_DECIMALS, 0),
    covered: balance >= sun,
  };
}
