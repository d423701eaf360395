import { countOrders } from './count-orders';
import { runSql } from './run-sql';

/**
 * Order counts (migration 0009) over 64 shards instead of 8, each connection writing its own
 * (its backend's pid modulo 64) and taking back from its own first: with 8 random shards, 32
 * concurrent creations for one merchant queued on the shard rows' locks until each commit
 * (pgbench on the creation statement at 32 clients: 1,960 a second with 8 shards, 2,500–2,800
 * with 64). A page's total still sums a handful of rows.
 */
export const up = runSql(`
    ${countOrders('CREATE OR REPLACE', '(pg_backend_pid() % 64)::smallint', 'ORDER BY shard = s DESC')}`);

export const down = runSql(`
    ${countOrders('CREATE OR REPLACE', 'floor(random() * 8)::smallint', '')}`);
