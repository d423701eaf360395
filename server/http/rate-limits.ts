import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Sequelize } from 'sequelize';
import { ErrorCode } from '../../contract';
import type { Config } from '../config';
import { createLoginAttempts, RATE_LIMIT_TABLE } from './login-attempts';
import { countRateLimit, rateLimitHeaders } from './rate-limit-headers';
import { createSharedQuota } from './shared-quota';
import { ApiError } from '../errors';

/**
 * Rate limits whose counters live in PostgreSQL, so every instance behind a load balancer counts
 * against the same numbers (rate-limiter-flexible's PostgreSQL store, on the service's own pool;
 * logins count in the same table through statements of their own, see createLoginAttempts).
 * Every answer to a request that a limit counted says where that limit stands (RateLimit-Limit,
 * RateLimit-Remaining, RateLimit-Reset: see countRateLimit), a 429 also when to come back
 * (Retry-After).
 */
export type RateLimits = {
  /** Failed logins per client and e-mail, and per client (5× as many): a success gives its point back. */
  login: RequestHandler;
  /**
   * Two-factor codes per member (LOGIN_RATE_LIMIT_MAX a LOGIN_RATE_LIMIT_WINDOW_SECONDS, as
   * passwords): a point is taken before the code is checked and a success (an answer below 400)
   * gives it back; full of failures, even a correct code is refused (429) until the window ends.
   */
  secondFactor(memberId: string, res: Response): Promise<void>;
  /** Authenticated calls per merchant and second (API_RATE_LIMIT_PER_SECOND). */
  merchant(merchantId: string, res: Response): Promise<void>;
  /** Public routes per client address and minute (TRUST_PROXY decides which address that is). */
  publicRoute: RequestHandler;
  /** The payer's refund-address form (a public write), per client address, on top of publicRoute. */
  refundAddress: RequestHandler;
  /** Test deliveries (POST /users/me/webhook-test, /messenger-test) per merchant and channel and minute. */
  testDelivery(merchantId: string, channel: 'webhook' | 'messenger', res: Response): Promise<void>;
};

/** Test deliveries a merchant may send per channel and minute. */
export const TEST_DELIVERIES_PER_MINUTE = 5;

function limiter(sequelize: Sequelize, keyPrefix: string, points: number, duration: number) {
  return new RateLimiterPostgres({
    storeClient: sequelize,
    storeType: 'sequelize',
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true, // by migration 0006
    keyPrefix,
    points,
    duration,
    // Once a key is over its limit, this instance answers it from memory until the window ends:
    // a flood costs no database write per request. (Nothing gives these points back.)
    inMemoryBlockOnConsumed: points,
    inMemoryBlockDuration: duration,
  });
}

/** A 429; with the refusing quota's limit, its RateLimit-* headers too (nothing left until it resets). */
function limited(message: string, msBeforeNext: number, limit?: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(ErrorCode.RATE_LIMITED, message, undefined, {
    'Retry-After': String(seconds),
    ...(limit === undefined ? {} : rateLimitHeaders({ limit, remaining: 0, resetMs: msBeforeNext })),
  });
}

/** A refusal by the limiter is a RateLimiterRes; anything else (the database is down) is an error. */
function rejection(message: string, error: unknown, limiter?: RateLimiterPostgres): unknown {
  return error instanceof RateLimiterRes ? limited(message, error.msBeforeNext, limiter?.points) : error;
}

/**
 * Runs a rate-limiter-flexible limiter as middleware: its answer (taken or refused) sets the
 * RateLimit-* headers; a refusal is a 429, anything else (the database is down) an error.
 */
