/**
 * @stablepay/sdk/refunds: for merchants who automate refunds on their own server. The service
 * never holds keys: it builds the refund transaction from the order's receiving wallet; this
 * helper checks it, signs it with that wallet's key and sends it. Solana takes a @solana/web3.js
 * Keypair and Connection; Polygon/Ethereum a viem account and an RPC URL. Both libraries are
 * optional peer dependencies, loaded only on the network that needs them.
 */
import type { Connection, Keypair } from '@solana/web3.js';
import type { Account, Hex } from 'viem';
import { parseUnits } from '../../contract/decimal';
import type { Refund, StablepayClient } from './client';
import { RefundSendError } from './errors';
import { sleep } from './retry';

export type SolanaRefundSigner = {
  /** The order's receiving wallet (the refund's `from`). */
  keypair: Keypair;
  connection: Connection;
};
export type EvmRefundSigner = {
  /** The order's receiving wallet (the refund's `from`), e.g. privateKeyToAccount(...). */
  account: Account;
  /** An RPC endpoint of the refund's network. */
  rpcUrl: string;
};

export type SendRefundParams = {
  client: StablepayClient;
  reference: string;
  refundId: string;
  /** Needed for a refund on SOLANA. */
  solana?: SolanaRefundSigner;
  /** Needed for a refund on POLYGON or ETHEREUM. */
  evm?: EvmRefundSigner;
};

export type SentRefund = { refund: Refund; txId: string };

const TRANSFER_SELECTOR = '0xa9059cbb';

/** The refund as the service shows it now (a pending one with a freshly built transaction). */
async function currentRefund(client: StablepayClient, reference: string, refundId: string): Promise<Refund> {
  const { items } = await client.orders.refunds.list(reference);
  const refund = items.find((r) => r.id === refundId);
  if (!refund) throw new RefundSendError(`refund ${refundId} is not a refund of order ${reference}`);
  return refund;
}

/**
 * The refund's amount in its token's base units, from the decimals it carries (6 for most
 * stablecoins, 18 for BSC's): never a guess, or a correct 18-decimal refund would look wrong.
 */
function baseUnits(refund: Pick<Refund, 'amount' | 'decimals'>): bigint {
  try {
    return parseUnits(refund.amount, refund.decimals);
  } catch {
    throw new RefundSendError(`refund amount ${refund.amount} is not a ${refund.decimals}-decimal amount`);
  }
}

/**
 * Signs and sends a PENDING refund with the receiving wallet's key, after checking that the
 * transaction pays the refund's amount to its address from that wallet. Returns the transaction
 * id; the service then verifies it on chain (`waitForRefund`).
 */
export async function sendRefund(params: SendRefundParams): Promise<SentRefund> {
  const refund = await currentRefund(params.client, params.reference, params.refundId);
  if (refund.status !== 'PENDING')
    throw new RefundSendError(
      refund.status === 'AWAITING_ADDRESS'
        ? `refund ${refund.id} waits for the payer's address (${refund.refundUrl})`
        : refund.status === 'AWAITING_APPROVAL'
          ? `refund ${refund.id} waits for your approval of the address the payer gave (${refund.to}): client.orders.refunds.approve()`
          : `refund ${refund.id} is ${refund.status}: nothing to send`,
    );
  if (!refund.transaction)
    throw new RefundSendError(`the service could not build refund ${refund.id}'s transaction now: try again`);
  // TRON refunds are signed in the merchant's TronLink (the dashboard), not by this helper.
  if ('estimatedCost' in refund.transaction)
    throw new RefundSendError(
      `refund ${refund.id} is on TRON: sign its transaction with the receiving wallet`,
    );
  const txId =
    'transaction' in refund.transaction
      ? await sendSolana(refund, refund.transaction.transaction, params.solana)
      : await sendEvm(refund, refund.transaction, params.evm);
  return { refund, txId };
}

