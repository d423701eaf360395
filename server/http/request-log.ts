import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../lib/logger';
import { redactSecretPaths } from '../lib/redact-refund-ids';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id: the caller's X-Request-Id when well-formed, else a new UUID. Echoed back. */
    id?: string;
  }
}

/** Probes and scrapes, polled every few seconds: not worth a line each. */
const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);
const GIVEN_ID = /^[\w.-]{1,100}$/;

/**
 * One short line per request, written when the response has gone: method, path, status and time,
 * with the request id, and no header dump (headers hold tokens, cookies and noise). The query
 * string is left out: on /pay routes it names payer accounts, and on no route does it help read
 * the log. Refund ids in the path (the refund page, its JSON and address routes, the merchant's
 * approval) are redacted: an id opens the payer's refund page. 5xx log as errors and 4xx as warnings, so alerting can key on the level; a request the
 * client gave up on before its answer logs as a warning.
 *
 * Written here rather than with pino-http: its child logger per request (bindings serialized up
 * front) and serializer plumbing cost 160 µs of CPU a request, a fifth of an order creation.
 */
export function requestLogs(logger: Logger): RequestHandler {
  // The line is built below from fields none of which can hold a secret (the id is checked or
  // made here): the logger's redaction paths, two thirds of a line's cost, are not walked for it.
  const lines = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (UNLOGGED.has(req.url)) return next();

    const started = performance.now();
    const method = req.method;
    const path = redactSecretPaths(req.url.split('?')[0]!).slice(0, 200);
    const line = (aborted: boolean) => {
      res.removeListener('finish', finished);
      res.removeListener('close', closed);
      const ms = Math.round(performance.now() - started);
      const status = res.statusCode;
      const entry = { reqId: id, req: { id, method, path }, res: { status }, responseTime: ms };
      if (aborted) lines.warn(entry, `${method} ${path} aborted by the client after ${ms}ms`);
      else if (status >= 500) lines.error(entry, `${method} ${path} ${status} ${ms}ms`);
      else if (status >= 400) lines.warn(entry, `${method} ${path} ${status} ${ms}ms`);
      else lines.info(entry, `${method} ${path} ${status} ${ms}ms`);
    };
    const finished = () => line(false);
    const closed = () => line(true);
    res.once('finish', finished);
    res.once('close', closed);
    next();
  };
}
