import pg from 'pg';
import { DatabaseError } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPooledClient } from '../../server/db/pooled-client';
import { createPreparedStatements } from '../../server/db/prepared-statements';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' });
});
afterAll(() => server.stop());

describe("prepared statements on Sequelize's pool", () => {
  it('borrows a pg.Client from the pool and gives it back (fails when Sequelize changes what it hands out)', async () => {
    const { sequelize } = server.deps.db;
    const seen = await withPooledClient(sequelize, async (client) => {
      expect(client).toBeInstanceOf(pg.Client);
      return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one;
    });
    expect(seen).toBe(1);
    // Given back: the pool still serves Sequelize's own queries.
    const [rows] = await sequelize.query('SELECT 2 AS two');
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('binds named values, and refuses a statement missing one', async () => {
    const prepared = createPreparedStatements(server.deps.db.sequelize);
    const text = 'SELECT CAST($a AS int) + CAST($b AS int) AS sum, CAST($a AS int) AS a';
    expect(await prepared.run(text, { a: 2, b: 3 })).toEqual([{ sum: 5, a: 2 }]);
    expect(await prepared.run(text, { a: 10, b: -1 })).toEqual([{ sum: 9, a: 10 }]);
    await expect(prepared.run(text, { a: 1 })).rejects.toThrow('no value for $b');
  });

  it("throws database errors as Sequelize's, as sequelize.query does", async () => {
    const prepared = createPreparedStatements(server.deps.db.sequelize);
    await expect(prepared.run('SELECT CAST($x AS int) / 0 AS boom', { x: 1 })).rejects.toBeInstanceOf(
      DatabaseError,
    );
  });
});
