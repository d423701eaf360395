import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { blamingAccountField } from '../http/error-handler';
import { findPublicRefund } from './find-public-refund';
import { refundTarget } from './refund-target';

/** Solana Pay's first request (no account yet): what the merchant's wallet shows. */
export async function refundTxRequestLabel(deps: Pick<Deps, 'db' | 'config' | 'chains'>, refundId: string) {
  const { refund, merchantName } = await findPublicRefund(deps, refundId);
  assertSolanaPay(deps, refund.network);
  return {
    label: merchantName ? `${merchantName} refund` : 'stablepay refund',
    icon: `${deps.config.PUBLIC_BASE_URL}/pay/icon.svg`,
  };
}

/**
 * The refund transaction for the merchant's wallet (Solana Pay transaction request): only the
 * order's receiving wallet may ask, as only it can send the refund.
 */
export async function buildRefundTxRequest(
  deps: Pick<Deps, 'db' | 'config' | 'chains'>,
  input: { refundId: string; account: string },
) {
  const { refund, order } = await findPublicRefund(deps, input.refundId);
  assertSolanaPay(deps, refund.network);
  const target = refundTarget(refund, order);
  if (!target) throw ApiError.conflict('The payer has not given a refund address yet');
  if (refund.status !== 'PENDING') throw ApiError.conflict(`The refund is ${refund.status}`);
  if (input.account !== refund.fromAddress)
    throw ApiError.field('body.account', `must be the order's receiving wallet ${refund.fromAddress}`);
  // target.from is the account (checked above): what the chain refuses in that wallet is body.account's.
  const built = await blamingAccountField('body.account', () =>
    deps.chains.get(refund.network).buildRefundTransaction(target),
  );
  return { transaction: String(built.body.transaction), message: built.message };
}

function assertSolanaPay(deps: Pick<Deps, 'chains'>, network: Parameters<Deps['chains']['get']>[0]) {
  if (!deps.chains.get(network).refundTransactionRequests)
    throw ApiError.field(
      'params.refundId',
      `is a ${network} refund: send the transaction of GET /orders/{reference}/refunds, or open its payUrl`,
    );
}
