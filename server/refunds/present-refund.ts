import type { Refund as RefundBody } from '../../contract';
import { ChainUnavailableError, PayerAccountError } from '../chains/chain-errors';
import type { Order, Refund } from '../db/models';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { optionOf } from '../orders/payment-options';
import { refundTarget } from './refund-target';

type RefundTransaction = RefundBody['transaction'];

/**
 * The unsigned refund transaction while the refund waits for one (PENDING), else null. Built on
 * every read: a Solana transaction carries a recent blockhash and is good for about a minute. A chain
 * that cannot be reached leaves it null rather than failing the read.
 */
export async function buildRefundBody(
  deps: Pick<Deps, 'chains' | 'logger'>,
  refund: Refund,
  order: Order,
): Promise<RefundTransaction> {
  const target = refundTarget(refund, order);
  if (!target || refund.status !== 'PENDING') return null;
  try {
    const built = await deps.chains.forChecks(refund.network).buildRefundTransaction(target);
    // The network's own fields; the contract's response schema checks their shape on the way out.
    return built.body as RefundTransaction;
  } catch (error) {
    if (!(error instanceof ChainUnavailableError) && !(error instanceof PayerAccountError)) throw error;
    // Named by its tag: the id opens the payer's page and stays out of logs.
    deps.logger.warn({ refundTag: refund.tag, err: error.message }, 'refund transaction not built');
    return null;
  }
}

/** The merchant's view of a refund; `transaction` comes from buildRefundBody (events carry null). */
export function presentRefund(
  deps: Pick<Deps, 'config' | 'chains'>,
  refund: Refund,
  order: Order,
  transaction: RefundTransaction = null,
): RefundBody {
  const target = refund.status === 'PENDING' ? refundTarget(refund, order) : null;
  const option = optionOf(order, refund.optionIndex);
  const chain = deps.chains.display(refund.network);
  const base = deps.config.PUBLIC_BASE_URL;
  return {
    id: refund.id,
    orderReference: order.reference,
    status: refund.status,
    network: refund.network,
    token: option.token,
    amount: formatAmount(refund.amountUnits, option.decimals),
    decimals: option.decimals,
    from: refund.fromAddress,
    to: refund.toAddress,
    reason: refund.reason,
    tag: refund.tag,
    refundUrl: `${deps.config.PUBLIC_BASE_URL}/refund/${refund.id}`,
    payUrl: target ? chain.refundUri(base, target) : null,
    qrData: target ? chain.refundQrData(base, target) : null,
    transaction,
    txId: refund.txId,
    late: refund.late,
    failureReason: refund.failureReason,
    deadlineAt: refund.deadlineAt.toISOString(),
    lateUntil: refund.lateUntil?.toISOString() ?? null,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}
