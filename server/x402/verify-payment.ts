import type { VerifyResponse } from '@x402/core/types';
import { rpcCall } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { checkPayment, type X402Request } from './check-payment';
import { verifyingFacilitator } from './x402-facilitator';

/**
 * POST /x402/verify: this account's rules (checkPayment), then @x402/evm's or @x402/svm's
 * checks of the payment (signatures, time window, amount, recipient, a simulated transfer). Nothing is sent.
 */
export async function verifyPayment(
  deps: Pick<Deps, 'config' | 'db' | 'chains'>,
  merchantId: string,
  body: X402Request,
): Promise<VerifyResponse> {
  const checked = await checkPayment(deps, merchantId, body);
  if (!checked.ok)
    return {
      isValid: false,
      invalidReason: checked.reason,
      invalidMessage: checked.message,
      ...(checked.payer ? { payer: checked.payer } : {}),
    };
  // The scheme's reads (signature check, balance, a simulated transfer): the chain unreachable is a 502.
  const result = await rpcCall(checked.network, 'x402 verify', () =>
    verifyingFacilitator(deps).verify(checked.payload, checked.requirements),
  );
  return {
    isValid: result.isValid,
    ...(result.invalidReason ? { invalidReason: result.invalidReason } : {}),
    ...(result.invalidMessage ? { invalidMessage: result.invalidMessage.slice(0, 1000) } : {}),
    ...(result.payer ? { payer: result.payer } : {}),
  };
}
