import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  /** The envelope: who the server was told it is from and to. */
  from: string | null;
  to: string[];
  /** The message as it arrived, and parsed (subject, text and HTML parts, headers). */
  raw: string;
  parsed: ParsedMail;
};

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package), for the service's SMTP_URL in tests:
 * it takes what the service sends and keeps it for the test to read back (`received()`,
 * `waitFor()`), parsed by `mailparser`. `refuseNext(n, code)` answers the next n messages with an
 * SMTP error (4xx: try again later; 5xx: refused), as a mail server that fails does. Plain SMTP
 * (no STARTTLS), any login or none.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const refusals: { code: number; message: string }[] = [];
  let refused = 0;
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const refusal = refusals.shift();
        if (refusal) {
          refused++;
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            for (const wake of waiters) wake();
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received: (): ReceivedMail[] => [...received],
    /** How many messages were refused so far. */
    refused: () => refused,
    /** Answers the next `count` messages with `code` (451: try later; 550: refused) instead of taking them. */
    refuseNext(count: number, code = 451, message = 'Requested action aborted: try again later') {
      for (let i = 0; i < count; i++) refusals.push({ code, message });
    },
    /** The first message received (now or within `timeoutMs`) for which `predicate` holds. */
    waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such e-mail within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
