import { UniqueConstraintError } from 'sequelize';
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
