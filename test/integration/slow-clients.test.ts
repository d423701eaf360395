import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/test-server';

/** A client too slow with its request is answered 408 and let go within the configured bounds. */

const server = useTestServer({
  JOBS: 'none',
  HTTP_HEADERS_TIMEOUT_MS: '600',
  HTTP_REQUEST_TIMEOUT_MS: '1200',
});

/** Opens a raw connection, writes `parts` one by one `gapMs` apart, and says what came back and when. */
function trickle(parts: string[], gapMs: number) {
  const { port } = new URL(server.url);
  return new Promise<{ answer: string; ms: number }>((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    let i = 0;
    const timer = setInterval(() => {
      if (i < parts.length && !socket.destroyed) socket.write(parts[i++]!);
    }, gapMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: performance.now() - started });
    });
  });
}

describe('slow clients', () => {
  it('headers that never finish: 408 within the headers timeout (and the check interval)', async () => {
    const { answer, ms } = await trickle(['GET /healthz HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n'], 200);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'The request was not received in time' },
    });
    expect(ms).toBeLessThan(600 + 1000 + 500);
  });

  it('a body that never finishes: 408 within the request timeout', async () => {
    const head =
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const { answer, ms } = await trickle([head, '{"email":', '"a@b.c",'], 300);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(1200 + 1000 + 500);
  });

  it('a malformed request or headers over 16 KB: the one error body, not a bare status', async () => {
    const bad = await trickle(['GET /healthz HTTP/1.1\r\nHost x\r\n\r\n'], 10);
    expect(bad.answer).toMatch(/^HTTP\/1\.1 400/);
    expect(bad.answer).toContain('"code":"VALIDATION_ERROR"');
    const huge = await trickle(
      [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      10,
    );
    expect(huge.answer).toMatch(/^HTTP\/1\.1 431/);
    expect(huge.answer).toContain('"code":"VALIDATION_ERROR"');
  });
});
