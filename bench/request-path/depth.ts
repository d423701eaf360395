import pg from 'pg';
import { percentile } from '../lib/percentile';
import type { PathMerchant } from './merchant';
import type { PathStack } from './stack';

const PER_PAGE = 50;

/** Page mode at depth: `total` and deep pages, by number and by cursor, with many orders for one merchant. */
export async function pagesAtDepth(
  stack: PathStack,
  merchant: PathMerchant,
  depthRows: number,
  progress: (m: string) => void,
): Promise<string> {
  progress(`request path: ${depthRows} orders for one merchant, then pages at depth`);
  await insertPastOrders(stack.databaseUrl, merchant.firstReference, depthRows);
  const list = (query: string) => `${stack.base}/users/me/orders?${query}&per_page=${PER_PAGE}`;
  const medianGet = (url: string) => medianGetMs(url, merchant.auth);
  const deepPageNumber = Math.floor(depthRows / PER_PAGE) - 1;
  const page1 = await medianGet(list('page=1'));
  const deepPage = await medianGet(list(`page=${deepPageNumber}`));
  const cursorStart = await medianGet(list('cursor='));
  const walk = Math.max(1, Math.min(200, Math.floor(depthRows / PER_PAGE) - 2));
  const cursor = await walkCursor(list, merchant.auth, walk);
  const cursorDeep = await medianGet(list(`cursor=${encodeURIComponent(cursor)}`));
  return `pages with ${depthRows} orders for one merchant (p50): page 1 with total ${page1.toFixed(1)} ms; page ${deepPageNumber} ${deepPage.toFixed(1)} ms; first cursor page ${cursorStart.toFixed(1)} ms, cursor page ${walk} ${cursorDeep.toFixed(1)} ms`;
}

/** `count` EXPIRED orders of the template's merchant and wallet, two days old, in one statement. */
async function insertPastOrders(databaseUrl: string, template: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient, amount_units,
                           status, expires_at, created_at, updated_at, amount_unique)
       SELECT translate(md5('depth' || g), '0', 'z'), o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint, o.recipient, 1000000 + g,
              'EXPIRED', now() - interval '2 days', now() - interval '2 days', now(), false
         FROM generate_series(1, $1) AS g, (SELECT * FROM orders WHERE reference = $2) AS o`,
      [count, template],
    );
    await client.query('ANALYZE orders');
  } finally {
    await client.end();
  }
}

/** The median of `times` GETs of `url`, each read to the end. */
async function medianGetMs(url: string, headers: Record<string, string>, times = 20): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    samples.push(performance.now() - t);
  }
  return percentile(samples, 50);
}

/** The cursor of the page `pages` pages after the first. */
async function walkCursor(
  list: (query: string) => string,
  headers: Record<string, string>,
  pages: number,
): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const res = await fetch(list(`cursor=${encodeURIComponent(cursor)}`), { headers });
    cursor = ((await res.json()) as { nextCursor: string }).nextCursor;
  }
  return cursor;
}
