import { getAddress, type Address } from 'viem';
import type { EvmNetwork } from '../../../contract';
import { formatUnits } from '../../../contract/decimal';
import type {
  ChainAdapter,
  ChainPresentation,
  PaymentTarget,
  PaymentTransaction,
  RefundTarget,
} from '../chain-adapter';
import { PayerAccountError } from '../chain-errors';
import type { RpcEndpointPool } from '../rpc-endpoints';
import { normalizeEvmAddress } from './address';
import { checkTokenBalance, createEvmClient, evmRpc, readErc20Decimals } from './client';
import { taggedTransferData } from './order-tag';
import { buildBatchPayout } from './payout-batch/batch-payout';
import { PAYOUT_BATCH_BYTECODE } from './payout-batch/payout-batch';
import { readEvmDeployment } from './payout-batch/read-deployment';
import { readEvmTransaction } from './read-transaction';
import { refundTransferTarget, scanEvmTransfers, scanTargetsByToken } from './scan-transfers';
import { normalizeEvmSignature, verifyEvmMessage } from './verify-message';
import { createTokenBook, tokenMembers, type ConfiguredToken } from '../token-book';

export { normalizeEvmAddress } from './address';

export type EvmAdapterOptions = {
  network: EvmNetwork;
  presentation: ChainPresentation;
  chainId: number;
  tokens: ConfiguredToken[];
  rpc: RpcEndpointPool;
  rpcTimeoutMs: number;
  confirmations: number;
  logRange: number;
  onTokenRefused?: (message: string) => void;
};

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** Gas of an ERC-20 transfer to a holder that had none (the costlier case), with its tag. */
const FALLBACK_TRANSFER_GAS = 65_000n;
/** Gas of deploying PayoutBatch (measured on Hardhat: about 290,000), when it cannot be simulated. */
const FALLBACK_DEPLOY_GAS = 320_000n;

