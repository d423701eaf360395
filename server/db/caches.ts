import type { InferAttributes } from 'sequelize';
import type { Database } from './database';
import type { ApiKey, Member, Merchant, Wallet } from './models';
import { createRowCache, type RowCache } from './row-cache';
import { OLDEST_FIRST } from './order-by';

export type MerchantRow = InferAttributes<Merchant>;
export type WalletRow = InferAttributes<Wallet>;
export type ApiKeyRow = InferAttributes<ApiKey>;
export type MemberRow = InferAttributes<Member>;

/**
 * What nearly every merchant request reads before doing anything: the merchant (for the token
 * check) and, to create an order, its wallets. Kept in memory while the change feed is live; what
 * decides money is checked again in the statement that writes it (server/orders/insert-created-order.ts).
 */
export type Caches = {
  merchants: RowCache<MerchantRow>;
  /** Members by id, removed ones too (the token check refuses them): a change is announced. */
  members: RowCache<MemberRow>;
  /** A merchant's wallets still in use, oldest first. */
  wallets: RowCache<WalletRow[]>;
  /** API keys by the SHA-256 of their secret (revoked ones too: a revocation is announced). */
  apiKeys: RowCache<ApiKeyRow>;
};

const TRUSTED_FOR_MS = 60_000;
const MAX_MERCHANTS = 10_000;

export function createCaches(db: Pick<Database, 'models' | 'changes'>): Caches {
  const { ApiKey, Member, Merchant, Wallet } = db.models;
  const cache = <V extends object>(topic: string, load: (key: string) => Promise<V | null>) =>
    createRowCache({ feed: db.changes, topic, load, ttlMs: TRUSTED_FOR_MS, max: MAX_MERCHANTS });
  // Frozen: one row serves every request for its merchant, member or key, and none may change it in place.
  const frozen = <V extends object>(topic: string, load: (key: string) => Promise<unknown>) =>
    cache(topic, async (key) => {
      const row = (await load(key)) as V | null;
      return row && Object.freeze(row);
    });
  return {
    merchants: frozen<MerchantRow>('merchant', (id) => Merchant.findByPk(id, { raw: true })),
    members: frozen<MemberRow>('member', (id) => Member.findByPk(id, { raw: true })),
    wallets: cache(
      'wallets',
      async (merchantId) =>
        (await Wallet.findAll({
          where: { merchantId, deletedAt: null },
          order: OLDEST_FIRST,
          raw: true,
        })) as WalletRow[],
    ),
    apiKeys: frozen<ApiKeyRow>('api_key', (secretHash) =>
      ApiKey.findOne({ where: { secretHash }, raw: true }),
    ),
  };
}
