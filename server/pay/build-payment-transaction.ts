import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { recordAudit } from '../events/audit';
import { formatUnits } from '../lib/decimal';
import { paymentTarget } from '../orders/present-order';
import { assertPayable } from '../orders/submit-payment-claim';
import { findPublicOrder } from './find-public-order';

/** Distinct payer accounts recorded per order; more would only let anyone flood the timeline. */
export const MAX_TX_REQUEST_AUDITS = 10;
const ISSUED = 'tx_request.issued';

/**
 * Records that a transaction was issued, once per payer account and at most MAX_TX_REQUEST_AUDITS
 * times per order: the route is public, and wallets and pages call it repeatedly.
 */
async function auditIssued(deps: Deps, orderId: string, account: string | null) {
  const { models, sequelize } = deps.db;
  const seen = await models.AuditEntry.findAll({
    where: { orderId, type: ISSUED },
    attributes: ['data'],
    limit: MAX_TX_REQUEST_AUDITS,
  });
  if (seen.length >= MAX_TX_REQUEST_AUDITS || seen.some((e) => (e.data.account ?? null) === account)) return;
  await sequelize.transaction((transaction) =>
    recordAudit(
      models,
      transaction,
      { orderId, type: ISSUED, actor: 'payer', data: { account } },
      deps.clock(),
    ),
  );
}

/**
 * The transaction the payer signs (Solana Pay transaction request, or EVM call data).
 * Refused for an order that can no longer be paid; recorded in the audit once built.
 * `solanaPayOnly` (the POST form of the Solana Pay request) refuses non-Solana orders before
 * anything is built or recorded.
 */
export async function buildPaymentTransaction(
  deps: Deps,
  input: { reference: string; account?: string; solanaPayOnly?: boolean },
) {
  const { order, merchantName } = await findPublicOrder(deps, input.reference);
  if (input.solanaPayOnly && order.network !== 'SOLANA')
    throw ApiError.field(
      'params.reference',
      `is a ${order.network} order: POST is the Solana Pay transaction request; use GET for the EVM transaction`,
    );
  assertPayable(order, deps.clock(), deps.config.LATE_PAYMENT_WINDOW_SECONDS);
  // Solana Pay's first request (no account yet): what the wallet shows before asking for the transaction.
  if (order.network === 'SOLANA' && input.account === undefined)
    return { label: merchantName ?? 'stablepay', icon: `${deps.config.PUBLIC_BASE_URL}/pay/icon.svg` };
  // paymentTarget asks a partly paid order for what is still due, not the whole amount again.
  const target = paymentTarget(order, merchantName);
  const payUnits = target.amountUnits;
  const amount = formatUnits(payUnits);
  const built = await deps.chains.get(order.network).buildPaymentTransaction(
    {
      ...target,
      message:
        order.description ??
        `Pay ${formatUnits(payUnits, 6, 0)} ${order.token}${merchantName ? ` to ${merchantName}` : ''}`,
    },
    input.account,
  );
  await auditIssued(deps, order.id, input.account ?? null);
  const common = { reference: order.reference, amount, message: built.message };
  if (built.kind === 'solana')
    return { ...common, network: 'SOLANA' as const, transaction: built.transaction };
  if (order.network === 'SOLANA') throw new ApiError('INTERNAL_ERROR', 'chain adapter mismatch');
  return {
    ...common,
    network: order.network,
    chainId: built.chainId,
    to: built.to,
    data: built.data,
    value: built.value,
  };
}
