import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatAmount, formatQuote, formatUnits, wireStep } from '../../contract/decimal';
import { formatUnitsSql, quoteAmountSql, tokenAmountSql } from '../../server/dashboard/csv';

/**
 * The CSV exports write amounts in SQL (server/dashboard/csv.ts), the API in TypeScript
 * (contract/decimal.ts): the same values must come out as the same text, or an export and the API
 * would disagree about one order.
 */
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
});
afterAll(() => client?.end());

const UINT256_MAX = (1n << 256n) - 1n;

/** Each SQL expression over columns `u` (numeric(78,0)) and `d` (int), for every pair. */
async function inSql(sql: string, cases: { units: bigint; decimals: number }[]): Promise<string[]> {
  const { rows } = await client.query<{ text: string }>(
    `SELECT ${sql} AS text
       FROM unnest($1::numeric(78,0)[], $2::int[]) WITH ORDINALITY AS t(u, d, i) ORDER BY i`,
    [cases.map((c) => c.units.toString()), cases.map((c) => c.decimals)],
  );
  return rows.map((r) => r.text);
}

function casesAt(decimals: number) {
  const one = 10n ** BigInt(decimals);
  const units = [0n, 1n, 10n, wireStep(decimals), one - 1n, one, one + 1n, (25n * one) / 2n, UINT256_MAX];
  for (let k = 0n; k < 78n; k += 7n)
    units.push(10n ** k, 10n ** k + 10n ** (k / 2n), 123456789n * 10n ** (k / 3n));
  return units.filter((u) => u <= UINT256_MAX).map((u) => ({ units: u, decimals }));
}

describe('amounts written by SQL and by contract/decimal.ts', () => {
  it('tokenAmountSql writes what formatAmount writes, at 6, 9, 18 and 36 decimals', async () => {
    const cases = [6, 9, 18, 36].flatMap(casesAt);
    expect(await inSql(tokenAmountSql('u', 'd'), cases)).toEqual(
      cases.map((c) => formatAmount(c.units, c.decimals)),
    );
  });

  it('quoteAmountSql writes what formatQuote writes', async () => {
    const cases = casesAt(6);
    expect(await inSql(quoteAmountSql('u'), cases)).toEqual(cases.map((c) => formatQuote(c.units)));
  });

  it('formatUnitsSql follows formatUnits for any fewest places', async () => {
    const cases = casesAt(18);
    for (const minPlaces of [0, 2, 18])
      expect(await inSql(formatUnitsSql('u', 'd', minPlaces), cases)).toEqual(
        cases.map((c) => formatUnits(c.units, c.decimals, minPlaces)),
      );
  });
});