async function sendSolana(refund: Refund, base64: string, signer: SolanaRefundSigner | undefined) {
  if (!signer)
    throw new RefundSendError(`refund ${refund.id} is on SOLANA: pass solana: { keypair, connection }`);
  if (signer.keypair.publicKey.toBase58() !== refund.from)
    throw new RefundSendError(`the keypair is not the order's receiving wallet ${refund.from}`);
  const { Transaction } = await import('@solana/web3.js');
  const transaction = Transaction.from(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  if (!transaction.feePayer?.equals(signer.keypair.publicKey))
    throw new RefundSendError('the refund transaction is not paid for by the receiving wallet: not signed');
  // A fresh blockhash from the signer's own connection: the service's may be a minute old.
  const latest = await signer.connection.getLatestBlockhash('confirmed');
  transaction.recentBlockhash = latest.blockhash;
  transaction.lastValidBlockHeight = latest.lastValidBlockHeight;
  transaction.sign(signer.keypair);
  let signature: string | undefined;
  try {
    signature = await signer.connection.sendRawTransaction(transaction.serialize());
    const result = await signer.connection.confirmTransaction(
      { signature, blockhash: latest.blockhash, lastValidBlockHeight: latest.lastValidBlockHeight },
      'confirmed',
    );
    if (result.value.err) throw new Error(`failed on chain: ${JSON.stringify(result.value.err)}`);
    return signature;
  } catch (error) {
    throw new RefundSendError(`sending refund ${refund.id} failed: ${(error as Error).message}`, {
      txId: signature,
      cause: error,
    });
  }
}

async function sendEvm(
  refund: Refund,
  built: { chainId: number; to: string; data: string },
  signer: EvmRefundSigner | undefined,
) {
  if (!signer)
    throw new RefundSendError(`refund ${refund.id} is on ${refund.network}: pass evm: { account, rpcUrl }`);
  if (signer.account.address.toLowerCase() !== refund.from.toLowerCase())
    throw new RefundSendError(`the account is not the order's receiving wallet ${refund.from}`);
  const viem = await import('viem');
  // transfer(to, amount) followed by the refund's tag: check the two arguments before signing.
  const call = built.data.slice(0, 2 + 8 + 128) as Hex;
  const decoded = call.startsWith(TRANSFER_SELECTOR)
    ? viem.decodeFunctionData({ abi: viem.erc20Abi, data: call })
    : null;
  const [to, amount] =
    decoded?.functionName === 'transfer' ? decoded.args : ([undefined, undefined] as const);
  if (!to || to.toLowerCase() !== refund.to?.toLowerCase() || amount !== baseUnits(refund))
    throw new RefundSendError(
      `the refund transaction does not pay ${refund.amount} to ${refund.to}: not signed`,
    );
  const chain = viem.defineChain({
    id: built.chainId,
    name: refund.network,
    nativeCurrency: { name: 'native', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [signer.rpcUrl] } },
  });
  const wallet = viem.createWalletClient({
    account: signer.account,
    chain,
    transport: viem.http(signer.rpcUrl),
  });
  const rpcChainId = await wallet.getChainId();
  if (rpcChainId !== built.chainId)
    throw new RefundSendError(`rpcUrl serves chain ${rpcChainId}, the refund is on chain ${built.chainId}`);
  let hash: string | undefined;
  try {
    hash = await wallet.sendTransaction({ to: built.to as Hex, data: built.data as Hex, value: 0n });
    const receipt = await viem
      .createPublicClient({ chain, transport: viem.http(signer.rpcUrl) })
      .waitForTransactionReceipt({ hash: hash as Hex });
    if (receipt.status !== 'success') throw new Error('reverted');
    return hash;
  } catch (error) {
    throw new RefundSendError(`sending refund ${refund.id} failed: ${(error as Error).message}`, {
      txId: hash,
      cause: error,
    });
  }
}

export type WaitForRefundOptions = { timeoutMs?: number; intervalMs?: number };

/**
 * Polls until the service has settled the refund (SUCCEEDED or FAILED) and returns it. Settling
 * waits for finality, so allow for the network's finality time. A FAILED refund is not the last
 * word until its `lateUntil`: a transfer of it landing by then still makes it SUCCEEDED (`late`),
 * and until then it holds its amount, so a second refund cannot pay the same money again.
 */
export async function waitForRefund(
  client: StablepayClient,
  reference: string,
  refundId: string,
  opts: WaitForRefundOptions = {},
): Promise<Refund> {
  const deadline = Date.now() + (opts.timeoutMs ?? 300_000);
  for (;;) {
    const refund = await currentRefund(client, reference, refundId);
    if (refund.status === 'SUCCEEDED' || refund.status === 'FAILED') return refund;
    if (Date.now() > deadline)
      throw new RefundSendError(`refund ${refundId} is still ${refund.status}`, {
        txId: refund.txId ?? undefined,
      });
    await sleep(opts.intervalMs ?? 2000);
  }
}
