import type { z } from 'zod';
import type { ZWallet } from '../../contract';
import type { Wallet } from '../db/models';

export function presentWallet(w: Wallet): z.infer<typeof ZWallet> {
  return {
    wallet_id: w.id,
    name: w.name,
    network: w.network,
    public_address: w.publicAddress,
    created_at: w.createdAt.toISOString(),
  };
}
