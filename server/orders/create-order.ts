import type { CreateOrderBody, Order as OrderBody } from '../../contract';
import type { MerchantRow } from '../db/caches';
import { isDatabaseUnavailable } from '../db/is-database-unavailable';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { checkWebhookUrl } from '../events/check-webhook-url';
import { createdByOf, type Caller } from '../events/actor';
import { formatAmount, wireStep } from '../../contract/decimal';
import { findReplay, requestHash, type IdempotencyScope } from './idempotency';
import type { NewOrderRow } from './created-order';
import { createdOrderOf } from './created-order-of';
import { newReference } from './new-reference';
import { ORDER_CREATED } from './order-lifecycle';
import { priceOrder } from './price-order';
import { finestDecimals, rescaleUnits, toStored } from './payment-options';
import { resolvePaymentOptions } from './resolve-payment-options';
import { MAX_AMOUNT_ADJUSTMENT, releaseAmount, reserveAmount, type ReservedAmount } from './unique-amount';

/** The new order's answer; `orderId`, its row's id, when this request made it (not on a replay). */
export type CreateOrderResult = { status: 201; body: OrderBody; replayed: boolean; orderId?: string };

/**
 * A subscription's period that the order bills (server/subscriptions): its fields on the order, and
 * its own payable time (`dueDays`, beyond what POST /orders allows).
 */
export type BilledPeriod = {
  subscriptionId: string;
  periodIndex: number;
  periodAttempt: number;
  periodStart: Date;
  periodEnd: Date;
  expiresAt: Date;
};

