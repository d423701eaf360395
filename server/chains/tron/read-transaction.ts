import type { PublicClient } from 'viem';
import type { ObservedTransaction, Transfer } from '../chain-adapter';
import { rpcCall } from '../chain-errors';
import { tagOf } from '../evm/order-tag';
import { transfersOf } from '../evm/read-transaction';
import { hexToTron } from './address';
import type { TronApi, TronTransactionInfo } from './http-api';

type RawLog = { address: string; topics: string[]; data: string; logIndex: string | null };
/** TRON's JSON-RPC receipt; `status` 0x1 / 0x0, its block fields `"0x"` while it is not in a block. */
type RawReceipt = { status?: string; blockNumber?: string; logs?: RawLog[] };
type RawTx = { blockNumber?: string | null; input?: string; to?: string | null };

export type TronReadOptions = {
  network: string;
  /** The last final block: the `finalized` (solidified) one less TRON_CONFIRMATIONS. */
  finalBlock: () => Promise<bigint>;
};

/** Whether a block field holds a block number: TRON writes `"0x"` (BigInt throws on it) while unmined. */
const blockNumberOf = (field: string | null | undefined): bigint | null =>
  typeof field === 'string' && /^0x[0-9a-fA-F]+$/.test(field) ? BigInt(field) : null;

/**
 * Reads a TRON transaction (`txId`: 64 hex digits) at solidified finality. The evidence is the
 * JSON-RPC receipt's Transfer logs; it succeeded only when the receipt's status is 0x1 and the HTTP
 * API's info neither says FAILED nor holds another contract result than SUCCESS. Never the
 * `transfer()` return value (TRON's USDT returns false on success), and never a transfer of 0
 * (address poisoning sends those): they are left out.
 */
export async function readTronTransaction(
  client: PublicClient,
  api: TronApi,
  opts: TronReadOptions,
  txId: string,
): Promise<ObservedTransaction> {
  const request = <T>(method: 'eth_getTransactionReceipt' | 'eth_getTransactionByHash') =>
    rpcCall(
      opts.network,
      method,
      async () => (await client.request({ method, params: [`0x${txId}`] } as never)) as T | null,
    );
  const receipt = await request<RawReceipt>('eth_getTransactionReceipt');
  const height = blockNumberOf(receipt?.blockNumber);
  if (height === null) {
    // No receipt, or one without a block: waiting to be packed (a TRON transaction expires within
    // its own expiration, so it cannot hold a claim open for long), else unknown.
    const pending = receipt ?? (await request<RawTx>('eth_getTransactionByHash'));
    return { txId, state: pending ? 'not_final' : 'not_found' };
  }
  if (height > (await opts.finalBlock())) return { txId, state: 'not_final' };
  const [info, tx] = await Promise.all([
    api.post<TronTransactionInfo>('/wallet/gettransactioninfobyid', { value: txId }),
    request<RawTx>('eth_getTransactionByHash'),
  ]);
  // An HTTP endpoint behind the JSON-RPC one does not know it yet: read again later.
  if (!info.id || !tx) return { txId, state: 'not_final' };
  const succeeded =
    receipt!.status === '0x1' && info.result !== 'FAILED' && info.receipt?.result === 'SUCCESS';
  const evmTransfers = transfersOf(receipt!.logs ?? []).filter((t) => t.amountUnits > 0n);
  // A tag counts only on a call to a token contract that moved tokens in this transaction.
  const called = tx.to?.toLowerCase();
  const tag = called && evmTransfers.some((t) => t.token.toLowerCase() === called) ? tagOf(tx.input) : null;
  return {
    txId,
    state: succeeded ? 'final' : 'failed',
    blockTime: info.blockTimeStamp ? new Date(info.blockTimeStamp) : null,
    tags: tag ? [tag] : [],
    transfers: evmTransfers.map(toTronTransfer),
  };
}

/** A transfer with its addresses in base58, the form orders and wallets keep. */
const toTronTransfer = (t: Transfer): Transfer => ({
  ...t,
  from: t.from === null ? null : hexToTron(t.from),
  to: hexToTron(t.to),
  token: hexToTron(t.token),
});
