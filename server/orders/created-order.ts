import { auditActor, type Actor } from '../events/actor';
import type { DeliveryTarget } from '../events/append-events';
import type { IdempotencyScope } from './idempotency';
import type { OrderView } from './present-order';

/** A new order's row: every column but the identity, written as it is (no column left to a default). */
export type NewOrderRow = Omit<OrderView, 'id'>;

/** A new order and what is written with it: its first audit entry, its order.created event and delivery tasks. */
export type CreatedOrder = {
  order: NewOrderRow;
  /** Who made it, as its first audit entry names it (a caller's fields join `audit`). */
  actor: Actor;
  audit: Record<string, unknown>;
  /** The order.created event; its body presents `order`, the row as written. */
  event: { id: string; body: string };
  targets: DeliveryTarget[];
  /**
   * Checked by the statement itself, whatever the caller read before: the member acting (a key's
   * maker) is still in the account, at this token version (no order under a token a password
   * change, a removal or a demotion ended); null for the system (a subscription's period). The
   * wallet is checked to be still in use too.
   */
  actingMember: { id: string; tokenVersion: number } | null;
  /**
   * Reserves the order's amount with it (the common case: the price's amount is free), and each of
   * its other payment options' amounts (all or none: an option's taken amount blocks the order).
   */
  reservation?: { heldUntil: Date };
  /** Claims the Idempotency-Key (the order's merchant's) with the response already in it. */
  idempotency?: { scope: IdempotencyScope; response: { status: number; body: unknown } };
};

export type InsertOutcome =
  { inserted: true; orderId: string } | { inserted: false; blockedBy: 'amount' | 'key' | 'token' | 'wallet' };

export type SqlType = 'text' | 'uuid' | 'bigint' | 'numeric' | 'boolean' | 'int' | 'jsonb' | 'timestamptz';

/** Every column of a new order with its type: a field added to orders must be added here to compile. */
const ORDER_COLUMNS: { [K in keyof NewOrderRow]-?: SqlType } = {
  reference: 'text',
  merchantId: 'uuid',
  walletId: 'uuid',
  network: 'text',
  token: 'text',
  tokenMint: 'text',
  tokenDecimals: 'int',
  recipient: 'text',
  amountUnits: 'numeric',
  amountReceivedUnits: 'numeric',
  amountUnique: 'boolean',
  amountRefundedUnits: 'numeric',
  quoteCurrency: 'text',
  quoteUnits: 'bigint',
  fxRate: 'text',
  fxSource: 'text',
  quotedAt: 'timestamptz',
  status: 'text',
  description: 'text',
  metadata: 'jsonb',
  webhookUrl: 'text',
  returnUrl: 'text',
  messengerChatId: 'text',
  txId: 'text',
  paidAt: 'timestamptz',
  paidLate: 'boolean',
  expiresAt: 'timestamptz',
  supersededAt: 'timestamptz',
  paymentOptions: 'jsonb',
  sumDecimals: 'int',
  paidWith: 'int',
  subscriptionId: 'text',
  periodIndex: 'int',
  periodAttempt: 'int',
  periodStart: 'timestamptz',
  periodEnd: 'timestamptz',
  customerEmail: 'text',
  customerLanguage: 'text',
  createdBy: 'jsonb',
  kind: 'text',
  resource: 'text',
  payer: 'text',
  source: 'text',
  createdAt: 'timestamptz',
  updatedAt: 'timestamptz',
};

/** What each new order brings to its statement beside its row. */
type Extras = {
  memberId: string | null;
  tokenVersion: number | null;
  reserve: boolean;
  heldUntil: Date | null;
  auditActor: string;
  audit: Record<string, unknown>;
  eventId: string;
  eventBody: string;
  idemKey: string | null;
  idemHash: string | null;
  idemStatus: number | null;
  idemBody: unknown;
};
const EXTRA_COLUMNS: { [K in keyof Extras]-?: SqlType } = {
  memberId: 'uuid',
  tokenVersion: 'int',
  reserve: 'boolean',
  heldUntil: 'timestamptz',
  auditActor: 'text',
  audit: 'jsonb',
  eventId: 'text',
  eventBody: 'text',
  idemKey: 'text',
  idemHash: 'text',
  idemStatus: 'int',
  idemBody: 'jsonb',
};

export type InputRow = NewOrderRow & Extras;
export type InputColumn = { name: keyof InputRow; column: string; type: SqlType };

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const columns = (types: Record<string, SqlType>) =>
  Object.entries(types).map(([name, type]) => ({ name, column: snake(name), type }) as InputColumn);

/** The order's own columns, in the statement's order. */
export const ORDER_INPUT = columns(ORDER_COLUMNS);
/** Every value a new order binds: its columns, then the extras. */
export const INPUT = [...ORDER_INPUT, ...columns(EXTRA_COLUMNS)];

/** A value as the statements bind it: bigints and JSON as their text, absent as NULL. */
export function bound(value: unknown, type: SqlType): unknown {
  if (value === undefined || value === null) return null;
  if (type === 'bigint' || type === 'numeric') return String(value);
  if (type === 'jsonb') return JSON.stringify(value);
  return value;
}

/** The values a new order binds, by name. */
export function inputRow(created: CreatedOrder): InputRow {
  const claim = created.idempotency;
  if (claim && claim.scope.merchantId !== created.order.merchantId)
    throw new Error("an order claims its own merchant's Idempotency-Key");
  const by = auditActor(created.actor);
  // Fields assigned onto the row, not spread into a literal with more after it: V8's slow path.
  return Object.assign({}, created.order, {
    memberId: created.actingMember?.id ?? null,
    tokenVersion: created.actingMember?.tokenVersion ?? null,
    reserve: created.reservation !== undefined,
    heldUntil: created.reservation?.heldUntil ?? null,
    auditActor: by.actor,
    audit: Object.assign({}, created.audit, by.fields),
    eventId: created.event.id,
    eventBody: created.event.body,
    idemKey: claim?.scope.key ?? null,
    idemHash: claim?.scope.requestHash ?? null,
    idemStatus: claim?.response.status ?? null,
    idemBody: claim?.response.body ?? null,
  });
}
