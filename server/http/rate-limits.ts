import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Sequelize } from 'sequelize';
import { ErrorCode } from '../../contract';
import type { Config } from '../config';
import { createLoginAttempts, RATE_LIMIT_TABLE } from './login-attempts';
import { createSharedQuota } from './shared-quota';
import { ApiError } from '../errors';

/**
 * Rate limits whose counters live in PostgreSQL, so every instance behind a load balancer counts
 * against the same numbers (rate-limiter-flexible's PostgreSQL store, on the service's own pool;
 * logins count in the same table through statements of their own, see createLoginAttempts).
 */
export type RateLimits = {
  /** Failed logins per client and e-mail, and per client (5× as many): a success gives its point back. */
  login: RequestHandler;
  /** Authenticated calls per merchant and second (API_RATE_LIMIT_PER_SECOND). */
  merchant(merchantId: string): Promise<void>;
  /** Public routes per client address and minute (TRUST_PROXY decides which address that is). */
  publicRoute: RequestHandler;
  /** The payer's refund-address form (a public write), per client address, on top of publicRoute. */
  refundAddress: RequestHandler;
};

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

function limited(message: string, msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(ErrorCode.RATE_LIMITED, message, undefined, { 'Retry-After': String(seconds) });
}

/** A refusal by the limiter is a RateLimiterRes; anything else (the database is down) is an error. */
function rejection(message: string, error: unknown): unknown {
  return error instanceof RateLimiterRes ? limited(message, error.msBeforeNext) : error;
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

export function createRateLimits(config: Config, sequelize: Sequelize): RateLimits {
  const loginAttempts = createLoginAttempts(
    sequelize,
    [
      { prefix: 'login:client-email', limit: config.LOGIN_RATE_LIMIT_MAX },
      { prefix: 'login:client', limit: config.LOGIN_RATE_LIMIT_MAX * 5 },
    ],
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
  const tooManyLogins = 'Too many failed attempts: wait before trying again';

  return {
    login(req: Request, res: Response, next: NextFunction) {
      const email = (req.body as { email?: unknown } | undefined)?.email;
      const client = clientAddress(req);
      // The e-mail as login compares it; hashed, so a key has a bounded length (and no address in clear).
      const byEmail = `${client}|${digest(typeof email === 'string' ? email.trim().toLowerCase() : '')}`;
      loginAttempts.admit([byEmail, client]).then((admission) => {
        if ('retryAfterMs' in admission) return next(limited(tooManyLogins, admission.retryAfterMs));
        // Any answer below 400 is a success and gives the points back; any other, or a client
        // gone before the answer, is a failure and keeps them.
        let settled = false;
        const settle = (success: boolean) => {
          if (settled) return;
          settled = true;
          void loginAttempts.settle(admission.held, success);
        };
        res.once('finish', () => settle(res.statusCode < 400));
        res.once('close', () => settle(false));
        next();
      }, next);
    },

    async merchant(merchantId) {
      const answer = await perMerchant(merchantId);
      if (!answer.allowed)
        throw new ApiError(
          ErrorCode.RATE_LIMITED,
          `Too many requests: at most ${config.API_RATE_LIMIT_PER_SECOND} per second`,
          undefined,
          { 'Retry-After': String(Math.max(1, Math.ceil(answer.retryAfterMs / 1000))) },
        );
    },

    publicRoute(req, _res, next) {
      perAddress.consume(clientAddress(req)).then(
        () => next(),
        (error: unknown) => next(rejection('Too many requests: slow down', error)),
      );
    },

    refundAddress(req, _res, next) {
      perAddressRefund.consume(clientAddress(req)).then(
        () => next(),
        (error: unknown) =>
          next(rejection('Too many refund address attempts: wait before trying again', error)),
      );
    },
  };
}
