import type { Network, Token } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { createdByOf, type Caller } from '../events/actor';
import { formatAmount } from '../../contract/decimal';
import type { NewOrderRow } from './created-order';
import { createdOrderOf } from './created-order-of';
import { ORDER_CREATED } from './order-lifecycle';
import { submitPaymentClaim } from './submit-payment-claim';

/** A payment per API call settled by this service as x402 facilitator (server/x402/). */
export type X402Payment = {
  merchant: MerchantRow;
  /**
   * Who is calling (an API key; its maker still in the account when the order is written). Null
   * when the service records a settlement a crash left unrecorded: the money moved, whoever acted.
   */
  by: Caller | null;
  /** Chosen when the settlement was claimed, before anything was sent: one order, whoever writes it. */
  reference: string;
  network: Network;
  token: Token;
  tokenMint: string;
  decimals: number;
  walletId: string;
  recipient: string;
  amountUnits: bigint;
  payer: string;
  resource: string | null;
  txId: string;
};

/**
 * Records a settled x402 payment as an order of kind `x402` through the one creation statement
 * (order.created, its audit entry and deliveries), then reports its transaction as a claim of
 * source `x402`, so the order is CONFIRMING and the verifier credits it (`matchedBy: "x402"`, then
 * PAID and order.paid) once final by the network's confirmations, like any payment. Its amount is
 * not reserved (an x402 transfer is matched by its claim, never by amount) and it expires after
 * the usual time, which the claim outlives.
 */
export async function createX402Order(
  deps: Deps,
  p: X402Payment,
): Promise<{ id: string; reference: string }> {
  const now = deps.clock();
  const { reference } = p;
  const order: NewOrderRow = {
    reference,
    merchantId: p.merchant.id,
    walletId: p.walletId,
    network: p.network,
    token: p.token,
    tokenMint: p.tokenMint,
    tokenDecimals: p.decimals,
    recipient: p.recipient,
    amountUnits: p.amountUnits,
    amountReceivedUnits: 0n,
    amountUnique: false,
    amountRefundedUnits: 0n,
    quoteCurrency: null,
    quoteUnits: null,
    fxRate: null,
    fxSource: null,
    quotedAt: null,
    status: ORDER_CREATED.to,
    description: p.resource ? `x402: ${p.resource}`.slice(0, 500) : 'x402 payment',
    metadata: null,
    webhookUrl: null,
    returnUrl: null,
    messengerChatId: null,
    txId: null,
    paidAt: null,
    paidLate: false,
    expiresAt: new Date(now.getTime() + deps.config.ORDER_TTL_SECONDS * 1000),
    supersededAt: null,
    paymentOptions: null,
    sumDecimals: p.decimals,
    paidWith: null,
    subscriptionId: null,
    periodIndex: null,
    periodAttempt: null,
    periodStart: null,
    periodEnd: null,
    customerEmail: null,
    customerLanguage: null,
    createdBy: createdByOf(p.by),
    source: 'api',
    kind: 'x402',
    resource: p.resource,
    payer: p.payer,
    createdAt: now,
    updatedAt: now,
  };
  const { created } = createdOrderOf(deps, {
    order,
    merchant: p.merchant,
    by: p.by,
    audit: {
      status: ORDER_CREATED.to,
      amount: formatAmount(p.amountUnits, p.decimals),
      kind: 'x402',
      resource: p.resource,
      payer: p.payer,
      expiresAt: order.expiresAt.toISOString(),
    },
    at: now,
  });
  const outcome = await deps.writeCreatedOrder(created);
  if (!outcome.inserted) throw new Error(`the x402 order was not written (${outcome.blockedBy})`);
  await submitPaymentClaim(deps, {
    reference,
    merchantId: p.merchant.id,
    txId: p.txId,
    network: p.network,
    source: 'x402',
    by: p.by ?? undefined,
  });
  return { id: outcome.orderId, reference };
}
