import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { redactSecretPaths } from './redact-refund-ids';

export type { Logger };

export type LogFormat = 'json' | 'pretty';

/**
 * How log lines are written: readable lines for a person at a terminal (standard output a TTY)
 * outside production, JSON lines everywhere else (a pipe, a file, CI, a log collector, production).
 */
export const logFormat = (out: { isTTY: boolean | undefined; nodeEnv: string | undefined }): LogFormat =>
  out.isTTY === true && out.nodeEnv !== 'production' ? 'pretty' : 'json';

/** This process's: by its standard output and NODE_ENV. */
const processLogFormat = (): LogFormat =>
  logFormat({ isTTY: process.stdout.isTTY, nodeEnv: process.env.NODE_ENV });

/**
 * The logger (to stdout, or `destination`), JSON lines or readable ones (`format`; by default
 * logFormat of this process for stdout, JSON for a destination, which a program reads). Secrets never reach it: the redaction list is the last line of
 * defence, and refund ids are taken out of every line whatever field holds them (an error message,
 * a SQL statement), as they open the payer's refund page; readable lines are written from the
 * redacted JSON. They are written synchronously, as JSON is: nothing is lost when the process exits.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: LogFormat = destination ? 'json' : processLogFormat(),
): Logger {
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
  if (format === 'pretty')
    return pino(
      options,
      pretty({
        destination: destination ?? 1,
        sync: true,
        colorize: !destination,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    );
  return destination ? pino(options, destination) : pino(options);
}
