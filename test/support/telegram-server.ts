import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type SentMessage = { token: string; chatId: string; text: string; at: number };

/**
 * A local server speaking the Telegram Bot API's sendMessage: `POST /bot<token>/sendMessage` with
 * `{chat_id, text}` answers `{ok: true, result: {...}}`, or an error the test chooses (e.g. 429 with
 * `parameters.retry_after`, as Telegram sends when flooded).
 */
export async function startTelegramServer(validToken: string) {
  const sent: SentMessage[] = [];
  const requests: { url: string; at: number }[] = [];
  let failNext: { status: number; description: string; retryAfter?: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', at: Date.now() });
      const reply = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const match = /^\/bot([^/]+)\/sendMessage$/.exec(req.url ?? '');
      if (!match || req.method !== 'POST')
        return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
      if (match[1] !== validToken)
        return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const failure = failNext.shift();
      if (failure)
        return reply(failure.status, {
          ok: false,
          error_code: failure.status,
          description: failure.description,
          ...(failure.retryAfter ? { parameters: { retry_after: failure.retryAfter } } : {}),
        });
      let payload: { chat_id?: unknown; text?: unknown };
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
      }
      if (typeof payload.text !== 'string' || payload.chat_id === undefined)
        return reply(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      sent.push({ token: match[1]!, chatId: String(payload.chat_id), text: payload.text, at: Date.now() });
      reply(200, {
        ok: true,
        result: {
          message_id: sent.length,
          date: Math.floor(Date.now() / 1000),
          chat: { id: payload.chat_id },
          text: payload.text,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    requests,
    failNextWith(...failures: typeof failNext) {
      failNext = failures;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
