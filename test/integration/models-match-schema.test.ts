import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Every model says of its columns what the migrations made of them: each attribute names a column
 * of its table, and none is declared NOT NULL where the column allows NULL. Such a model types its
 * rows wrongly (a null read as a string) and, on a save through the model, refuses rows the database
 * holds. (The other way round is left to the database: a column NOT NULL with a default, such as
 * created_at, may be left out by the model and is filled in by PostgreSQL.)
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JOBS: 'none' });
});
afterAll(() => server.stop());

type SchemaColumn = { table_name: string; column_name: string; is_nullable: 'YES' | 'NO' };

describe('models against the migrated schema', () => {
  it('name only columns that exist, and require none the database lets be NULL', async () => {
    const { sequelize, models } = server.deps.db;
    const columns = await sequelize.query<SchemaColumn>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns
        WHERE table_schema = current_schema()`,
      { type: QueryTypes.SELECT },
    );
    const nullable = new Map(
      columns.map((c) => [`${c.table_name}.${c.column_name}`, c.is_nullable === 'YES']),
    );
    const checked: string[] = [];
    const drift: string[] = [];
    for (const model of Object.values(models) as ModelStatic<Model>[]) {
      const table = model.tableName;
      for (const [name, attribute] of Object.entries(model.getAttributes())) {
        const column = `${table}.${attribute.field ?? name}`;
        checked.push(column);
        if (!nullable.has(column)) drift.push(`${model.name}.${name}: no column ${column}`);
        else if (attribute.allowNull === false && nullable.get(column))
          drift.push(`${model.name}.${name}: NOT NULL in the model, ${column} allows NULL`);
      }
    }
    expect(checked.length).toBeGreaterThan(100);
    expect(drift).toEqual([]);
  });
});
