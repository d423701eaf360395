import type { Deps } from '../deps';
import { blockhashOfKey } from './check-solana-payment';
import { x402SolanaNetwork } from './x402-solana';

/**
 * What became of a Solana settlement's transaction: `included` (confirmed), `reverted` (landed
 * with an error), `expired` (not on chain and its blockhash no longer valid: it can never land),
 * or null while it may still land.
 */
export async function solanaOutcome(
  deps: Pick<Deps, 'config' | 'chains'>,
  row: { settlement_key: string; transaction: string },
): Promise<'included' | 'reverted' | 'expired' | null> {
  const { connection } = x402SolanaNetwork(deps);
  const status = async () =>
    (await connection.getSignatureStatuses([row.transaction], { searchTransactionHistory: true })).value[0];
  const seen = await status();
  if (seen?.err) return 'reverted';
  if (seen) return seen.confirmationStatus === 'processed' ? null : 'included';
  const { value: valid } = await connection.isBlockhashValid(blockhashOfKey(row.settlement_key), {
    commitment: 'confirmed',
  });
  if (valid) return null;
  // It may have landed just before its blockhash expired: looked at once more, after.
  return (await status()) ? null : 'expired';
}
