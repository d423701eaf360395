import type { z } from 'zod';
import type { ZEvmTransaction, ZSolanaTransaction } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { recordAudit } from '../events/audit';
import { blamingAccountField, type AccountPath } from '../http/error-handler';
import { formatAmount, formatUnits } from '../../contract/decimal';
import { assertPayable, payableNow } from '../orders/payable';
import { findPublicOrder } from '../orders/find-public-order';
import { paymentTarget } from '../orders/present-order';
import { pickOption, type OptionPick } from '../orders/payment-options';

type PaymentTransactionBody = z.infer<typeof ZSolanaTransaction> | z.infer<typeof ZEvmTransaction>;

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
      deps.db,
      transaction,
      { orderId, type: ISSUED, actor: 'payer', data: { account } },
      deps.clock(),
    ),
  );
}

/**
 * The transaction the payer signs (Solana Pay transaction request, or EVM call data).
 * Refused for an order that can no longer be paid; recorded in the audit once built.
 * `solanaPayOnly` (the POST form of the Solana Pay request) refuses orders on networks without
 * that protocol before anything is built or recorded. An account the chain refuses is a
 * validation error at the field it came in (`account.path`).
 */
export async function buildPaymentTransaction(
  deps: Deps,
  input: {
    reference: string;
    account: { value: string | undefined; path: AccountPath };
    /** The payment option (`network`, `token` of the query); the first by default. */
    option?: OptionPick;
    solanaPayOnly?: boolean;
  },
) {
  const { order, merchantName } = await findPublicOrder(deps, input.reference);
  const option = pickOption(order, input.option ?? {}, 'query');
  const chain = deps.chains.get(option.network);
  if (input.solanaPayOnly && !chain.transactionRequestUri(deps.config.PUBLIC_BASE_URL, order.reference))
    throw ApiError.field(
      option.index === 0 ? 'params.reference' : 'query.network',
      `is a ${option.network} ${option.index === 0 ? 'order' : 'option'}: POST is the Solana Pay transaction request; use GET for the EVM transaction`,
    );
  assertPayable(order, payableNow(deps));
  // Solana Pay's first request (no account yet): what the wallet shows before asking for the transaction.
  if (chain.needsPayerAccount && input.account.value === undefined)
    return { label: merchantName ?? 'stablepay', icon: `${deps.config.PUBLIC_BASE_URL}/pay/icon.svg` };
  // paymentTarget asks a partly paid order for what is still due, not the whole amount again.
  const target = paymentTarget(order, merchantName, option);
  const payUnits = target.amountUnits;
  const amount = formatAmount(payUnits, option.decimals);
  const message =
    order.description ??
    `Pay ${formatUnits(payUnits, option.decimals, 0)} ${option.token}${merchantName ? ` to ${merchantName}` : ''}`;
  const { account } = input;
  const built = await blamingAccountField(account.path, () =>
    chain.buildPaymentTransaction({ ...target, message }, account.value),
  );
  await auditIssued(deps, order.id, account.value ?? null);
  // The network's own fields; the contract's response schema checks their shape on the way out.
  return {
    reference: order.reference,
    amount,
    message: built.message,
    network: option.network,
    ...built.body,
  } as PaymentTransactionBody;
}
