import type { InferAttributes } from 'sequelize';
import type { Database } from './database';
import type { ApiKey, Merchant, Wallet } from './models';
import { createRowCache, type RowCache } from './row-cache';

export type MerchantRow = InferAttributes<Merchant>;
export type WalletRow = InferAttributes<Wallet>;
export type ApiKeyRow = InferAttributes<ApiKey>;

/**
 * What nearly every merchant request reads before doing anything: the merchant (for the token
 * check) and, to create an order, its wallets. Kept in memory while the change feed is live; what
 * decides money is checked again in the statement that writes it (server/orders/insert-created-order.ts).
 */
export type Caches = {
  merchants: RowCache<MerchantRow>;
  /** A merchant's wallets still in use, oldest first. */
  wallets: RowCache<WalletRow[]>;
  /** API keys by the SHA-256 of their secret (revoked ones too: a revocation is announced). */
  apiKeys: RowCache<ApiKeyRow>;
};

const TRUSTED_FOR_MS = 60_000;
const MAX_MERCHANTS = 10_000;

export function createCaches(db: Pick<Database, 'models' | 'changes'>): Caches {
  const { ApiKey, Merchant, Wallet } = db.models;
  return {
    merchants: createRowCache({
      feed: db.changes,
      topic: 'merchant',
      // Frozen: one row serves every request for the merchant, and none may change it in place.
      load: async (id) => {
        const row = (await Merchant.findByPk(id, { raw: true })) as MerchantRow | null;
        return row && Object.freeze(row);
      },
      ttlMs: TRUSTED_FOR_MS,
      max: MAX_MERCHANTS,
    }),
    wallets: createRowCache({
      feed: db.changes,
      topic: 'wallets',
      load: async (merchantId) =>
        (await Wallet.findAll({
          where: { merchantId, deletedAt: null },
          order: [
            ['createdAt', 'ASC'],
            ['id', 'ASC'],
          ],
          raw: true,
        })) as WalletRow[],
      ttlMs: TRUSTED_FOR_MS,
      max: MAX_MERCHANTS,
    }),
    apiKeys: createRowCache({
      feed: db.changes,
      topic: 'api_key',
      load: async (secretHash) => {
        const row = (await ApiKey.findOne({ where: { secretHash }, raw: true })) as ApiKeyRow | null;
        return row && Object.freeze(row);
      },
      ttlMs: TRUSTED_FOR_MS,
      max: MAX_MERCHANTS,
    }),
  };
}
