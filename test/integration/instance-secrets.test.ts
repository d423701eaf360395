import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/lib/secret-box';
import { createTestDatabase, newMerchant, startTestServer, type TestServer } from '../support/test-server';

/**
 * No secret has a value in the code: without JWT_SECRET and DATA_ENCRYPTION_KEY a server makes
 * its own on the first start, keeps them in DATA_DIR/secrets.json and uses them again; a server
 * whose key cannot open the database's stored secrets does not start.
 */

const UNSET = { JWT_SECRET: '', DATA_ENCRYPTION_KEY: '', JOBS: 'none' };
const newKey = () => randomBytes(32).toString('base64');

const running: TestServer[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string>) {
  const server = await startTestServer(env);
  running.push(server);
  return server;
}

async function stop(server: TestServer) {
  running.splice(running.indexOf(server), 1);
  await server.stop();
}

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-secrets-'));
  folders.push(dir);
  return dir;
}

describe('generated secrets', () => {
  it('are made on the first start in DATA_DIR/secrets.json (mode 0600, folder made) and used again after a restart', async () => {
    const DATABASE_URL = await createTestDatabase();
    const DATA_DIR = path.join(tempDir(), 'not', 'yet');
    const first = await start({ ...UNSET, DATABASE_URL, DATA_DIR });
    const file = path.join(DATA_DIR, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    expect(stored.JWT_SECRET).toBe(first.deps.tokens.secret);
    expect(stored.JWT_SECRET!.length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(stored.DATA_ENCRYPTION_KEY!, 'base64')).toHaveLength(32);

    // A login token and a sealed webhook secret outlive the restart.
    const m = await newMerchant(first);
    const rotated = await first.api('POST', '/users/me/webhook-secret', { token: m.token });
    expect(rotated.status, rotated.text).toBe(200);
    await stop(first);

    const second = await start({ ...UNSET, DATABASE_URL, DATA_DIR });
    expect(second.deps.tokens.secret).toBe(stored.JWT_SECRET);
    expect((await second.api('GET', '/users/me', { token: m.token })).status).toBe(200);
    const [row] = await second.deps.db.models.Merchant.findAll({ where: { id: m.id } });
    expect(second.deps.secrets.open(row!.webhookSecretSealed!)).toBe(rotated.body.webhook_secret);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(stored);
  });

  it('are not made when both are given', async () => {
    const DATA_DIR = tempDir();
    await start({ DATA_DIR, JOBS: 'none' });
    expect(fs.existsSync(path.join(DATA_DIR, 'secrets.json'))).toBe(false);
  });

  it('fill only what is not given: a JWT_SECRET set in the environment wins', async () => {
    const DATA_DIR = tempDir();
    const JWT_SECRET = randomBytes(32).toString('hex');
    const server = await start({
      ...UNSET,
      DATABASE_URL: await createTestDatabase(),
      DATA_DIR,
      JWT_SECRET,
    });
    expect(server.deps.tokens.secret).toBe(JWT_SECRET);
    const stored = JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'secrets.json'), 'utf8'));
    expect(stored.JWT_SECRET).not.toBe(JWT_SECRET);
    // The key is the file's: what the server seals, the file's key opens.
    const fileBox = createSecretBox(Buffer.from(stored.DATA_ENCRYPTION_KEY, 'base64'));
    expect(fileBox.open(server.deps.secrets.seal('sealed by the server'))).toBe('sealed by the server');
  });
});

describe('a key that cannot open the stored secrets', () => {
  it('stops start-up, naming DATA_ENCRYPTION_KEY: another key, or a lost secrets.json', async () => {
    const DATABASE_URL = await createTestDatabase();
    const DATA_DIR = tempDir();
    await stop(await start({ ...UNSET, DATABASE_URL, DATA_DIR }));

    await expect(start({ ...UNSET, DATABASE_URL, DATA_DIR, DATA_ENCRYPTION_KEY: newKey() })).rejects.toThrow(
      /DATA_ENCRYPTION_KEY \(set in the environment\) cannot decrypt/,
    );
    fs.rmSync(path.join(DATA_DIR, 'secrets.json'));
    await expect(start({ ...UNSET, DATABASE_URL, DATA_DIR })).rejects.toThrow(
      /DATA_ENCRYPTION_KEY \(kept in .*secrets\.json\) cannot decrypt/,
    );
  });

  it('is found in a database that predates the check, by its merchants’ sealed secrets', async () => {
    const DATABASE_URL = await createTestDatabase();
    const key = newKey();
    const first = await start({ DATABASE_URL, DATA_ENCRYPTION_KEY: key, JOBS: 'none' });
    const m = await newMerchant(first);
    await first.api('POST', '/users/me/webhook-secret', { token: m.token });
    // As an instance of an older version left it: sealed secrets, no canary.
    await first.deps.db.sequelize.query('DELETE FROM encryption_canary');
    await stop(first);

    await expect(start({ DATABASE_URL, DATA_ENCRYPTION_KEY: newKey(), JOBS: 'none' })).rejects.toThrow(
      /DATA_ENCRYPTION_KEY .*cannot decrypt the secrets stored in this database's merchants/,
    );
    // The right key starts, and writes the canary the next start checks.
    const again = await start({ DATABASE_URL, DATA_ENCRYPTION_KEY: key, JOBS: 'none' });
    const [canary] = await again.deps.db.sequelize.query('SELECT sealed FROM encryption_canary');
    expect(canary).toHaveLength(1);
  });

  it('refuses the second of two instances given different keys on one database', async () => {
    const DATABASE_URL = await createTestDatabase();
    await start({ DATABASE_URL, DATA_ENCRYPTION_KEY: newKey(), JOBS: 'none' });
    await expect(start({ DATABASE_URL, DATA_ENCRYPTION_KEY: newKey(), JOBS: 'none' })).rejects.toThrow(
      /DATA_ENCRYPTION_KEY/,
    );
  });
});
