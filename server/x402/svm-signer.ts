import {
  SendTransactionError,
  VersionedTransaction,
  type Keypair,
  type TransactionSignature,
} from '@solana/web3.js';
import { TransactionOnchainFailureError, type FacilitatorSvmSigner } from '@x402/svm';
import type { Address } from '@solana/kit';
import type { Deps } from '../deps';
import { encodeBase58 } from '../lib/base58';
import { claimExpired, RefusedBeforeSending, type SendWatch } from './evm-signer';
import type { X402SolanaNetwork } from './x402-solana';

const CONFIRM_POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const decode = (base64: string) => VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
/** A transaction's id: its first (the fee payer's) signature. */
const signatureOf = (tx: VersionedTransaction) => encodeBase58(tx.signatures[0]!);

/** Whether the chain has the transaction (processed or later); unsure counts as known. */
export async function chainKnows(net: X402SolanaNetwork, signature: string): Promise<boolean> {
  try {
    const { value } = await net.connection.getSignatureStatuses([signature], {
      searchTransactionHistory: true,
    });
    return value[0] !== null;
  } catch {
    return true;
  }
}

/**
 * @x402/svm's facilitator signer over SOLANA_RPC_URL with the operator's fee payer: it co-signs
 * the payer's transaction (the fee payer signs nothing else), simulates it, and (given `watch`, one
 * settlement's) records the transaction's signature before broadcasting it, then waits at most
 * X402_SETTLE_TIMEOUT_MS for it to be confirmed (then `settlement_pending`). A node's refusal of
 * the broadcast is told to `watch` (nothing was sent: the payment may be presented again).
 */
export function facilitatorSvmSigner(
  deps: Pick<Deps, 'config'>,
  net: X402SolanaNetwork,
  feePayer: Keypair,
  watch?: SendWatch,
): FacilitatorSvmSigner {
  const refuse = (error: RefusedBeforeSending): never => {
    if (watch) watch.refused = error;
    throw error;
  };
  return {
    getAddresses: () => [feePayer.publicKey.toBase58() as Address],
    async signTransaction(transaction) {
      const tx = decode(transaction);
      tx.sign([feePayer]);
      return Buffer.from(tx.serialize()).toString('base64');
    },
    async simulateTransaction(transaction) {
      const { value } = await net.connection.simulateTransaction(decode(transaction), {
        sigVerify: false,
        replaceRecentBlockhash: false,
        commitment: 'confirmed',
      });
      if (value.err)
        throw new Error(`simulation failed: ${JSON.stringify(value.err)} ${(value.logs ?? []).join(' | ')}`);
    },
    async sendTransaction(transaction) {
      if (!watch) throw new Error('this x402 signer only verifies');
      const tx = decode(transaction);
      const signature = signatureOf(tx);
      if (!(await watch.onSigned(signature))) refuse(claimExpired());
      try {
        await net.connection.sendRawTransaction(tx.serialize(), {
          skipPreflight: false,
          preflightCommitment: 'confirmed',
        });
      } catch (error) {
        // Only the node's own answer refusing it (a JSON-RPC error: preflight, blockhash, funds) is a
        // refusal, and not even that when the chain knows it (an earlier attempt's answer was lost).
        // Anything else (no answer, an HTTP error on the way) may have gone out: followed up.
        if (error instanceof SendTransactionError && !(await chainKnows(net, signature)))
          refuse(
            new RefusedBeforeSending(
              'transaction_rejected',
              `The node refused the transaction: ${error.message}`.slice(0, 900),
            ),
          );
      }
      watch.sent = signature;
      return signature;
    },
    async confirmTransaction(signature) {
      const deadline = Date.now() + deps.config.x402.settleTimeoutMs;
      for (;;) {
        const { value } = await net.connection.getSignatureStatuses([signature as TransactionSignature]);
        const status = value[0];
        if (status?.err) throw new TransactionOnchainFailureError(JSON.stringify(status.err));
        if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
        if (Date.now() >= deadline)
          throw new Error(`${signature} not confirmed within X402_SETTLE_TIMEOUT_MS`);
        await sleep(CONFIRM_POLL_MS);
      }
    },
  };
}
