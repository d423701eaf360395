import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';

/**
 * pino-http options for one short line per request: method, path, status and time, with the
 * request id, and no header dump (headers hold tokens, cookies and noise). The query string is left
 * out: on /pay routes it names payer accounts, and on no route does it help read the log.
 * 5xx log as errors and 4xx as warnings, so alerting can key on the level.
 */
const pathOf = (req: IncomingMessage) => (req.url ?? '').split('?')[0]!.slice(0, 200);

export const conciseRequestLogs: Options<IncomingMessage, ServerResponse> = {
  quietReqLogger: true,
  wrapSerializers: false,
  serializers: {
    req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method, path: pathOf(req) }),
    res: (res: ServerResponse) => ({ status: res.statusCode }),
  },
  customLogLevel: (_req, res, error) =>
    error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
  customSuccessMessage: (req, res, ms) =>
    `${req.method} ${pathOf(req)} ${res.statusCode} ${Math.round(ms)}ms`,
  customErrorMessage: (req, res) => `${req.method} ${pathOf(req)} ${res.statusCode} failed`,
};
