import { UniqueConstraintError } from 'sequelize';
import type { z } from 'zod';
import type { ZCreateWalletBody } from '../../contract';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { presentWallet } from './present-wallet';

export async function createWallet(
  deps: Pick<Deps, 'db' | 'chains' | 'clock'>,
  merchantId: string,
  input: z.infer<typeof ZCreateWalletBody>,
) {
  const chain = deps.chains.get(input.network);
  const address = chain.normalizeAddress(input.public_address);
  if (!address) throw ApiError.field('body.public_address', chain.addressFormat);
  try {
    const wallet = await deps.db.models.Wallet.create({
      merchantId,
      name: input.name ?? null,
      network: input.network,
      publicAddress: address,
      createdAt: deps.clock(),
    });
    return presentWallet(wallet);
  } catch (error) {
    if (error instanceof UniqueConstraintError)
      throw ApiError.conflict(`This ${input.network} wallet is already registered`);
    throw error;
  }
}
