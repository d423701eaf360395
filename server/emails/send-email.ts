import { EMAIL_ERROR_MAX } from '../../contract';
import type { MailTransport } from './mail-transport';

/** An e-mail as the sender reads it from its leased row. */
export type EmailToSend = { id: string; to_address: string; subject: string; text: string; html: string };

/** How one attempt went: sent, or the mail server's answer (or the failure to reach it). */
export type EmailOutcome = { ok: true; error: null } | { ok: false; error: string };

/** The server's reply when it gave one (`451 4.3.0 try again later`), else what went wrong. */
function errorText(err: unknown): string {
  const { response, message } = (err ?? {}) as { response?: unknown; message?: unknown };
  const text = typeof response === 'string' && response ? response : String(message ?? err);
  // PostgreSQL text holds no NUL.
  return text.replaceAll('\0', '').slice(0, EMAIL_ERROR_MAX);
}

/**
 * Sends one e-mail through `transport`, within `timeoutMs` as a whole (a server that answers each
 * line just in time cannot hold the sender). Never throws: every failure is an outcome.
 */
export async function sendEmail(
  transport: MailTransport,
  { from, timeoutMs }: { from: string; timeoutMs: number },
  email: EmailToSend,
): Promise<EmailOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer from the mail server within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([
      transport.sendMail({
        from,
        to: email.to_address,
        subject: email.subject,
        text: email.text,
        html: email.html,
        // The same id on every attempt: a mail server that took a copy before failing can tell.
        messageId: `<${email.id}@stablepay>`,
      }),
      deadline,
    ]);
    return { ok: true, error: null };
  } catch (err) {
    return { ok: false, error: errorText(err) };
  } finally {
    clearTimeout(timer);
  }
}
