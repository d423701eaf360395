import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; data: { order: Record<string, unknown> } };
  at: number;
};

/**
 * A real HTTP receiver for webhooks. `respond` decides each answer (status and body), so tests can
 * make it fail, hang or succeed; `stop()`/`start()` make the port refuse connections and come back.
 */
export async function startWebhookReceiver(port = 0) {
  const received: ReceivedWebhook[] = [];
  let respond: (hook: ReceivedWebhook) => {
    status: number;
    body?: string;
    delayMs?: number;
    /** Answer only once this settles (and delayMs has passed): a receiver held by the test. */
    until?: Promise<unknown>;
  } = () => ({
    status: 200,
    body: 'ok',
  });
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: ReceivedWebhook['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { id: '', type: '', data: { order: {} } };
      }
      const hook = { url: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
      received.push(hook);
      waiters.splice(0).forEach((w) => w());
      const answer = respond(hook);
      setTimeout(() => {
        void Promise.resolve(answer.until).finally(() => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'text/plain' });
          res.end(answer.body ?? '');
        });
      }, answer.delayMs ?? 0);
    });
  });
  const listen = (p: number) =>
    new Promise<void>((resolve) => server.listen(p, '127.0.0.1', () => resolve()));
  await listen(port);
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}/hooks`,
    received,
    setResponder(fn: typeof respond) {
      respond = fn;
    },
    /** Resolves once `predicate` holds over what was received (polls on each arrival). */
    async waitFor(predicate: (r: ReceivedWebhook[]) => boolean, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(
            `webhook receiver: condition not met in ${timeoutMs} ms (${received.length} received)`,
          );
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    start: () => listen(actualPort),
  };
}
