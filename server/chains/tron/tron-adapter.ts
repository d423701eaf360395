import type { PublicClient } from 'viem';
import { formatUnits } from '../../../contract/decimal';
import type { ChainAdapter, PaymentTarget, RefundTarget, ScanTarget } from '../chain-adapter';
import { ChainUnavailableError, PayerAccountError, rpcCall } from '../chain-errors';
import { checkTokenBalance, createEvmClient, readErc20Decimals } from '../evm/client';
import { refundTransferTarget, scanEvmTransfers, scanTargetsByToken } from '../evm/scan-transfers';
import type { RpcEndpointPool } from '../rpc-endpoints';
import { createTokenBook, tokenMembers, type ConfiguredToken } from '../token-book';
import { hexToTron, normalizeTronAddress, tronToHex } from './address';
import { buildTronTransfer, estimateTronCost, type TronTransferSpec } from './build-transfer';
import { createTronApi, type TronApi, type TronChainParameters } from './http-api';
import { tronPresentation } from './presentation';
import { readTronTransaction } from './read-transaction';
import { tronFetch } from './transport';
import { normalizeTronSignature, verifyTronMessage } from './verify-message';

export type TronAdapterOptions = {
  chainId: number;
  tokens: ConfiguredToken[];
  /** TRON's JSON-RPC endpoints (`…/jsonrpc`): blocks, Transfer logs, receipts. */
  rpc: RpcEndpointPool;
  /** TRON's HTTP API endpoints (`/wallet/*`): transaction info, block headers, fees, dry runs. */
  api: RpcEndpointPool;
  apiKey: string | null;
  rpcTimeoutMs: number;
  /** Blocks asked beyond the solidified one (TRON_CONFIRMATIONS). */
  confirmations: number;
  onTokenRefused?: (message: string) => void;
  /** Tests make the throttling backoff instant. */
  sleep?: (ms: number) => Promise<void>;
};

/** java-tron's eth_getLogs limit (maxBlockRange): more blocks in one call are refused. */
export const TRON_LOG_RANGE = 5000;
/** Energy and bandwidth prices change by vote, rarely: read again after this long. */
const CHAIN_PARAMETERS_TTL_MS = 10 * 60_000;
const TX_ID = /^(0x)?[0-9a-fA-F]{64}$/;

