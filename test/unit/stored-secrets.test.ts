import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instanceSecrets } from '../../server/lib/stored-secrets';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-stored-'));
  dirs.push(dir);
  return dir;
};
const unset = { jwtSecret: undefined, encryptionKey: undefined };

describe('stored secrets (DATA_DIR/secrets.json)', () => {
  it('are random per DATA_DIR, made once and then read', () => {
    const [a, b] = [tempDir(), tempDir()];
    const first = instanceSecrets({ dataDir: a, ...unset });
    expect(first).toMatchObject({ created: true, file: path.join(a, 'secrets.json') });
    expect(first.encryptionKey).toHaveLength(32);
    const again = instanceSecrets({ dataDir: a, ...unset });
    expect(again).toMatchObject({ created: false, jwtSecret: first.jwtSecret });
    expect(again.encryptionKey.equals(first.encryptionKey)).toBe(true);
    const other = instanceSecrets({ dataDir: b, ...unset });
    expect(other.jwtSecret).not.toBe(first.jwtSecret);
    expect(other.encryptionKey.equals(first.encryptionKey)).toBe(false);
    // Nothing left behind but the file.
    expect(fs.readdirSync(a)).toEqual(['secrets.json']);
  });

  it('leave the file alone when both are given', () => {
    const dir = tempDir();
    const given = { jwtSecret: 'j'.repeat(40), encryptionKey: Buffer.alloc(32, 1) };
    expect(instanceSecrets({ dataDir: dir, ...given })).toMatchObject({ ...given, file: null });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuse a damaged file, naming it and the variable', () => {
    const dir = tempDir();
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, '{"JWT_SECRET": "short", "DATA_ENCRYPTION_KEY": "AAAA"}');
    expect(() => instanceSecrets({ dataDir: dir, ...unset })).toThrow(
      /secrets\.json has no valid JWT_SECRET/,
    );
    fs.writeFileSync(file, JSON.stringify({ JWT_SECRET: 'j'.repeat(40), DATA_ENCRYPTION_KEY: 'AAAA' }));
    expect(() => instanceSecrets({ dataDir: dir, ...unset })).toThrow(/DATA_ENCRYPTION_KEY/);
    fs.writeFileSync(file, 'not json');
    expect(() => instanceSecrets({ dataDir: dir, ...unset })).toThrow(/secrets\.json cannot be read/);
  });
});
