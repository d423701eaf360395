import { announceChange } from './announce-change';
import { runSql } from './run-sql';

/**
 * Every change to a merchant's row or wallets, whoever makes it (the API, `merchant:reset-password`,
 * an operator's SQL), is announced on `stablepay_changes` when it commits, so that every instance
 * drops what it remembered of them (server/db/change-feed.ts, server/db/caches.ts).
 */
export const up = runSql(`
    ${announceChange('announce_merchant_change', "'merchant:' || OLD.id")}

    CREATE TRIGGER merchants_announced AFTER UPDATE OR DELETE ON merchants
      FOR EACH ROW EXECUTE FUNCTION announce_merchant_change();

    ${announceChange('announce_wallets_change', "'wallets:' || COALESCE(NEW.merchant_id, OLD.merchant_id)")}

    CREATE TRIGGER wallets_announced AFTER INSERT OR UPDATE OR DELETE ON wallets
      FOR EACH ROW EXECUTE FUNCTION announce_wallets_change();
  `);

export const down = runSql(`
    DROP TRIGGER wallets_announced ON wallets;
    DROP FUNCTION announce_wallets_change();
    DROP TRIGGER merchants_announced ON merchants;
    DROP FUNCTION announce_merchant_change();
  `);
