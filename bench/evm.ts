import { toHex, type Hex } from 'viem';
import { decodeBase58 } from '../server/lib/base58';
import type { Ctx, EvmCtx } from './stack';

export function requireEvm(ctx: Ctx): EvmCtx {
  if (!ctx.evm) throw new Error('the local EVM chain was not started');
  return ctx.evm;
}

/** The 32-byte tag the transaction request appends to an EVM transfer for this order. */
export function evmTag(reference: string): Hex {
  const bytes = decodeBase58(reference);
  if (!bytes || bytes.length !== 32) throw new Error(`order reference is not a 32-byte key: ${reference}`);
  return toHex(bytes);
}
