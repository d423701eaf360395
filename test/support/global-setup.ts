import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/db/embedded-postgres';
import { createDatabase } from './create-database';
import { freePort } from './free-port';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database of this run, shared by the files that use it directly. */
    databaseUrl: string;
    /** The server, for files that make databases of their own (named with databasePrefix). */
    databaseServerUrl: string;
    databasePrefix: string;
  }
}

/**
 * Each run gets a fresh database: on DATABASE_URL's server when set (CI), else on an embedded
 * PostgreSQL of its own in a temporary folder. Dropped at the end.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stablepay-test-'));
    fs.chmodSync(dataDir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    serverUrl = embedded.url;
  }
  const prefix = `stablepay_test_${process.pid}_${Date.now()}`;
  project.provide('databaseUrl', await createDatabase(serverUrl, prefix));
  project.provide('databaseServerUrl', serverUrl);
  project.provide('databasePrefix', prefix);

  return async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname LIKE $1',
      [`${prefix}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
    if (embedded) {
      await embedded.stop();
      fs.rmSync(dataDir!, { recursive: true, force: true });
    }
  };
}
