import { randomUUID } from 'node:crypto';
import type { Event, EventDelivery, Merchant, MessengerDelivery, Order, WebhookDelivery } from '../db/models';
import { releaseLease, renewLease } from '../db/lease';
import { wakeJob } from '../db/wake-up';
import type { Deps } from '../deps';
import { appendEvent, type DeliveryTarget, type NewEvent } from './append-events';
import { recordAudit } from './audit';
import { leaseDueDeliveries } from './lease-deliveries';
import { recordDelivered, type Delivered } from './record-delivered';
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
  return sendDelivery(deps, task, attempt, { event, merchant, order });
}

/** What a send reads besides its task (loaded one by one, or for a whole lease at once). */
type Loaded = { event: Event | null; merchant: Merchant | null; order: Order | null };

async function sendDelivery(
  deps: Deps,
  task: EventDelivery,
  attempt: number,
  { event, merchant, order }: Loaded,
): Promise<AttemptOutcome> {
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

/** How long one run keeps leasing new work; the schedule and wake-ups start the next. */
const RUN_MS = 30_000;
/** A destination whose send took (or is taking) longer than this is slow (see deliverDueEvents). */
const SLOW_SEND_MS = 1000;
/** With sends in flight and nothing leased, how often to look again (new events, freed orders). */
const IDLE_POLL_MS = 100;
/**
 * Tasks of one (not slow) destination leased at once, in sends of the destination's bound: reading
 * and recording them overlaps the requests in flight.
 */
const PIPELINE = 4;

/** The leased tasks with what their sends read, in four statements for the whole lease. */
async function loadLeased(deps: Deps, ids: string[]) {
  const { Event, EventDelivery, Merchant, Order } = deps.db.models;
  const tasks = await EventDelivery.findAll({ where: { id: ids } });
  const events = new Map(
    (await Event.findAll({ where: { id: tasks.map((t) => t.eventId) } })).map((e) => [e.id, e]),
  );
  const orderIds = [...events.values()].flatMap((e) => (e.orderId == null ? [] : [e.orderId]));
  const orders = new Map(
    (orderIds.length > 0 ? await Order.findAll({ where: { id: orderIds } }) : []).map((o) => [
      String(o.id),
      o,
    ]),
  );
  const merchantIds = [...new Set([...events.values()].map((e) => e.merchantId))];
  const merchants = new Map(
    (merchantIds.length > 0 ? await Merchant.findAll({ where: { id: merchantIds } }) : []).map((m) => [
      m.id,
      m,
    ]),
  );
  return new Map(
    tasks.map((task) => {
      const event = events.get(task.eventId) ?? null;
      const loaded: Loaded = {
        event,
        merchant: (event && merchants.get(event.merchantId)) ?? null,
        order: (event?.orderId != null && orders.get(String(event.orderId))) || null,
      };
      return [String(task.id), { task, loaded }];
    }),
  );
}

/**
 * One bounded run of the sender: a rolling pool of at most `batchSize` tasks, each leased
 * (server/events/lease-deliveries.ts) before it is sent and recorded, so nothing is held only in
 * memory: a worker that dies loses its leases when they run out and another one sends them. It
 * keeps leasing while there is due work, until nothing is due and nothing is in flight, until
 * `signal` aborts (shutdown), or for `runMs` (30 s; then it wakes the next run at once); then it
 * waits for its sends in flight and returns how many it handled.
 *
 * At most WEBHOOK_CONCURRENCY_PER_DESTINATION requests to one destination (a channel and a
 * merchant) are in flight here at once. Leases are counted per destination across every worker:
 * a destination whose answers come fast is leased up to PIPELINE times that (its next sends ready
 * while the others are answered), any other (new, or slow: a send over a second, its tasks waiting
 * for a request then given back) no more than that, anywhere. So a slow or dead receiver holds
 * that many of all the senders' pools, and the other merchants' webhooks keep the rest. In the
 * last WEBHOOK_TIMEOUT_MS of the run a slow destination gets no new sends, so the run does not end
 * waiting on one (holding everyone's next run back).
 */
export async function deliverDueEvents(
  deps: Deps,
  opts: { workerId: string; batchSize: number; runMs?: number; signal?: AbortSignal },
): Promise<number> {
  const perDestination = deps.config.WEBHOOK_CONCURRENCY_PER_DESTINATION;
  const started = performance.now();
  const runMs = opts.runMs ?? RUN_MS;
  const lastStretch = started + runMs - deps.config.WEBHOOK_TIMEOUT_MS;
  const log = deps.logger.child({ component: 'deliver-events', workerId: opts.workerId });
  const owner = opts.workerId;
  /** Tasks leased and not yet done, per destination. */
  const held = new Map<string, number>();
  /** Requests in flight per destination, with when each started, and the tasks waiting for one. */
  const sending = new Map<string, number[]>();
  const waiting = new Map<string, (() => void)[]>();
  /** Destinations whose last request took longer than SLOW_SEND_MS. */
  const slow = new Set<string>();
  /** Destinations whose last request took no longer: these lease ahead (PIPELINE). */
  const fast = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let handled = 0;
  let wake: (() => void) | null = null;
  /** Tasks finished so far: one that finishes while a lease is asked for frees room for the next. */
  let finished = 0;

  const requestsOf = (d: string) => sending.get(d) ?? [];
  const isSlow = (d: string, t = performance.now()) =>
    slow.has(d) || requestsOf(d).some((at) => t - at > SLOW_SEND_MS);
  /**
   * Takes a request slot of `d` (when it started; give it back with `free`), waiting for one while
   * `d` is not slow; null when it turned slow meanwhile.
   */
  const take = async (d: string): Promise<number | null> => {
    for (;;) {
      const requests = requestsOf(d);
      if (requests.length < perDestination) {
        const at = performance.now();
        requests.push(at);
        sending.set(d, requests);
        return at;
      }
      if (isSlow(d)) return null;
      await new Promise<void>((resolve) => {
        const queue = waiting.get(d) ?? [];
        queue.push(resolve);
        waiting.set(d, queue);
        setTimeout(resolve, SLOW_SEND_MS).unref();
      });
    }
  };
  const free = (d: string, at: number) => {
    const requests = requestsOf(d);
    requests.splice(requests.indexOf(at), 1);
    if (requests.length === 0) sending.delete(d);
    // Every waiter looks again (one may be gone: its timer woke it); the first ones take the slots.
    for (const resolve of waiting.get(d)?.splice(0) ?? []) resolve();
  };

  /** Delivered webhooks waiting to be recorded together, and the write that will record them. */
  let toRecord: Delivered[] = [];
  let recording: Promise<void> | null = null;
  const recordSoon = (item: Delivered): Promise<void> => {
    toRecord.push(item);
    // Those that come in while a write is on its way go in the next one.
    recording ??= (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const items = toRecord;
      toRecord = [];
      recording = null;
      await recordDelivered(deps, items);
    })();
    return recording;
  };

  const send = async (id: string, destination: string, leased: { task: EventDelivery; loaded: Loaded }) => {
    const { task, loaded } = leased;
    if (task.lockedBy !== owner) return;
    const queuedAt = performance.now();
    const at = await take(destination);
    if (at === null) {
      // Its receiver is slow: given back now rather than held behind the requests in flight.
      await releaseLease(deps, { table: 'event_deliveries', key: { id }, owner });
      return;
    }
    let outcome: AttemptOutcome;
    try {
      // Waited for its turn long enough to matter: the lease covers the send from now.
      const key = { id };
      if (
        at - queuedAt > SLOW_SEND_MS &&
        !(await renewLease(deps, { table: 'event_deliveries', key, owner, seconds: leaseSeconds(deps) }))
      )
        return;
      outcome = await sendDelivery(deps, task, task.attempts + 1, loaded).catch(
        (error: unknown): AttemptOutcome =>
          failure(error instanceof Error ? error.message : String(error), ''),
      );
    } finally {
      free(destination, at);
    }
    if (outcome.durationMs > SLOW_SEND_MS) {
      slow.add(destination);
      fast.delete(destination);
    } else {
      slow.delete(destination);
      fast.add(destination);
    }
    if (outcome.ok && task.channel === 'webhook')
      await recordSoon({
        id,
        url: outcome.target ?? task.target,
        requestBody: outcome.requestBody,
        responseStatus: outcome.status,
        responseBody: outcome.body,
        durationMs: outcome.durationMs,
      });
    else await recordAttempt(deps, id, outcome, { workerId: owner });
    handled++;
  };
  const start = (
    id: string,
    destination: string,
    leased: { task: EventDelivery; loaded: Loaded } | undefined,
  ) => {
    held.set(destination, (held.get(destination) ?? 0) + 1);
    const p = (leased ? send(id, destination, leased) : Promise.resolve())
      .catch((err: unknown) => {
        // Not recorded (the database failed): the lease runs out and the task is sent again.
        log.error({ err, deliveryId: id }, 'delivery not recorded');
      })
      .finally(() => {
        const left = (held.get(destination) ?? 1) - 1;
        if (left > 0) held.set(destination, left);
        else held.delete(destination);
        inFlight.delete(p);
        finished++;
        wake?.();
      });
    inFlight.add(p);
  };

  let idle = false;
  try {
    while (!opts.signal?.aborted && performance.now() - started < runMs) {
      const room = opts.batchSize - inFlight.size;
      const busy = inFlight.size;
      const finishedBefore = finished;
      let leased = 0;
      if (room > 0) {
        const t = performance.now();
        const caps = new Map<string, number>();
        for (const d of new Set([...held.keys(), ...slow, ...fast])) {
          const late = t >= lastStretch && isSlow(d, t);
          caps.set(d, late ? 0 : fast.has(d) && !isSlow(d, t) ? perDestination * PIPELINE : perDestination);
        }
        const rows = await leaseDueDeliveries(deps, {
          owner,
          seconds: leaseSeconds(deps),
          limit: room,
          perDestination,
          cap: caps,
          // Full by this run's own count: the statement need not look (other workers' leases count there).
          excluded: [...caps].filter(([d, n]) => n - (held.get(d) ?? 0) <= 0).map(([d]) => d),
        });
        const loaded =
          rows.length > 0
            ? await loadLeased(
                deps,
                rows.map((r) => r.id),
              )
            : new Map();
        for (const row of rows) start(row.id, row.destination, loaded.get(String(row.id)));
        leased = rows.length;
      }
      // Done only when nothing of this run's was in flight as it asked: tasks of its own it held
      // (whole destinations left out) may have finished while it asked, with more of theirs due.
      if (leased === 0 && busy === 0) {
        idle = true;
        break;
      }
      if (finished === finishedBefore && (leased === 0 || inFlight.size >= opts.batchSize))
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        }).finally(() => (wake = null));
    }
    // Cut off by its time, not out of work: the next run starts as soon as this one ends (in every
    // instance, as after new events), not at the next scheduled tick.
    if (!idle && !opts.signal?.aborted) await wakeJob(deps.db.sequelize, 'deliver-events');
  } finally {
    await Promise.allSettled([...inFlight]);
  }
  return handled;
}
