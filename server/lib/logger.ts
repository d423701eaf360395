import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON-lines logger. Secrets never reach it: the redaction list is the last line of defence. */
export function createLogger(level: string): Logger {
  return pino({
    level,
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
  });
}
