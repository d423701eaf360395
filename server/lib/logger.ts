import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecretPaths } from './redact-refund-ids';

export type { Logger };

/**
 * JSON-lines logger (to stdout, or `destination`). Secrets never reach it: the redaction list is the
 * last line of defence, and refund ids are taken out of every line whatever field holds them (an
 * error message, a SQL statement), as they open the payer's refund page.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    hooks: { streamWrite: redactSecretPaths },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.current_password',
        '*.new_password',
        '*.messenger_bot_token',
        '*.token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
