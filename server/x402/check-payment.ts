import type { Deps } from '../deps';
import { checkEvmPayment } from './check-evm-payment';
import { checkSolanaPayment } from './check-solana-payment';
import type { CheckedPayment, RefusedPayment, X402Request } from './payment-rules';
import { isSolanaCaip2 } from './x402-solana';

export type { CheckedPayment, RefusedPayment, X402Request } from './payment-rules';

/**
 * What this service checks before @x402's scheme of the payment's network does: x402 v2 `exact`,
 * a network x402 is on here, a configured token of it, one of the key's account's wallets, at most
 * X402_MAX_AMOUNT. Throws 503 NOT_CONFIGURED without that network's gas key. Nothing is sent.
 */
export function checkPayment(
  deps: Pick<Deps, 'config' | 'db' | 'chains'>,
  merchantId: string,
  body: X402Request,
): Promise<CheckedPayment | RefusedPayment> {
  return isSolanaCaip2(body.paymentRequirements.network)
    ? checkSolanaPayment(deps, merchantId, body)
    : checkEvmPayment(deps, merchantId, body);
}
