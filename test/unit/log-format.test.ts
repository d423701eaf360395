import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormat } from '../../server/lib/logger';

describe('log format', () => {
  it.each([
    [true, undefined, 'pretty'],
    [true, 'development', 'pretty'],
    [true, 'test', 'pretty'],
    [true, 'production', 'json'],
    [false, undefined, 'json'],
    [false, 'development', 'json'],
    [undefined, undefined, 'json'],
    [undefined, 'production', 'json'],
  ] as const)('stdout a TTY: %s, NODE_ENV %s: %s', (isTTY, nodeEnv, format) => {
    expect(logFormat({ isTTY, nodeEnv })).toBe(format);
  });

  it('writes readable lines, redacted as the JSON ones are', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    const refundId = `rf_${'ab'.repeat(16)}`;
    const logger = createLogger('info', destination, 'pretty');
    logger.info({ body: { password: 'hunter22' }, refundId }, 'signed in');
    const text = lines.join('');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: signed in\n/);
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('hunter22');
    expect(text).not.toContain(refundId);
  });

  it('writes JSON lines to a destination unless told otherwise (a program reads them)', () => {
    const lines: string[] = [];
    createLogger('info', { write: (line: string) => void lines.push(line) }).info('started');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: 'started' });
  });
});
