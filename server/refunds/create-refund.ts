import type { CreateRefundBody, Refund as RefundBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { Caller } from '../events/actor';
import { recordCreation } from '../events/lifecycle';
import { formatAmount, parseUnits } from '../../contract/decimal';
import { findOrder } from '../orders/find-order';
import {
  claimKey,
  findReplay,
  requestHash,
  storeResponse,
  type IdempotencyScope,
} from '../orders/idempotency';
import { newReference } from '../orders/new-reference';
import { refundableUnits } from '../orders/refundable-amount';
import { committedRefunds } from './committed-refunds';
import { receivedOn, refundOption } from './refund-option';
import { REFUND_LIFECYCLE } from './refund-lifecycle';
import { newRefundId } from './new-refund-id';
import { buildRefundBody, presentRefund } from './present-refund';
import { refundAmount, refundDeadline } from './refund-rules';

export type CreateRefundResult = { body: RefundBody; replayed: boolean };

/** What the idempotency record keeps: the refund, presented afresh on replay (its transaction expires). */
type StoredRefund = { refundId: string };

/**
 * Refunds all or part of what an order received. The order row is locked while what is left to
 * refund is counted, so concurrent requests can never refund more than was received. The refund is
 * PENDING when the merchant gives the address (its own word), else AWAITING_ADDRESS until the payer
 * gives one.
 */
export async function createRefund(
  deps: Deps,
  input: {
    merchant: MerchantRow;
    reference: string;
    body: CreateRefundBody;
    idempotencyKey?: string;
    by: Caller;
  },
): Promise<CreateRefundResult> {
  const { models, sequelize } = deps.db;
  const { merchant, body } = input;
  const scope: IdempotencyScope | null = input.idempotencyKey
    ? {
        merchantId: merchant.id,
        key: input.idempotencyKey,
        requestHash: requestHash({ refundOf: input.reference, ...body }),
      }
    : null;
  if (scope) {
    const earlier = await findReplay<StoredRefund>(deps, scope);
    if (earlier) return { body: await presentStored(deps, earlier.body), replayed: true };
  }

  const probe = await findOrder(models, { reference: input.reference, merchantId: merchant.id });
  // The payment option refunded: the one named, else the one that received most (server/refunds/refund-option.ts).
  const option = await refundOption(deps, probe, body);
  const chain = deps.chains.get(option.network);
  const to = body.to === undefined ? null : chain.normalizeAddress(body.to);
  if (body.to !== undefined && to === null) throw ApiError.field('body.to', chain.addressFormat);
  if (to !== null && to === option.recipient)
    throw ApiError.field('body.to', "is the order's receiving wallet, which sends the refund");
  const requested = body.amount === undefined ? null : parseUnits(body.amount, option.decimals);

  const created = await sequelize.transaction(async (transaction) => {
    if (scope) {
      const earlier = await claimKey<StoredRefund>(deps, scope, transaction);
      if (earlier) return { stored: earlier.body, replayed: true };
    }
    const order = await findOrder(
      models,
      { reference: input.reference, merchantId: merchant.id },
      { transaction, lock: true },
    );
    const now = deps.clock();
    // Limited to what the option received, less what its refunds hold (a one-option order: the order's).
    const several = order.paymentOptions !== null;
    const received = several
      ? await receivedOn(deps, order, option.index, transaction)
      : order.amountReceivedUnits;
    const committed = await committedRefunds(
      deps.db,
      order,
      now,
      transaction,
      several ? option.index : undefined,
    );
    const refundable = refundableUnits(received, committed.units);
    const amount = refundAmount(requested, refundable);
    if (!amount.ok) {
      const format = (units: bigint) => formatAmount(units, option.decimals);
      const held = committed.failedUntil
        ? ` (${format(committed.failedUnits)} by failed refunds whose transfer may still land, until ${committed.failedUntil.toISOString()})`
        : '';
      const where = several ? ` on ${option.network}` : '';
      throw ApiError.field(
        'body.amount',
        `${amount.reason}: the order received ${format(received)} ${option.token}${where}, ${format(committed.units)} of it is refunded or held by refunds${held}, ${format(refundable)} can be refunded`,
      );
    }

    const refund = await models.Refund.create(
      {
        id: newRefundId(),
        orderId: order.id,
        merchantId: merchant.id,
        network: option.network,
        tokenMint: option.tokenMint,
        fromAddress: option.recipient,
        optionIndex: option.index,
        toAddress: to,
        tag: newReference(),
        amountUnits: amount.units,
        reason: body.reason ?? null,
        status: to ? 'PENDING' : 'AWAITING_ADDRESS',
        addressSetAt: to ? now : null,
        deadlineAt: refundDeadline(now, deps.config.REFUND_DEADLINE_SECONDS),
        nextCheckAt: now,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await recordCreation(deps, transaction, REFUND_LIFECYCLE, refund, {
      cause: 'created',
      actor: input.by,
      data: {
        refundId: refund.id,
        amount: formatAmount(refund.amountUnits, option.decimals),
        ...(several ? { network: option.network, token: option.token } : {}),
        to,
        reason: refund.reason,
        status: refund.status,
      },
      extra: { order, merchant },
    });
    const stored: StoredRefund = { refundId: refund.id };
    if (scope) await storeResponse(deps, scope, { status: 201, body: stored }, transaction);
    return { stored, replayed: false };
  });
  return { body: await presentStored(deps, created.stored), replayed: created.replayed };
}

/** The refund as it is now, with a fresh transaction. */
async function presentStored(deps: Deps, stored: StoredRefund): Promise<RefundBody> {
  const { models } = deps.db;
  const refund = await models.Refund.findByPk(stored.refundId);
  const order = refund && (await models.Order.findByPk(refund.orderId));
  if (!refund || !order) throw ApiError.notFound('Refund');
  return presentRefund(deps, refund, order, await buildRefundBody(deps, refund, order));
}
