import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { x402Facilitator } from '@x402/core/facilitator';
import type { z } from 'zod';
import type { Network, ZX402Request } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import type { Deps } from '../deps';
import type { SendWatch } from './evm-signer';

export type X402Request = z.infer<typeof ZX402Request>;

/** A payment this account may take, on any chain, ready for @x402's scheme of its network. */
export type CheckedPayment = {
  ok: true;
  network: Network;
  caip2: `${string}:${string}`;
  /** The token contract (EVM, checksummed) or mint (Solana). */
  asset: string;
  symbol: string;
  decimals: number;
  payTo: string;
  walletId: string;
  payer: string;
  amountUnits: bigint;
  /** The requirements as the scheme checks them (EVM: the token's own EIP-712 name and version). */
  requirements: PaymentRequirements;
  payload: PaymentPayload;
  /** Unique per payment (EVM: the authorization; Solana: the transaction's message): settled once. */
  settlementKey: string;
  /** The URL paid for, when the payment names it. */
  resource: string | null;
  /** When the payment stops being valid (EVM: the authorization's validBefore; Solana: its blockhash, null here). */
  validBefore: Date | null;
  /** A facilitator for this one settlement: its signer sends, and tells `watch` what it sent. */
  settler(watch: SendWatch): x402Facilitator;
};
export type RefusedPayment = { ok: false; reason: string; message: string; payer?: string; network: string };

export const refuse = (network: string, reason: string, message: string, payer?: string): RefusedPayment => ({
  ok: false,
  reason,
  message,
  network,
  ...(payer ? { payer } : {}),
});

/** x402 version 2 `exact`, on the network it was made for: the rules before any chain's. */
export function versionAndScheme(body: X402Request): { reason: string; message: string } | null {
  const requirements = body.paymentRequirements as PaymentRequirements;
  const payload = body.paymentPayload as PaymentPayload;
  if (body.x402Version !== 2 || payload.x402Version !== 2)
    return { reason: 'unsupported_x402_version', message: 'This facilitator speaks x402 version 2' };
  if (requirements.scheme !== 'exact' || payload.accepted.scheme !== 'exact')
    return { reason: 'unsupported_scheme', message: 'Only the `exact` scheme is settled here' };
  return null;
}

/**
 * `payTo` is one of the account's wallets on `network` (its id), and the amount more than 0 and at
 * most X402_MAX_AMOUNT; else why not.
 */
export async function walletAndAmount(
  deps: Pick<Deps, 'config' | 'db'>,
  merchantId: string,
  o: { network: Network; payTo: string; amountUnits: bigint; symbol: string; decimals: number },
): Promise<{ walletId: string } | { reason: string; message: string }> {
  const wallet = await deps.db.models.Wallet.findOne({
    where: { merchantId, network: o.network, publicAddress: o.payTo, deletedAt: null },
    attributes: ['id'],
  });
  if (!wallet)
    return {
      reason: 'invalid_pay_to',
      message: `payTo ${o.payTo} is not one of this account's ${o.network} wallets: add it (POST /users/me/wallets) to be paid there`,
    };
  const max = parseUnits(deps.config.x402.maxAmount, o.decimals);
  if (o.amountUnits <= 0n) return { reason: 'invalid_amount', message: 'The amount must be more than 0' };
  if (o.amountUnits > max)
    return {
      reason: 'amount_too_large',
      message: `The amount is above X402_MAX_AMOUNT (${deps.config.x402.maxAmount} ${o.symbol})`,
    };
  return { walletId: wallet.id };
}
