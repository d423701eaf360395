import { runSql } from './run-sql';

/**
 * Payouts in the payments ledger export (issue 40): confirmed payout items are its outflows, read a
 * page at a time by the time they were confirmed (server/dashboard/export-payments.ts). Without this
 * index every page of the export read every confirmed item to find its 250.
 */
export const up = runSql(
  `CREATE INDEX payout_items_confirmed_idx ON payout_items (confirmed_at) WHERE status = 'CONFIRMED'`,
);

export const down = runSql('DROP INDEX payout_items_confirmed_idx');
