import { randomUUID } from 'node:crypto';
import type { EventDelivery, Merchant, MessengerDelivery, WebhookDelivery } from '../db/models';
import type { Deps } from '../deps';
import { leaseDueRows } from '../db/lease';
import { appendEvent, type DeliveryTarget, type NewEvent } from './append-events';
import { recordAudit } from './audit';
import { postJson } from './http-post';
import { eventMessengerText, type EventData } from './message-text';
import { sendTelegramMessage } from './send-telegram-message';
import { signatureHeader } from './webhook-signature';

/** A lease long enough for one send (timeout) plus recording; an expired lease is taken over. */
const leaseSeconds = (deps: Pick<Deps, 'config'>) =>
  (deps.config.WEBHOOK_TIMEOUT_MS + deps.config.WEBHOOK_LEASE_GRACE_MS) / 1000;

export type AttemptOutcome = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
  /** Honour the receiver's own retry hint (Telegram's 429 retry_after). */
  retryAfterSeconds?: number | null;
  /** Nothing will change by retrying (e.g. the bot token was removed). */
  permanent?: boolean;
  /** Not sent and not an attempt: wait (no signing secret yet) without spending the retry budget. */
  deferred?: boolean;
  /** Where it went: the webhook URL or chat id in force at send time. */
  target?: string;
  requestBody: string;
};

/** How often a held delivery (no signing secret yet) is looked at again. */
const HOLD_RECHECK_MS = 30_000;

/** Delay before retry n (n = attempts made so far): base * 2^(n-1). */
export function retryDelayMs(deps: Pick<Deps, 'config'>, attempts: number): number {
  return deps.config.WEBHOOK_RETRY_BASE_MS * 2 ** (attempts - 1);
}

/** Leases up to `batchSize` due tasks for this worker (server/db/lease.ts); the lease covers one send. */
async function claimDue(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  workerId: string,
  batchSize: number,
): Promise<string[]> {
  const rows = await leaseDueRows(deps, {
    table: 'event_deliveries',
    statuses: ['PENDING'],
    limit: batchSize,
    owner: workerId,
    seconds: leaseSeconds(deps),
    returning: ['id'],
  });
  return rows.map((r) => r.id);
}

function activeSecrets(deps: Pick<Deps, 'secrets'>, merchant: Merchant, now: Date): string[] {
  const secrets: string[] = [];
  if (merchant.webhookSecretSealed) secrets.push(deps.secrets.open(merchant.webhookSecretSealed));
  if (
    merchant.previousWebhookSecretSealed &&
    merchant.previousWebhookSecretExpiresAt &&
    merchant.previousWebhookSecretExpiresAt > now
  )
    secrets.push(deps.secrets.open(merchant.previousWebhookSecretSealed));
  return secrets;
}

/**
 * One send of one task, on its channel. Never throws: every failure is an outcome to record. An
 * event about no order (a test `ping`) goes where the merchant's profile says.
 */