/** TRON: USDT as a TRC-20 contract, base58 addresses on the wire, final when solidified. */
export function createTronAdapter(opts: TronAdapterOptions): ChainAdapter {
  const network = 'TRON';
  const tokens = opts.tokens.map((t) => {
    if (!normalizeTronAddress(t.contract))
      throw new Error(`${t.token}_CONTRACT_TRON is not a TRON address (base58check): "${t.contract}"`);
    return t;
  });
  const manners = { apiKey: opts.apiKey, sleep: opts.sleep };
  const client: PublicClient = createEvmClient(
    { ...opts.rpc, fetch: tronFetch(opts.rpc, manners) },
    opts.rpcTimeoutMs,
  );
  const api: TronApi = createTronApi(network, tronFetch(opts.api, manners));
  const book = createTokenBook({
    network,
    tokens,
    offReason: (token) => `${token} is not issued on TRON (USDT only)`,
    readDecimals: (contract) => readErc20Decimals(client, network, tronToHex(contract)),
    onRefused: opts.onTokenRefused,
  });

  /** The `finalized` (solidified) block less TRON_CONFIRMATIONS: the last one whose transfers count. */
  async function finalBlock(): Promise<bigint> {
    const block = await rpcCall(network, 'eth_getBlockByNumber', () =>
      client.request({ method: 'eth_getBlockByNumber', params: ['finalized', false] }),
    );
    if (!block?.number) throw new ChainUnavailableError(`${network} RPC unavailable: no finalized block`);
    return BigInt(block.number) - BigInt(opts.confirmations);
  }

  let parameters: { at: number; value: TronChainParameters } | null = null;
  async function chainParameters(): Promise<TronChainParameters> {
    if (!parameters || Date.now() - parameters.at > CHAIN_PARAMETERS_TTL_MS)
      parameters = { at: Date.now(), value: await api.post('/wallet/getchainparameters', {}) };
    return parameters.value;
  }

  const paymentUri = (target: PaymentTarget) =>
    `tron:${target.recipient}?amount=${formatUnits(target.amountUnits, target.decimals, 0)}`;
  const refundUri = (_baseUrl: string, target: RefundTarget) =>
    `tron:${target.to}?amount=${formatUnits(target.amountUnits, target.decimals, 0)}`;

  /** The target with its addresses as the 0x hex that TRON's eth_getLogs filters take. */
  const inHex = (target: ScanTarget): ScanTarget => ({
    key: tronToHex(target.key),
    token: tronToHex(target.token),
    recipients: target.recipients.map(tronToHex),
    senders: target.senders?.map(tronToHex),
  });

  return {
    network,
    presentation: tronPresentation(opts.chainId),
    finality: { confirmations: opts.confirmations },
    ...tokenMembers(book),

    normalizeAddress: normalizeTronAddress,
    addressFormat:
      'must be a base58 TRON address (T followed by 33 characters, valid checksum); hex (41…, 0x…) is not taken',
    // One canonical form (no 0x, lower case), as the unique index on (network, tx_id) requires.
    normalizeTxId: (txId) => (TX_ID.test(txId) ? txId.replace(/^0x/, '').toLowerCase() : null),
    txIdFormat: 'must be a TRON transaction id (64 hex digits, 0x optional)',
    normalizeSignature: normalizeTronSignature,
    signatureFormat:
      'must be a 0x TIP-191 signature (signMessageV2: 65 bytes, 130 hex digits) by the sending wallet',
    verifyMessage: verifyTronMessage,

    // No TRON wallet standard carries a tag or fixes the URI's fields: a transfer from the link or
    // the QR code (the bare address every wallet and exchange scans) is matched by its exact amount.
    paymentUri,
    paymentQrData: (target) => target.recipient,
    transactionRequestUri: () => null,
    // The sender is inside the signed transaction, but the route is not Solana Pay's: an account
    // is required by buildPaymentTransaction itself, never answered with a label.
    needsPayerAccount: false,

    async buildPaymentTransaction(target, account) {
      const payer = account ? normalizeTronAddress(account) : null;
      if (!payer)
        throw new PayerAccountError(
          account
            ? 'must be a base58 TRON address (T…) with a valid checksum'
            : 'is required on TRON: the transaction names its sender',
        );
      await checkTokenBalance(
        client,
        network,
        { token: tronToHex(target.tokenMint), payer: tronToHex(payer) },
        target,
      );
      const spec = {
        token: target.tokenMint,
        from: payer,
        to: target.recipient,
        amountUnits: target.amountUnits,
        tag: target.reference,
      };
      const transaction = await buildTronTransfer(api, spec, await chainParameters());
      return {
        body: { transaction },
        message:
          target.message || `Pay ${formatUnits(target.amountUnits, target.decimals, 0)} ${target.token}`,
      };
    },

    readTransaction: (txId) => readTronTransaction(client, api, { network, finalBlock }, txId),

    scanTargets: scanTargetsByToken,
    async scan(target, cursor, scan) {
      const page = await scanEvmTransfers(
        client,
        { network, confirmations: opts.confirmations, logRange: TRON_LOG_RANGE, finalBlock },
        inHex(target),
        cursor,
        scan,
      );
      // Transaction ids and addresses in the forms orders and claims keep: 64 hex, base58.
      return {
        ...page,
        found: page.found.map((f) => ({
          ...f,
          txId: f.txId.replace(/^0x/, ''),
          recipient: hexToTron(f.recipient),
        })),
      };
    },

    refundUri,
    refundQrData: (_baseUrl, target) => target.to,
    refundTransactionRequests: false,

    async buildRefundTransaction(target) {
      const spec: TronTransferSpec = {
        token: target.tokenMint,
        from: target.from,
        to: target.to,
        amountUnits: target.amountUnits,
        tag: target.tag,
      };
      if (!normalizeTronAddress(target.to))
        throw new Error(`refund address is not a TRON address: "${target.to}"`);
      const params = await chainParameters();
      const transaction = await buildTronTransfer(api, spec, params);
      const estimatedCost = await estimateTronCost(api, spec, transaction, params);
      return {
        body: { transaction, estimatedCost },
        message: `Refund ${formatUnits(target.amountUnits, target.decimals, 0)} ${target.token}`,
      };
    },

    refundScanTarget: refundTransferTarget,
  };
}
