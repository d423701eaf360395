import pg from 'pg';
import type { PathMerchant } from './merchant';
import type { PathStack } from './stack';

/** Nothing traded for speed: 50 concurrent requests with one Idempotency-Key make one order. */
export async function checkIdempotency(stack: PathStack, merchant: PathMerchant): Promise<string> {
  const key = `same-key-${Date.now()}`;
  const body = merchant.orderBody();
  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      fetch(`${stack.base}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key, ...merchant.auth },
        body,
      }).then(async (r) => ({
        status: r.status,
        reference: ((await r.json()) as { reference?: string }).reference,
      })),
    ),
  );
  const references = new Set(answers.map((a) => a.reference));
  const stored = await countOrders(
    stack.databaseUrl,
    [...references].filter((r): r is string => Boolean(r)),
  );
  return `idempotency: 50 concurrent POST /orders with one Idempotency-Key -> statuses ${[...new Set(answers.map((a) => a.status))].join('/')}, ${references.size} distinct reference(s), ${stored} order(s) stored`;
}

async function countOrders(databaseUrl: string, references: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE reference = ANY($1)',
      [references],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