export async function attemptDelivery(
  deps: Deps,
  task: EventDelivery,
  attempt: number,
): Promise<AttemptOutcome> {
  const { Event, Merchant, Order } = deps.db.models;
  const event = await Event.findByPk(task.eventId);
  const merchant = event && (await Merchant.findByPk(event.merchantId));
  const order = event?.orderId != null ? await Order.findByPk(event.orderId) : null;
  if (!event || !merchant || (event.orderId != null && !order))
    return failure('event, order or merchant missing', '', true);
  const now = deps.clock();
  const removedFrom = order ? 'the order and the profile' : 'the profile';

  // The settings in force now, not when the event was written: a merchant who corrects a wrong
  // webhook URL or chat gets the pending (and redelivered) events there.
  if (task.channel === 'webhook') {
    const url = order?.webhookUrl ?? merchant.webhookUrl;
    if (!url) return failure(`the webhook URL was removed from ${removedFrom}`, event.body, true);
    const secrets = activeSecrets(deps, merchant, now);
    if (secrets.length === 0)
      return {
        ...failure(
          'no webhook signing secret yet: create one with POST /users/me/webhook-secret',
          event.body,
        ),
        deferred: true,
      };
    const timestamp = Math.floor(now.getTime() / 1000);
    const result = await postJson(url, event.body, {
      timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
      guard: !deps.config.webhookAllowPrivate,
      headers: {
        'X-Webhook-Id': event.id,
        'X-Webhook-Timestamp': String(timestamp),
        'X-Webhook-Signature': signatureHeader(event.body, secrets, timestamp),
        'X-Webhook-Attempt': String(attempt),
      },
    });
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    return {
      ...result,
      ok,
      error: result.error ?? (ok ? null : `HTTP ${result.status}`),
      target: url,
      requestBody: event.body,
    };
  }

  const { data } = JSON.parse(event.body) as { data: EventData };
  const text = eventMessengerText(event.type, data);
  const chatId = order?.messengerChatId ?? merchant.messengerChatId;
  if (!chatId) return failure(`the messenger chat was removed from ${removedFrom}`, text, true);
  if (!merchant.messengerBotTokenSealed)
    return failure('messenger bot token was removed from the profile', text, true);
  const result = await sendTelegramMessage({
    baseUrl: deps.config.MESSENGER_API_BASE_URL,
    botToken: deps.secrets.open(merchant.messengerBotTokenSealed),
    chatId,
    text,
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
  });
  return {
    ...result,
    error: result.error ?? (result.ok ? null : `HTTP ${result.status}`),
    target: chatId,
    requestBody: text,
  };
}

function failure(error: string, requestBody: string, permanent = false): AttemptOutcome {
  return { ok: false, status: null, body: null, error, durationMs: 0, permanent, requestBody };
}

/**
 * Records an attempt and moves the task on, in one transaction: delivered, retried later with
 * backoff, or given up after WEBHOOK_MAX_ATTEMPTS. `manual` attempts (redeliver) never reschedule,
 * and neither does a worker whose lease was taken over (its attempt is still recorded).
 */
export async function recordAttempt(
  deps: Deps,
  taskId: string,
  outcome: AttemptOutcome,
  opts: { manual?: boolean; workerId?: string } = {},
) {
  const { models, sequelize } = deps.db;
  return sequelize.transaction(async (transaction) => {
    const task = await models.EventDelivery.findByPk(taskId, { transaction, lock: transaction.LOCK.UPDATE });
    const event = task && (await models.Event.findByPk(task.eventId, { transaction }));
    if (!task || !event) return null;
    const now = deps.clock();
    if (outcome.deferred) {
      // Held, not attempted: look again later; nothing is recorded and no retry is spent.
      task.nextAttemptAt = new Date(
        now.getTime() + Math.min(deps.config.WEBHOOK_RETRY_BASE_MS, HOLD_RECHECK_MS),
      );
      task.lockedUntil = null;
      task.lockedBy = null;
      task.updatedAt = now;
      await task.save({ transaction });
      return null;
    }
    const attempt = task.attempts + 1;
    // A worker that overran its lease no longer decides the schedule: the new holder does.
    const holdsLease = opts.manual || task.lockedBy === opts.workerId;
    let nextRetryAt: Date | null = null;
    if (outcome.ok) task.status = 'DELIVERED';
    else if (!opts.manual && holdsLease && task.status === 'PENDING') {
      if (outcome.permanent || attempt >= deps.config.WEBHOOK_MAX_ATTEMPTS) task.status = 'FAILED';
      else {
        const delay = Math.max(retryDelayMs(deps, attempt), (outcome.retryAfterSeconds ?? 0) * 1000);
        nextRetryAt = new Date(now.getTime() + delay);
        task.nextAttemptAt = nextRetryAt;
      }
    }
    task.attempts = attempt;
    if (holdsLease || outcome.ok) {
      task.lockedUntil = null;
      task.lockedBy = null;
    }
    task.updatedAt = now;
    await task.save({ transaction });

    const common = {
      orderId: event.orderId,
      deliveryId: task.id,
      eventType: event.type,
      attempt,
      responseStatus: outcome.status,
      responseBody: outcome.body,
      error: outcome.ok ? null : outcome.error,
      createdAt: now,
    };
    const record =
      task.channel === 'webhook'
        ? await models.WebhookDelivery.create(
            {
              ...common,
              eventId: event.id,
              url: outcome.target ?? task.target,
              requestBody: outcome.requestBody,
              durationMs: outcome.durationMs,
              nextRetryAt,
            },
            { transaction },
          )
        : await models.MessengerDelivery.create(
            {
              ...common,
              chatId: outcome.target ?? task.target,
              text: outcome.requestBody,
              status: outcome.ok ? 'SENT' : 'FAILED',
            },
            { transaction },
          );
    // The audit is an order's timeline: an event about no order (a test ping) has no entry.
    if (event.orderId !== null)
      await recordAudit(
        deps.db,
        transaction,
        {
          orderId: event.orderId,
          type: `${task.channel}.${outcome.ok ? 'delivered' : task.status === 'FAILED' ? 'gave_up' : 'failed'}`,
          actor: 'system',
          data: {
            eventId: event.id,
            eventType: event.type,
            attempt,
            ...(opts.manual ? { manual: true } : {}),
            responseStatus: outcome.status,
            ...(outcome.ok ? {} : { error: outcome.error }),
            ...(nextRetryAt ? { nextRetryAt: nextRetryAt.toISOString() } : {}),
          },
        },
        now,
      );
    return record;
  });
}