export async function createOrder(
  deps: Deps,
  input: {
    merchant: MerchantRow;
    /** Who is calling (an API key's maker is checked as the member); none for the system (a subscription's period). */
    by?: Caller;
    body: CreateOrderBody;
    idempotencyKey?: string;
    billing?: BilledPeriod;
  },
  opts: { freshWallet?: boolean } = {},
): Promise<CreateOrderResult> {
  const { merchant, body } = input;
  const scope: IdempotencyScope | null = input.idempotencyKey
    ? // Whoever made it is part of the request: a key replays an order only to its maker, never
      // another member's order to a cashier who learnt the key (it reads only its own).
      {
        merchantId: merchant.id,
        key: input.idempotencyKey,
        requestHash: requestHash({ ...body, by: createdByOf(input.by ?? null) }),
      }
    : null;
  if (scope) {
    const earlier = await findReplay<OrderBody>(deps, scope);
    if (earlier) return { status: 201, body: earlier.body, replayed: true };
  }

  const resolved = await resolvePaymentOptions(deps, merchant.id, body, { freshWallet: opts.freshWallet });
  const { tokenMint, decimals, wallet } = resolved[0]!;
  if (body.webhookUrl) await checkWebhookUrl(deps, body.webhookUrl, 'body.webhookUrl');
  // Rates come from outside: fetched before the transaction so no lock waits on the network.
  // The price is fixed once, in the first option's token; each other option asks the same in its own.
  const price = await priceOrder(deps, body, decimals);
  const extras = resolved.slice(1).map((o) => ({
    network: o.network,
    token: o.token,
    tokenMint: o.tokenMint,
    decimals: o.decimals,
    recipient: o.wallet.publicAddress,
    walletId: o.wallet.id,
    priceUnits: rescaleUnits(price.amountUnits, decimals, o.decimals),
  }));
  const sumDecimals = finestDecimals(resolved);
  const now = deps.clock();
  const billing = input.billing;
  const expiresAt =
    billing?.expiresAt ??
    new Date(now.getTime() + (body.expiresInSeconds ?? deps.config.ORDER_TTL_SECONDS) * 1000);
  const reference = newReference();
  const heldUntil = new Date(expiresAt.getTime() + deps.config.LATE_PAYMENT_WINDOW_SECONDS * 1000);

  /** The new order at `amount` (and its other options' at theirs), as written, and its response. */
  const orderAt = (amount: ReservedAmount, optionAmounts: ReservedAmount[]) => {
    const order: NewOrderRow = {
      reference,
      merchantId: merchant.id,
      walletId: wallet.id,
      network: body.network,
      token: body.token,
      tokenMint,
      tokenDecimals: decimals,
      recipient: wallet.publicAddress,
      amountUnits: amount.amountUnits,
      amountReceivedUnits: 0n,
      amountUnique: amount.unique,
      amountRefundedUnits: 0n,
      quoteCurrency: price.quote?.currency ?? null,
      quoteUnits: price.quote?.units ?? null,
      fxRate: price.quote?.rate ?? null,
      fxSource: price.quote?.source ?? null,
      quotedAt: price.quote?.at ?? null,
      status: ORDER_CREATED.to,
      description: body.description ?? null,
      metadata: body.metadata ?? null,
      webhookUrl: body.webhookUrl ?? null,
      returnUrl: body.returnUrl ?? null,
      messengerChatId: body.messengerChatId ?? null,
      txId: null,
      paidAt: null,
      paidLate: false,
      expiresAt,
      supersededAt: null,
      paymentOptions:
        extras.length === 0
          ? null
          : extras.map((o, i) =>
              toStored({
                ...o,
                amountUnits: optionAmounts[i]!.amountUnits,
                amountUnique: optionAmounts[i]!.unique,
              }),
            ),
      sumDecimals,
      paidWith: null,
      subscriptionId: billing?.subscriptionId ?? null,
      periodIndex: billing?.periodIndex ?? null,
      periodAttempt: billing?.periodAttempt ?? null,
      periodStart: billing?.periodStart ?? null,
      periodEnd: billing?.periodEnd ?? null,
      customerEmail: body.customerEmail ?? null,
      customerLanguage: body.customerLanguage ?? null,
      createdBy: createdByOf(input.by ?? null),
      kind: 'order',
      resource: null,
      payer: null,
      source: billing ? 'subscription' : (body.source ?? 'api'),
      createdAt: now,
      updatedAt: now,
    };
    const { created, presented } = createdOrderOf(deps, {
      order,
      merchant,
      by: input.by ?? null,
      audit: createdAudit(amount, optionAmounts),
      at: now,
    });
    const response = { status: 201 as const, body: presented };
    if (scope) created.idempotency = { scope, response };
    return { response, created };
  };

  /** How an option's amount was made: raised to be unique, or not unique at all. */
  const amountAudit = (amount: ReservedAmount, priceUnits: bigint, places: number) => ({
    amount: formatAmount(amount.amountUnits, places),
    ...(amount.amountUnits !== priceUnits
      ? {
          amountAdjustedFrom: formatAmount(priceUnits, places),
          reason: 'made unique among payable orders to this wallet',
        }
      : {}),
    ...(amount.unique
      ? {}
      : {
          amountUnique: false,
          reason: `no free amount within ${formatAmount(MAX_AMOUNT_ADJUSTMENT * wireStep(places), places)} of the price: matched by tag or claim only`,
        }),
  });

  const createdAudit = (amount: ReservedAmount, optionAmounts: ReservedAmount[]) => ({
    status: ORDER_CREATED.to,
    ...amountAudit(amount, price.amountUnits, decimals),
    ...(extras.length > 0
      ? {
          paymentOptions: extras.map((o, i) => ({
            network: o.network,
            token: o.token,
            ...amountAudit(optionAmounts[i]!, o.priceUnits, o.decimals),
          })),
        }
      : {}),
    ...(price.quote
      ? { quoteCurrency: price.quote.currency, fxRate: price.quote.rate, fxSource: price.quote.source }
      : {}),
    expiresAt: expiresAt.toISOString(),
  });

  try {
    // The common case, one statement: the price's own amount is free and reserved with the order.
    // Every option's price amount: with the order, each reserved on its own wallet and token.
    let amount: ReservedAmount = { amountUnits: price.amountUnits, unique: true };
    let optionAmounts: ReservedAmount[] = extras.map((o) => ({ amountUnits: o.priceUnits, unique: true }));
    let attempt = orderAt(amount, optionAmounts);
    let outcome = await deps.writeCreatedOrder({ ...attempt.created, reservation: { heldUntil } });
    if (!outcome.inserted && outcome.blockedBy === 'amount') {
      // Taken by another payable order: find a free one for each option (each try a statement that
      // holds nothing; an amount this order took in the first statement it takes again).
      const reserve = (
        o: { network: string; recipient: string; tokenMint: string },
        units: bigint,
        places: number,
      ) =>
        reserveAmount(deps, { ...o, amountUnits: units, step: wireStep(places) }, { reference, heldUntil });
      amount = await reserve(
        { network: body.network, recipient: wallet.publicAddress, tokenMint },
        price.amountUnits,
        decimals,
      );
      optionAmounts = [];
      for (const o of extras) optionAmounts.push(await reserve(o, o.priceUnits, o.decimals));
      attempt = orderAt(amount, optionAmounts);
      outcome = await deps.writeCreatedOrder(attempt.created);
    }
    if (outcome.inserted) return { ...attempt.response, replayed: false, orderId: outcome.orderId };
    if (outcome.blockedBy === 'token' || outcome.blockedBy === 'wallet') {
      await releaseAmount(deps, reference);
      if (outcome.blockedBy === 'token') {
        // The member (or a key's maker) changed since it was cached: removed, demoted, new password.
        if (input.by) deps.cache.members.forget(input.by.member.id);
        throw ApiError.unauthenticated('Token is no longer valid: log in again');
      }
      // The wallet was removed since it was cached: decide again on what the database holds.
      deps.cache.wallets.forget(merchant.id);
      if (!opts.freshWallet) return await createOrder(deps, input, { freshWallet: true });
      throw ApiError.conflict('The receiving wallet was removed while the order was being created');
    }
  } catch (error) {
    // Unanswered, the order may yet be committed (a statement delivered late, or answered and the
    // answer lost): its amounts stay held until heldUntil, never handed to another order meanwhile.
    if (!isDatabaseUnavailable(error)) await releaseAmount(deps, reference).catch(() => {});
    throw error;
  }
  // The Idempotency-Key was claimed by a request that has committed by now: its response stands.
  await releaseAmount(deps, reference);
  const earlier = scope ? await findReplay<OrderBody>(deps, scope) : null;
  if (!earlier) throw ApiError.conflict('A request with this Idempotency-Key is still in progress');
  return { status: 201, body: earlier.body, replayed: true };
}
