import { QueryTypes, type Transaction } from 'sequelize';
import type { AuditKind, EventType } from '../../contract';
import type { Actor } from './actor';
import type { Deps } from '../deps';

/** What moving a status needs: the database, the clock, and what events are rendered with. */
type LifecycleDeps = Pick<Deps, 'db' | 'config' | 'chains' | 'clock' | 'secrets' | 'cache'>;
import { recordAudit } from './audit';

/**
 * One allowed move of a lifecycle: from one of `from`, for `cause`, to `to`, with the event it sends
 * and the timeline entry it writes (null: none; a move that keeps the status may still send one).
 * `from` is empty for the row that creates the thing.
 */
export type Transition<S extends string, C extends string> = {
  from: readonly S[];
  cause: C;
  to: S;
  event: EventType | null;
  audit: AuditKind | null;
};

/** A thing with a status that moves by a table (an order, a refund, a payment claim). */
export type LifecycleEntity<S extends string> = {
  id: string;
  status: S;
  updatedAt: Date;
  save(options: { transaction: Transaction }): Promise<unknown>;
};

/**
 * A lifecycle: its table of transitions, its rows' table (for the lock), the order whose timeline
 * it writes to, and how its events are sent (beside what the caller gives them to carry).
 */
export type Lifecycle<S extends string, C extends string, E extends LifecycleEntity<S>, X = undefined> = {
  name: string;
  table: 'orders' | 'refunds' | 'payment_claims' | 'subscriptions' | 'payouts' | 'payout_items';
  transitions: readonly Transition<S, C>[];
  /** The order whose timeline the entries go to; none for a lifecycle whose rows write no entry. */
  orderIdOf?(entity: E): string;
  /** Whether the timeline entry says `from` and `to` (an order's status.changed) or only the caller's data. */
  auditStatus: boolean;
  emit?(
    deps: LifecycleDeps,
    transaction: Transaction,
    entity: E,
    event: EventType,
    at: Date,
    extra: X | undefined,
    /** Who caused it: an event a person caused names it (eventActorFields). */
    actor: Actor,
  ): Promise<unknown>;
};

export class TransitionRefused extends Error {}

function timelineOf<E>(lifecycle: { name: string; orderIdOf?(entity: E): string }, entity: E): string {
  if (!lifecycle.orderIdOf) throw new Error(`${lifecycle.name}: its transitions write no timeline entry`);
  return lifecycle.orderIdOf(entity);
}

/** The row of `lifecycle` for this move, or a TransitionRefused naming it. */
export function transitionOf<S extends string, C extends string>(
  lifecycle: { name: string; transitions: readonly Transition<S, C>[] },
  from: S | null,
  cause: C,
  to: S,
): Transition<S, C> {
  const row = lifecycle.transitions.find(
    (t) => t.cause === cause && t.to === to && (from === null ? t.from.length === 0 : t.from.includes(from)),
  );
  if (!row)
    throw new TransitionRefused(
      `${lifecycle.name}: no transition from ${from ?? '(new)'} to ${to} on ${cause}`,
    );
  return row;
}

/** Where a cause can take a thing in `from`: the statuses of its rows (for the callers' fact rules). */
export const targetsOf = <S extends string, C extends string>(
  lifecycle: { transitions: readonly Transition<S, C>[] },
  from: S,
  cause: C,
): S[] => lifecycle.transitions.filter((t) => t.cause === cause && t.from.includes(from)).map((t) => t.to);

/**
 * The one way a status moves. In the caller's transaction, with the thing's row locked (taken here
 * FOR UPDATE, already held when the caller locked it): checks the move against the table (and the
 * row against the thing as the caller read it), sets the status and the other changes the caller
 * made, stamps `updatedAt`, writes the timeline entry and sends the event, all committed together.
 */
export async function applyTransition<S extends string, C extends string, E extends LifecycleEntity<S>, X>(
  deps: LifecycleDeps,
  transaction: Transaction,
  lifecycle: Lifecycle<S, C, E, X>,
  entity: E,
  change: {
    cause: C;
    to: S;
    actor: Actor;
    reason?: string;
    data?: Record<string, unknown>;
    /** What the event carries beside the thing (the payment that caused it, say). */
    extra?: X;
  },
): Promise<Transition<S, C>> {
  const from = entity.status;
  const row = transitionOf(lifecycle, from, change.cause, change.to);
  const [locked] = await deps.db.sequelize.query<{ status: string }>(
    `SELECT status FROM ${lifecycle.table} WHERE id = :id FOR UPDATE`,
    { type: QueryTypes.SELECT, replacements: { id: entity.id }, transaction },
  );
  if (locked?.status !== from)
    throw new TransitionRefused(`${lifecycle.name} ${entity.id} is ${locked?.status ?? 'gone'}, not ${from}`);
  const now = deps.clock();
  entity.status = change.to;
  entity.updatedAt = now;
  await entity.save({ transaction });
  if (row.audit)
    await recordAudit(
      deps.db,
      transaction,
      {
        orderId: timelineOf(lifecycle, entity),
        type: row.audit,
        actor: change.actor,
        data: {
          ...(lifecycle.auditStatus ? { from, to: change.to } : {}),
          ...(change.reason === undefined ? {} : { reason: change.reason }),
          ...change.data,
        },
      },
      now,
    );
  if (row.event && lifecycle.emit)
    await lifecycle.emit(deps, transaction, entity, row.event, now, change.extra, change.actor);
  return row;
}

/**
 * The creation of a thing, as its table's row from nothing says: the caller inserted it (in this
 * transaction, in the status the row names); its timeline entry and event follow here.
 */
export async function recordCreation<S extends string, C extends string, E extends LifecycleEntity<S>, X>(
  deps: LifecycleDeps,
  transaction: Transaction,
  lifecycle: Lifecycle<S, C, E, X>,
  entity: E,
  change: { cause: C; actor: Actor; data?: Record<string, unknown>; extra?: X },
): Promise<Transition<S, C>> {
  const row = transitionOf(lifecycle, null, change.cause, entity.status);
  const now = deps.clock();
  if (row.audit)
    await recordAudit(
      deps.db,
      transaction,
      { orderId: timelineOf(lifecycle, entity), type: row.audit, actor: change.actor, data: change.data },
      now,
    );
  if (row.event && lifecycle.emit)
    await lifecycle.emit(deps, transaction, entity, row.event, now, change.extra, change.actor);
  return row;
}
