import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, isForbiddenAddress } from './ssrf-guard';

export type PostResult = {
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
};

/** How much of a response is kept. */
export const RESPONSE_BODY_LIMIT = 2048;
const READ_LIMIT = 64 * 1024;

/**
 * POSTs a JSON body and reads at most 64 KB of the answer. No redirects are followed (a 3xx is a
 * failed attempt), the whole exchange has one deadline, and with `guard` every address the host
 * resolves to is checked before connecting.
 */
export function postJson(
  url: string,
  body: string,
  opts: { headers?: Record<string, string>; timeoutMs: number; guard: boolean },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    // Assigned once the request exists, but `finish` may run (and clear it) before that.
    // eslint-disable-next-line prefer-const
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return finish({ status: null, body: null, error: 'invalid URL' });
    }
    // Sockets skip DNS lookup for IP literals, so those are checked here.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (opts.guard && net.isIP(literal) && isForbiddenAddress(literal))
      return finish({ status: null, body: null, error: `${literal} is a private or reserved address` });
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'stablepay-webhooks/1',
        ...opts.headers,
      },
      ...(opts.guard ? { lookup: guardedLookup } : {}),
    });
    timer = setTimeout(() => {
      req.destroy();
      finish({ status: null, body: null, error: `timeout after ${opts.timeoutMs} ms` });
    }, opts.timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < READ_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size >= READ_LIMIT) res.destroy();
      });
      const done = () =>
        finish({
          status: res.statusCode ?? null,
          body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_LIMIT),
          error: null,
        });
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: null,
        body: null,
        error: error.name === 'ForbiddenDestinationError' ? error.message : (error.code ?? error.message),
      }),
    );
    req.end(body);
  });
}
