import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import type { z } from 'zod';
import { MAX_WALLETS, type ZCreateWalletBody } from '../../contract';
import { chainFor } from '../chains/registry';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { presentWallet } from './present-wallet';

export async function createWallet(
  deps: Pick<Deps, 'db' | 'chains' | 'clock'>,
  merchantId: string,
  input: z.infer<typeof ZCreateWalletBody>,
) {
  const chain = chainFor(deps.chains, input.network, 'body.network');
  const address = chain.normalizeAddress(input.public_address);
  if (!address) throw ApiError.field('body.public_address', chain.addressFormat);
  const { Wallet } = deps.db.models;
  try {
    // The merchant row is locked (FOR NO KEY UPDATE, which order inserts referencing it do not wait
    // for) so that concurrent creations cannot together pass the limit.
    const wallet = await deps.db.sequelize.transaction(async (transaction) => {
      await deps.db.sequelize.query('SELECT 1 FROM merchants WHERE id = $id FOR NO KEY UPDATE', {
        bind: { id: merchantId },
        transaction,
      });
      const held = await Wallet.count({ where: { merchantId, deletedAt: null }, transaction });
      if (held >= MAX_WALLETS) throw ApiError.conflict(`At most ${MAX_WALLETS} wallets: remove one first`);
      await claimAddress(deps, transaction, { network: input.network, address, merchantId });
      return Wallet.create(
        {
          merchantId,
          name: input.name ?? null,
          network: input.network,
          publicAddress: address,
          createdAt: deps.clock(),
        },
        { transaction },
      );
    });
    return presentWallet(wallet);
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw ApiError.conflict(`This ${input.network} wallet is already registered`);
    throw error;
  }
}

/**
 * An address receives for one merchant on this instance, for good: the first to register it owns
 * it (also once the wallet is removed: whoever holds its key did not change). Anyone else's
 * registration is a 409, so nobody can watch, reserve amounts on or be credited with payments to a
 * wallet another merchant registered.
 */
async function claimAddress(
  deps: Pick<Deps, 'db' | 'clock'>,
  transaction: Transaction,
  wallet: { network: string; address: string; merchantId: string },
): Promise<void> {
  const [owner] = await deps.db.sequelize.query<{ merchant_id: string }>(
    `WITH claimed AS (
       INSERT INTO wallet_owners (network, address, merchant_id, created_at)
       VALUES (:network, :address, :merchantId, :now)
       ON CONFLICT (network, address) DO NOTHING
       RETURNING merchant_id)
     SELECT merchant_id FROM claimed
     UNION ALL
     SELECT merchant_id FROM wallet_owners WHERE network = :network AND address = :address`,
    { type: QueryTypes.SELECT, transaction, replacements: { ...wallet, now: deps.clock() } },
  );
  // No row: a concurrent registration took it after this statement began; it is not this one's.
  if (!owner || owner.merchant_id !== wallet.merchantId)
    throw ApiError.conflict(
      `This ${wallet.network} address is registered by another account on this service: only its first owner receives payments there`,
    );
}
