import pg from 'pg';
import { QueryTypes } from 'sequelize';
import type { Database } from '../../test/support/harness';

/** One statement on the server's own database, for creating and dropping the run's. */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const dropDatabase = (serverUrl: string, name: string) =>
  adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows of a query on the run's database. */
export function select<T extends object>(
  stack: { db: Database } | Database,
  sql: string,
  replacements: Record<string, unknown> = {},
): Promise<T[]> {
  const db = 'sequelize' in stack ? stack : stack.db;
  return db.sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements });
}
