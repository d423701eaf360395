import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type Options } from 'express-rate-limit';
import { ErrorCode } from '../../contract';
import { ApiError } from '../errors';
import type { Config } from '../config';

function limitReached(message: string): Options['handler'] {
  return (req, _res, next, options) => {
    const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
    const seconds = reset
      ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000))
      : Math.ceil(options.windowMs / 1000);
    next(new ApiError(ErrorCode.RATE_LIMITED, message, undefined, { 'Retry-After': String(seconds) }));
  };
}

const clientIp = (req: Request) => ipKeyGenerator(req.ip ?? 'unknown');

/**
 * Failed logins count against the client and the e-mail tried, and against the client alone
 * (so spraying many e-mails is capped too). Successful logins do not count.
 * The store is in memory: with several instances each keeps its own counts.
 */
export function loginRateLimits(config: Config): RequestHandler[] {
  const windowMs = config.LOGIN_RATE_LIMIT_WINDOW_SECONDS * 1000;
  const common = {
    windowMs,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-7' as const,
    legacyHeaders: false,
    handler: limitReached('Too many failed attempts: wait before trying again'),
  };
  const email = (req: Request) => {
    const value = (req.body as { email?: unknown } | undefined)?.email;
    return typeof value === 'string' ? value.trim().toLowerCase().slice(0, 254) : '';
  };
  return [
    rateLimit({
      ...common,
      limit: config.LOGIN_RATE_LIMIT_MAX,
      keyGenerator: (req) => `${clientIp(req)}|${email(req)}`,
    }),
    rateLimit({ ...common, limit: config.LOGIN_RATE_LIMIT_MAX * 5, keyGenerator: clientIp }),
  ];
}

export function apiRateLimit(config: Config): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: config.API_RATE_LIMIT_PER_MINUTE,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: clientIp,
    handler: limitReached('Too many requests: slow down'),
  });
}
