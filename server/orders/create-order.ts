import type { Transaction } from 'sequelize';
import type { CreateOrderBody, Order as OrderBody } from '../../contract';
import type { Merchant } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { recordAudit } from '../events/audit';
import { checkWebhookUrl } from '../events/check-webhook-url';
import { emitOrderEvent } from '../events/emit-order-event';
import { formatUnits } from '../lib/decimal';
import { claimKey, findReplay, requestHash, storeResponse, type IdempotencyScope } from './idempotency';
import { newReference } from './new-reference';
import { presentOrder } from './present-order';
import { priceOrder } from './price-order';
import { resolveWallet } from './resolve-wallet';
import { MAX_AMOUNT_ADJUSTMENT, releaseAmount, reserveAmount } from './unique-amount';

export type CreateOrderResult = { status: 201; body: OrderBody; replayed: boolean };

export async function createOrder(
  deps: Deps,
  input: { merchant: Merchant; body: CreateOrderBody; idempotencyKey?: string },
): Promise<CreateOrderResult> {
  const { merchant, body } = input;
  const scope: IdempotencyScope | null = input.idempotencyKey
    ? { merchantId: merchant.id, key: input.idempotencyKey, requestHash: requestHash(body) }
    : null;
  if (scope) {
    const earlier = await findReplay<OrderBody>(deps, scope);
    if (earlier) return { status: 201, body: earlier.body, replayed: true };
  }

  const chain = deps.chains.get(body.network);
  const tokenMint = chain.tokenMint(body.token);
  if (!tokenMint) throw ApiError.field('body.token', chain.tokenUnavailableReason(body.token));
  if (body.webhookUrl) await checkWebhookUrl(deps, body.webhookUrl, 'body.webhookUrl');
  const wallet = await resolveWallet(deps, merchant.id, body.network, body.merchantWalletId);
  // Rates come from outside: fetched before the transaction so no lock waits on the network.
  const price = await priceOrder(deps, body);
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + (body.expiresInSeconds ?? deps.config.ORDER_TTL_SECONDS) * 1000);
  const reference = newReference();
  // Reserved in a statement of its own, before the order's transaction: no lock is held across it.
  const reserved = await reserveAmount(
    deps,
    { network: body.network, recipient: wallet.publicAddress, tokenMint, amountUnits: price.amountUnits },
    { reference, heldUntil: new Date(expiresAt.getTime() + deps.config.LATE_PAYMENT_WINDOW_SECONDS * 1000) },
  );
  const amountUnits = reserved.amountUnits;

  const insertOrder = async (transaction: Transaction): Promise<CreateOrderResult> => {
    const order = await deps.db.models.Order.create(
      {
        reference,
        amountUnique: reserved.unique,
        merchantId: merchant.id,
        walletId: wallet.id,
        network: body.network,
        token: body.token,
        tokenMint,
        recipient: wallet.publicAddress,
        amountUnits,
        quoteCurrency: price.quote?.currency ?? null,
        quoteUnits: price.quote?.units ?? null,
        fxRate: price.quote?.rate ?? null,
        fxSource: price.quote?.source ?? null,
        quotedAt: price.quote?.at ?? null,
        status: 'PENDING',
        description: body.description ?? null,
        metadata: body.metadata ?? null,
        webhookUrl: body.webhookUrl ?? null,
        returnUrl: body.returnUrl ?? null,
        messengerChatId: body.messengerChatId ?? null,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
    await recordAudit(
      deps.db.models,
      transaction,
      {
        orderId: order.id,
        type: 'order.created',
        actor: 'merchant',
        data: {
          status: 'PENDING',
          amount: formatUnits(amountUnits),
          ...(amountUnits !== price.amountUnits
            ? {
                amountAdjustedFrom: formatUnits(price.amountUnits),
                reason: 'made unique among payable orders to this wallet',
              }
            : {}),
          ...(reserved.unique
            ? {}
            : {
                amountUnique: false,
                reason: `no free amount within ${formatUnits(MAX_AMOUNT_ADJUSTMENT)} of the price: matched by tag or claim only`,
              }),
          ...(price.quote
            ? { quoteCurrency: price.quote.currency, fxRate: price.quote.rate, fxSource: price.quote.source }
            : {}),
          expiresAt: expiresAt.toISOString(),
        },
      },
      now,
    );
    await emitOrderEvent(deps, transaction, order, 'order.created', now, merchant);
    const response = { status: 201 as const, body: presentOrder(deps, order, merchant.fullName) };
    if (scope) await storeResponse(deps, scope, response, transaction);
    return { ...response, replayed: false };
  };

  const created = await deps.db.sequelize
    .transaction(async (transaction) => {
      if (scope) {
        const earlier = await claimKey<OrderBody>(deps, scope, transaction);
        if (earlier) return { status: 201 as const, body: earlier.body, replayed: true };
      }
      return insertOrder(transaction);
    })
    .catch(async (error: unknown) => {
      await releaseAmount(deps, reference).catch(() => {});
      throw error;
    });
  // Replayed: this request's reservation was never used.
  if (created.replayed) await releaseAmount(deps, reference);
  return created;
}
