import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import {
  assertFeePayerIsolated,
  decodeTransactionFromPayload,
  getTokenPayerFromTransaction,
  transactionMessageHash,
} from '@x402/svm';
import { solanaRpc } from '../chains/solana/rpc';
import type { Deps } from '../deps';
import {
  refuse,
  versionAndScheme,
  walletAndAmount,
  type CheckedPayment,
  type RefusedPayment,
  type X402Request,
} from './payment-rules';
import { settlingSvmFacilitator } from './x402-facilitator';
import { solanaFeePayer, x402SolanaNetwork } from './x402-solana';

/** What a fee payer must keep: the rent-exempt minimum of an account without data (lamports). */
const RENT_EXEMPT_MINIMUM = 890_880;

const isPublicKey = (text: string) => {
  try {
    return new PublicKey(text).toBase58() === text;
  } catch {
    return false;
  }
};

/**
 * What this service checks before @x402/svm's scheme does (layout, signatures, a simulation): x402
 * v2 `exact` on X402_SOLANA_CLUSTER's id, a configured mint, one of the key's account's Solana
 * wallets, at most X402_MAX_AMOUNT; the fee payer named in no instruction (it pays the fee and
 * nothing else: no transfer, not the token authority) and holding the fee. Throws 503
 * NOT_CONFIGURED without X402_SOLANA_FEE_PAYER_KEY. Nothing is sent.
 */
export async function checkSolanaPayment(
  deps: Pick<Deps, 'config' | 'db' | 'chains'>,
  merchantId: string,
  body: X402Request,
): Promise<CheckedPayment | RefusedPayment> {
  const feePayer = solanaFeePayer(deps);
  const feePayerAddress = feePayer.publicKey.toBase58();
  const requirements = body.paymentRequirements as PaymentRequirements;
  const payload = body.paymentPayload as PaymentPayload;
  const network = requirements.network;
  const txText = (payload.payload as { transaction?: unknown }).transaction;
  let tx: ReturnType<typeof decodeTransactionFromPayload> | null = null;
  let payer: string | undefined;
  try {
    if (typeof txText === 'string') tx = decodeTransactionFromPayload({ transaction: txText });
    payer = (tx && getTokenPayerFromTransaction(tx)) || undefined;
  } catch {
    tx = null;
  }
  const no = (reason: string, message: string) => refuse(network, reason, message, payer);
  const unsupported = versionAndScheme(body);
  if (unsupported) return no(unsupported.reason, unsupported.message);
  const net = x402SolanaNetwork(deps);
  if (network !== net.caip2)
    return no('invalid_network', `x402 is not on for ${network} here (Solana: ${net.caip2})`);
  if (payload.accepted.network !== network)
    return no('invalid_exact_svm_network_mismatch', 'The payment was made for another network');
  const token = net.tokens.find((t) => t.mint === requirements.asset);
  if (!token)
    return no(
      'invalid_asset',
      `${requirements.asset} is not a mint configured on Solana (${net.tokens.map((t) => `${t.symbol} ${t.mint}`).join(', ')})`,
    );
  if (requirements.extra?.feePayer !== feePayerAddress)
    return no(
      'invalid_exact_svm_fee_payer_not_managed_by_facilitator',
      `extra.feePayer must be this facilitator's fee payer ${feePayerAddress} (GET /x402/supported)`,
    );
  if (!tx || typeof txText !== 'string')
    return no('invalid_exact_svm_payload_transaction_could_not_be_decoded', 'The transaction is malformed');
  if (!isPublicKey(requirements.payTo)) return no('invalid_pay_to', 'payTo is not a Solana address');
  try {
    await assertFeePayerIsolated(tx, feePayerAddress);
  } catch {
    return no(
      'invalid_exact_svm_payload_transaction_fee_payer_transferring_funds',
      "The transaction names the facilitator's fee payer in an instruction: it pays the fee and nothing else",
    );
  }
  const amountUnits = BigInt(requirements.amount);
  const taken = await walletAndAmount(deps, merchantId, {
    network: net.network,
    payTo: requirements.payTo,
    amountUnits,
    symbol: token.symbol,
    decimals: token.decimals,
  });
  if (!('walletId' in taken)) return no(taken.reason, taken.message);
  const message = VersionedTransaction.deserialize(Buffer.from(txText, 'base64')).message;
  const [fee, balance] = await Promise.all([
    solanaRpc('getFeeForMessage', () => net.connection.getFeeForMessage(message, 'confirmed')),
    solanaRpc('getBalance', () => net.connection.getBalance(feePayer.publicKey, 'confirmed')),
  ]);
  if (fee.value === null)
    return no('invalid_exact_svm_blockhash_expired', "The transaction's blockhash has expired: pay again");
  if (balance < fee.value + RENT_EXEMPT_MINIMUM)
    return no(
      'insufficient_gas_funds',
      `The facilitator's fee payer ${feePayerAddress} holds ${balance} lamports, less than this settlement's fee (${fee.value}) and the rent-exempt minimum: fund it (X402_SOLANA_FEE_PAYER_KEY). Nothing was sent; the payment is still usable`,
    );
  return {
    ok: true,
    network: net.network,
    caip2: net.caip2,
    asset: token.mint,
    symbol: token.symbol,
    decimals: token.decimals,
    payTo: requirements.payTo,
    walletId: taken.walletId,
    payer: payer ?? '',
    amountUnits,
    requirements,
    payload,
    settlementKey: solanaSettlementKey(net.caip2, message.recentBlockhash, transactionMessageHash(tx)),
    resource: payload.resource?.url ?? null,
    validBefore: null,
    settler: (watch) => settlingSvmFacilitator(deps, net, feePayer, watch),
  };
}

/**
 * A Solana settlement's key (x402_settlements): the transaction's message (its hash), which the
 * payer signed and the fee payer co-signs; with its blockhash, so the follow-up knows when it can
 * no longer land.
 */
export const solanaSettlementKey = (caip2: string, blockhash: string, messageHash: string) =>
  `${caip2}:${blockhash}:${messageHash}`;

/** The blockhash a Solana settlement key names. */
export const blockhashOfKey = (key: string) => key.split(':')[2]!;
