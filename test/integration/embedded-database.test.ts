import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/db/embedded-postgres';

/** The embedded PostgreSQL belongs to its DATA_DIR: services of two folders never share one. */

const started: EmbeddedDatabase[] = [];
const folders: string[] = [];
afterAll(async () => {
  for (const db of started.reverse()) await db.stop();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-embedded-'));
  fs.chmodSync(dir, 0o755);
  folders.push(dir);
  return dir;
}

async function dataDirectoryOf(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL per DATA_DIR', () => {
  it('gives two folders two databases on their own ports, each kept in its folder', async () => {
    const [a, b] = [dataDir(), dataDir()];
    const first = await startEmbeddedPostgres({ dataDir: a });
    started.push(first);
    const second = await startEmbeddedPostgres({ dataDir: b });
    started.push(second);
    expect(second.port).not.toBe(first.port);
    expect(await dataDirectoryOf(first.url)).toBe(path.join(a, 'postgres'));
    expect(await dataDirectoryOf(second.url)).toBe(path.join(b, 'postgres'));
    expect(fs.readFileSync(path.join(a, 'postgres.port'), 'utf8').trim()).toBe(String(first.port));
    // A second process of the same folder joins the same database.
    const again = await startEmbeddedPostgres({ dataDir: a });
    expect(again.url).toBe(first.url);
  }, 60_000);

  it("refuses another folder's database on an EMBEDDED_PG_PORT it was given, naming the setting", async () => {
    const owner = await startEmbeddedPostgres({ dataDir: dataDir() });
    started.push(owner);
    await expect(startEmbeddedPostgres({ dataDir: dataDir(), port: owner.port })).rejects.toThrow(
      /EMBEDDED_PG_PORT \d+ is used by the embedded PostgreSQL of another DATA_DIR/,
    );
  }, 60_000);
});

describe('production', () => {
  it('refuses to start without DATABASE_URL, naming it', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      DATA_ENCRYPTION_KEY: 'a'.repeat(64),
    };
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/DATABASE_URL: is required when NODE_ENV=production/);
    expect(loadConfig({ ...production, DATABASE_URL: 'postgres://db/stablepay' }).NODE_ENV).toBe(
      'production',
    );
  });
});