/**
 * Writes an event with one delivery task and sends it now, once (a test delivery): the task is
 * written leased to this call, so no worker takes it, and its outcome is final (a failure is not
 * retried; nothing is held for a missing secret). The same send, signature and record as every
 * delivery. Returns the recorded attempt.
 */
export async function deliverOnce(
  deps: Deps,
  event: Omit<NewEvent, 'targets'>,
  target: DeliveryTarget,
): Promise<WebhookDelivery | MessengerDelivery> {
  const owner = `once:${randomUUID()}`;
  const task = await deps.db.sequelize.transaction(async (transaction) => {
    await appendEvent(deps.db, transaction, { ...event, targets: [] });
    return deps.db.models.EventDelivery.create(
      {
        eventId: event.id,
        channel: target.channel,
        target: target.target,
        status: 'PENDING',
        attempts: 0,
        nextAttemptAt: event.at,
        lockedBy: owner,
        lockedUntil: new Date(deps.clock().getTime() + leaseSeconds(deps) * 1000),
        createdAt: event.at,
        updatedAt: event.at,
      },
      { transaction },
    );
  });
  const outcome = await attemptDelivery(deps, task, 1).catch((error: unknown): AttemptOutcome =>
    failure(error instanceof Error ? error.message : String(error), ''),
  );
  const record = await recordAttempt(
    deps,
    task.id,
    { ...outcome, deferred: false, permanent: true },
    { workerId: owner },
  );
  if (!record) throw new Error(`delivery task ${task.id} vanished`);
  return record;
}

/** One bounded batch: lease due tasks, send them concurrently, record each. Returns how many. */
export async function deliverDueEvents(
  deps: Deps,
  opts: { workerId: string; batchSize: number },
): Promise<number> {
  const ids = await claimDue(deps, opts.workerId, opts.batchSize);
  await Promise.all(
    ids.map(async (id) => {
      const task = await deps.db.models.EventDelivery.findByPk(id);
      if (!task || task.lockedBy !== opts.workerId) return;
      const outcome = await attemptDelivery(deps, task, task.attempts + 1).catch(
        (error: unknown): AttemptOutcome =>
          failure(error instanceof Error ? error.message : String(error), ''),
      );
      await recordAttempt(deps, id, outcome, { workerId: opts.workerId });
    }),
  );
  return ids.length;
}
