import nodemailer from 'nodemailer';
import type { Config } from '../config';

export type MailTransport = ReturnType<typeof nodemailer.createTransport>;

/**
 * The SMTP connection settings of SMTP_URL, every wait bounded by SMTP_TIMEOUT_MS (nodemailer's own
 * defaults wait minutes): connecting (DNS included), the server's greeting, each answer. One
 * connection per e-mail, none kept open between sends.
 */
export function createMailTransport(config: Pick<Config, 'SMTP_TIMEOUT_MS'>, url: string): MailTransport {
  const timeout = config.SMTP_TIMEOUT_MS;
  return nodemailer.createTransport({
    url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
  });
}