function consuming(limiter: RateLimiterPostgres, message: string): RequestHandler {
  const counted = (res: Response, answer: RateLimiterRes) =>
    countRateLimit(res, {
      limit: limiter.points,
      remaining: answer.remainingPoints,
      resetMs: answer.msBeforeNext,
    });
  return (req, res, next) => {
    limiter.consume(clientAddress(req)).then(
      (answer) => {
        counted(res, answer);
        next();
      },
      (error: unknown) => {
        if (!(error instanceof RateLimiterRes)) return next(error);
        counted(res, error);
        next(limited(message, error.msBeforeNext, limiter.points));
      },
    );
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The client's address as keys use it. An address is at most 45 characters (IPv6), but with
 * TRUST_PROXY it comes from X-Forwarded-For, which a client may fill with anything: a longer value
 * is hashed, so no key outgrows the table's varchar(255).
 */
const clientAddress = (req: Request) => {
  const ip = req.ip ?? 'unknown';
  return ip.length <= 64 ? ip : `#${digest(ip)}`;
};

type Attempts = ReturnType<typeof createLoginAttempts>;
type Held = Extract<Awaited<ReturnType<Attempts['admit']>>, { held: unknown }>['held'];

/**
 * An attempt admitted: its points are the answer's to settle. Each counter took this attempt's
 * point; an answer below 400 is a success and gives it back, any other, or a client gone before
 * the answer, is a failure and keeps it.
 */
function holdUntilAnswered(res: Response, attempts: Attempts, held: Held) {
  for (const { limit, points, resetMs } of held)
    countRateLimit(res, (status) => ({
      limit,
      remaining: limit - points + (status < 400 ? 1 : 0),
      resetMs,
    }));
  let settled = false;
  const settle = (success: boolean) => {
    if (settled) return;
    settled = true;
    void attempts.settle(held, success);
  };
  res.once('finish', () => settle(res.statusCode < 400));
  res.once('close', () => settle(false));
}

export function createRateLimits(config: Config, sequelize: Sequelize): RateLimits {
  const loginAttempts = createLoginAttempts(
    sequelize,
    [
      { prefix: 'login:client-email', limit: config.LOGIN_RATE_LIMIT_MAX },
      { prefix: 'login:client', limit: config.LOGIN_RATE_LIMIT_MAX * 5 },
    ],
    config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
  );
  const codeAttempts = createLoginAttempts(
    sequelize,
    [{ prefix: 'two-factor:member', limit: config.LOGIN_RATE_LIMIT_MAX }],
    config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000,
  );
  // The hot path: every authenticated call. Taken in shares, not a database write per request.
  const perMerchant = createSharedQuota(sequelize, {
    prefix: 'api:merchant',
    limit: config.API_RATE_LIMIT_PER_SECOND,
    windowSeconds: 1,
  });
  const perAddress = limiter(sequelize, 'public:client', config.PUBLIC_RATE_LIMIT_PER_MINUTE, 60);
  const perAddressRefund = limiter(
    sequelize,
    'refund-address:client',
    config.REFUND_ADDRESS_RATE_LIMIT_MAX,
    config.REFUND_ADDRESS_RATE_LIMIT_WINDOW_SECONDS,
  );
  const perMerchantTest = limiter(sequelize, 'test-delivery:merchant', TEST_DELIVERIES_PER_MINUTE, 60);
  const tooManyLogins = 'Too many failed attempts: wait before trying again';

  return {
    login(req: Request, res: Response, next: NextFunction) {
      const email = (req.body as { email?: unknown } | undefined)?.email;
      const client = clientAddress(req);
      // The e-mail as login compares it; hashed, so a key has a bounded length (and no address in clear).
      const byEmail = `${client}|${digest(typeof email === 'string' ? email.trim().toLowerCase() : '')}`;
      loginAttempts.admit([byEmail, client]).then((admission) => {
        if ('retryAfterMs' in admission) {
          countRateLimit(res, { limit: admission.limit, remaining: 0, resetMs: admission.resetMs });
          return next(limited(tooManyLogins, admission.retryAfterMs));
        }
        holdUntilAnswered(res, loginAttempts, admission.held);
        next();
      }, next);
    },

    async secondFactor(memberId, res) {
      const admission = await codeAttempts.admit([memberId]);
      if ('retryAfterMs' in admission) {
        countRateLimit(res, { limit: admission.limit, remaining: 0, resetMs: admission.resetMs });
        throw limited('Too many wrong codes: wait before trying again', admission.retryAfterMs);
      }
      holdUntilAnswered(res, codeAttempts, admission.held);
    },

    async merchant(merchantId, res) {
      const answer = await perMerchant(merchantId);
      countRateLimit(res, answer);
      if (!answer.allowed)
        throw new ApiError(
          ErrorCode.RATE_LIMITED,
          `Too many requests: at most ${config.API_RATE_LIMIT_PER_SECOND} per second`,
          undefined,
          { 'Retry-After': String(Math.max(1, Math.ceil(answer.resetMs / 1000))) },
        );
    },

    publicRoute: consuming(perAddress, 'Too many requests: slow down'),

    refundAddress: consuming(perAddressRefund, 'Too many refund address attempts: wait before trying again'),

    async testDelivery(merchantId, channel, res) {
      const counted = (answer: RateLimiterRes) =>
        countRateLimit(res, {
          limit: TEST_DELIVERIES_PER_MINUTE,
          remaining: answer.remainingPoints,
          resetMs: answer.msBeforeNext,
        });
      try {
        counted(await perMerchantTest.consume(`${merchantId}:${channel}`));
      } catch (error) {
        if (error instanceof RateLimiterRes) counted(error);
        throw rejection(
          `Too many test deliveries: at most ${TEST_DELIVERIES_PER_MINUTE} a minute per channel`,
          error,
          perMerchantTest,
        );
      }
    },
  };
}
