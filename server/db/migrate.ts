import { Umzug, type MigrationFn, type UmzugStorage } from 'umzug';
import type { Sequelize, Transaction } from 'sequelize';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-event-outbox';
import * as m0003 from './migrations/0003-payment-verification';
import * as m0004 from './migrations/0004-evidence-ladder';
import * as m0005 from './migrations/0005-refunds';
import * as m0006 from './migrations/0006-shared-limits';
import * as m0007 from './migrations/0007-return-url';
import * as m0008 from './migrations/0008-amount-reservations';
import * as m0009 from './migrations/0009-order-counts';
import * as m0010 from './migrations/0010-announced-changes';
import * as m0011 from './migrations/0011-count-shards';
import * as m0012 from './migrations/0012-api-keys';
import * as m0013 from './migrations/0013-event-log';
import * as m0014 from './migrations/0014-api-versions';
import * as m0015 from './migrations/0015-dashboard-sessions';
import * as m0016 from './migrations/0016-dashboard-stats';
import * as m0017 from './migrations/0017-token-decimals';
import * as m0018 from './migrations/0018-wallet-owners-and-claims';
import * as m0019 from './migrations/0019-encryption-canary';
import * as m0020 from './migrations/0020-refund-approval';
import * as m0021 from './migrations/0021-messenger-duration';
import * as m0022 from './migrations/0022-payment-options';
import * as m0023 from './migrations/0023-subscriptions';
import * as m0024 from './migrations/0024-customer-email';
import * as m0025 from './migrations/0025-expiry-of-unproven-reports';
import * as m0026 from './migrations/0026-refund-signer';
import * as m0027 from './migrations/0027-counts-by-option-network';
import * as m0028 from './migrations/0028-superseded-orders';
import * as m0029 from './migrations/0029-members';
import * as m0030 from './migrations/0030-invitations';
import * as m0031 from './migrations/0031-two-factor';
import * as m0032 from './migrations/0032-point-of-sale';
import * as m0033 from './migrations/0033-x402';
import * as m0034 from './migrations/0034-payouts';
import * as m0035 from './migrations/0035-x402-follow-up';
import * as m0036 from './migrations/0036-audit-actors';
import * as m0037 from './migrations/0037-payout-outflows';
import * as m0038 from './migrations/0038-x402-settlement-states';
import * as m0039 from './migrations/0039-x402-valid-before';
import * as m0040 from './migrations/0040-payout-batch-contracts';
import * as m0041 from './migrations/0041-batch-contract-reporter';

/**
 * Migrations get a query runner that takes plain SQL, bound to the migration transaction, and a
 * way to tell the operator what they changed beyond the schema (logged at start-up).
 */
export type MigrationContext = {
  query(sql: string): Promise<unknown>;
  notice(message: string, data?: Record<string, unknown>): void;
};
export type MigrationNotice = { migration: string; message: string; data?: Record<string, unknown> };
export type Migration = MigrationFn<MigrationContext>;

/** Listed explicitly (not globbed) so the order is the code's, whatever the file system says. */
const migrations = [
  { name: '0001-initial', ...m0001 },
  { name: '0002-event-outbox', ...m0002 },
  { name: '0003-payment-verification', ...m0003 },
  { name: '0004-evidence-ladder', ...m0004 },
  { name: '0005-refunds', ...m0005 },
  { name: '0006-shared-limits', ...m0006 },
  { name: '0007-return-url', ...m0007 },
  { name: '0008-amount-reservations', ...m0008 },
  { name: '0009-order-counts', ...m0009 },
  { name: '0010-announced-changes', ...m0010 },
  { name: '0011-count-shards', ...m0011 },
  { name: '0012-api-keys', ...m0012 },
  { name: '0013-event-log', ...m0013 },
  { name: '0014-api-versions', ...m0014 },
  { name: '0015-dashboard-sessions', ...m0015 },
  { name: '0016-dashboard-stats', ...m0016 },
  { name: '0017-token-decimals', ...m0017 },
  { name: '0018-wallet-owners-and-claims', ...m0018 },
  { name: '0019-encryption-canary', ...m0019 },
  { name: '0020-refund-approval', ...m0020 },
  { name: '0021-messenger-duration', ...m0021 },
  { name: '0022-payment-options', ...m0022 },
  { name: '0023-subscriptions', ...m0023 },
  { name: '0024-customer-email', ...m0024 },
  { name: '0025-expiry-of-unproven-reports', ...m0025 },
  { name: '0026-refund-signer', ...m0026 },
  { name: '0027-counts-by-option-network', ...m0027 },
  { name: '0028-superseded-orders', ...m0028 },
  { name: '0029-members', ...m0029 },
  { name: '0030-invitations', ...m0030 },
  { name: '0031-two-factor', ...m0031 },
  { name: '0032-point-of-sale', ...m0032 },
  { name: '0033-x402', ...m0033 },
  { name: '0034-payouts', ...m0034 },
  { name: '0035-x402-follow-up', ...m0035 },
  { name: '0036-audit-actors', ...m0036 },
  { name: '0037-payout-outflows', ...m0037 },
  { name: '0038-x402-settlement-states', ...m0038 },
  { name: '0039-x402-valid-before', ...m0039 },
  { name: '0040-payout-batch-contracts', ...m0040 },
  { name: '0041-batch-contract-reporter', ...m0041 },
];

const LOCK_ID = 7_301_955_001;

/** The applied-migrations table, written in the same transaction as the migrations themselves. */
function transactionalStorage(sequelize: Sequelize, transaction: Transaction): UmzugStorage {
  const run = (sql: string, replacements?: Record<string, unknown>) =>
    sequelize.query(sql, { transaction, replacements });
  return {
    async executed() {
      await run(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const [rows] = await run('SELECT name FROM schema_migrations ORDER BY name');
      return (rows as { name: string }[]).map((r) => r.name);
    },
    async logMigration({ name }) {
      await run('INSERT INTO schema_migrations (name) VALUES (:name)', { name });
    },
    async unlogMigration({ name }) {
      await run('DELETE FROM schema_migrations WHERE name = :name', { name });
    },
  };
}

/**
 * Runs pending migrations in one transaction under an advisory lock: PostgreSQL DDL is
 * transactional, so a failed run leaves nothing half-done, and instances starting at once queue.
 */
export async function migrate(
  sequelize: Sequelize,
  direction: 'up' | 'down' = 'up',
  notices: MigrationNotice[] = [],
  /** Down only: the earliest migration to revert (it and every later one); all of them without. */
  downTo?: string,
): Promise<string[]> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(`SELECT pg_advisory_xact_lock(${LOCK_ID})`, { transaction });
    const query = (sql: string) => sequelize.query(sql, { transaction });
    const umzug = new Umzug<MigrationContext>({
      // Each migration's notices carry its name.
      migrations: migrations.map((m) => ({
        ...m,
        up: (params: Parameters<Migration>[0]) =>
          m.up({
            ...params,
            context: { query, notice: (message, data) => notices.push({ migration: m.name, message, data }) },
          }),
      })),
      context: { query, notice: () => {} },
      storage: transactionalStorage(sequelize, transaction),
      logger: undefined,
    });
    const done = direction === 'up' ? await umzug.up() : await umzug.down({ to: downTo ?? 0 });
    return done.map((m) => m.name);
  });
}