/** An EVM network (Polygon, Ethereum, or any network of contract/network-table.ts): tokens as ERC-20 contracts. */
export function createEvmAdapter(opts: EvmAdapterOptions): ChainAdapter {
  // Contracts in their EIP-55 form: the form orders, links and GET /networks show.
  const tokens = opts.tokens.map((t) => {
    const contract = normalizeEvmAddress(t.contract);
    if (!contract)
      throw new Error(
        `${t.token}_CONTRACT_${opts.network} is not an EVM address (a mixed-case one needs a valid EIP-55 checksum): "${t.contract}"`,
      );
    return { ...t, contract };
  });
  const client = createEvmClient(opts.rpc, opts.rpcTimeoutMs);
  const { network, confirmations } = opts;
  const book = createTokenBook({
    network,
    tokens,
    offReason: (token) =>
      `${token} is not available on ${network} (set ${token}_CONTRACT_${network} to turn it on)`,
    readDecimals: (contract) => readErc20Decimals(client, network, getAddress(contract)),
    onRefused: opts.onTokenRefused,
  });

  function recipientOf(target: PaymentTarget): Address {
    const recipient = normalizeEvmAddress(target.recipient);
    if (!recipient) throw new Error(`order recipient is not an EVM address: "${target.recipient}"`);
    return recipient;
  }

  /** A payer that names itself is told now, not by a failed transaction, that it cannot pay. */
  async function checkPayer(account: string, target: PaymentTarget) {
    const payer = normalizeEvmAddress(account);
    if (!payer)
      throw new PayerAccountError(
        'must be an EVM address (0x followed by 40 hex digits, EIP-55 checksum if mixed case)',
      );
    await checkTokenBalance(client, network, { token: getAddress(target.tokenMint), payer }, target);
  }

  // EIP-681 cannot carry the order's tag: a transfer from this link is matched by its exact amount.
  const paymentUri = (target: PaymentTarget) =>
    `ethereum:${target.tokenMint}@${opts.chainId}/transfer?address=${target.recipient}&uint256=${target.amountUnits.toString()}`;
  // Nor a refund's: a refund sent from this link is matched by its exact amount.
  const refundUri = (_baseUrl: string, target: RefundTarget) =>
    `ethereum:${target.tokenMint}@${opts.chainId}/transfer?address=${target.to}&uint256=${target.amountUnits.toString()}`;

  return {
    network,
    presentation: opts.presentation,
    finality: { confirmations },

    ...tokenMembers(book),

    normalizeAddress: normalizeEvmAddress,
    addressFormat: 'must be a 0x address of 40 hex digits with a valid EIP-55 checksum when mixed-case',

    // Hex hashes are case-insensitive: one canonical (lower-case) form, or the unique index on
    // (network, tx_id) would let one transaction claim two orders by changing its case.
    normalizeTxId: (txId) => (TX_HASH.test(txId) ? txId.toLowerCase() : null),
    txIdFormat: 'must be a 0x transaction hash (64 hex digits)',

    normalizeSignature: normalizeEvmSignature,
    signatureFormat:
      'must be a 0x EIP-191 personal_sign signature (65 bytes, 130 hex digits) by the sending wallet',
    verifyMessage: verifyEvmMessage,

    paymentUri,
    paymentQrData: paymentUri,

    transactionRequestUri: () => null,
    needsPayerAccount: false,

    async buildPaymentTransaction(target, account): Promise<PaymentTransaction> {
      if (account !== undefined && account !== '') await checkPayer(account, target);
      const amount = formatUnits(target.amountUnits, target.decimals, 0);
      return {
        body: {
          chainId: opts.chainId,
          to: getAddress(target.tokenMint),
          data: taggedTransferData(recipientOf(target), target.amountUnits, target.reference),
          value: '0',
        },
        message: target.message || `Pay ${amount} ${target.token}`,
      };
    },

    readTransaction: (txId) => readEvmTransaction(client, { network, confirmations }, txId),

    scanTargets: scanTargetsByToken,

    scan: (target, cursor, scan) =>
      scanEvmTransfers(client, { network, confirmations, logRange: opts.logRange }, target, cursor, scan),

    // One target per token covers every recipient, and a read with no new final block costs one
    // eth_blockNumber: every scan cycle (each second) reads all targets, so a block is seen when it
    // comes.
    openWatch: () => ({
      connected: true,
      follow: () => {},
      drain: () => ({ keys: new Set<string>(), all: true }),
      remind: () => {},
      close: () => {},
    }),

    refundUri,
    refundQrData: refundUri,
    refundTransactionRequests: false,

    async buildRefundTransaction(target): Promise<PaymentTransaction> {
      const to = normalizeEvmAddress(target.to);
      if (!to) throw new Error(`refund address is not an EVM address: "${target.to}"`);
      return {
        body: {
          chainId: opts.chainId,
          to: getAddress(target.tokenMint),
          data: taggedTransferData(to, target.amountUnits, target.tag),
          value: '0',
        },
        message: `Refund ${formatUnits(target.amountUnits, target.decimals, 0)} ${target.token}`,
      };
    },

    refundScanTarget: refundTransferTarget,

    /** One tagged ERC-20 transfer per item, each with its gas at today's price (estimated from `from`). */
    async buildPayoutTransactions(from, targets) {
      const account = getAddress(from);
      const gasPrice = await evmRpc(network, 'eth_gasPrice', () => client.getGasPrice());
      return Promise.all(
        targets.map(async (target) => {
          const to = normalizeEvmAddress(target.to);
          if (!to) throw new Error(`payout address is not an EVM address: "${target.to}"`);
          const transaction = {
            chainId: opts.chainId,
            to: getAddress(target.tokenMint),
            data: taggedTransferData(to, target.amountUnits, target.tag),
            value: '0' as const,
          };
          const gas = await client
            .estimateGas({ account, to: transaction.to, data: transaction.data as `0x${string}` })
            // A wallet not funded yet cannot be simulated: an ERC-20 transfer's usual gas stands in.
            .catch(() => FALLBACK_TRANSFER_GAS);
          return { ids: [target.id], transaction, feeUnits: gas * gasPrice, feeDecimals: 18 };
        }),
      );
    },

    buildBatchPayoutTransactions: (from, contract, targets) =>
      buildBatchPayout(client, { network, chainId: opts.chainId }, from, contract, targets),

    async buildBatchContractDeployment(from) {
      const [gasPrice, gas] = await Promise.all([
        evmRpc(network, 'eth_gasPrice', () => client.getGasPrice()),
        client
          .estimateGas({ account: getAddress(from), data: PAYOUT_BATCH_BYTECODE })
          .catch(() => FALLBACK_DEPLOY_GAS),
      ]);
      return {
        transaction: { chainId: opts.chainId, data: PAYOUT_BATCH_BYTECODE, value: '0' },
        feeUnits: gas * gasPrice,
        feeDecimals: 18,
      };
    },

    readDeployment: (txId) => readEvmDeployment(client, { network, confirmations }, txId),
  };
}
