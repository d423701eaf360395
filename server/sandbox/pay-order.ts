import type { z } from 'zod';
import type { ZSandboxPayBody } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { readOrder } from '../orders/find-order';
import { optionDueUnits, pickOption } from '../orders/payment-options';
import type { OrderView } from '../orders/present-order';
import { submitPaymentClaim } from '../orders/submit-payment-claim';
import type { SandboxChains } from './sandbox-chains';
import { sandboxChains } from './sandbox-guard';

/** One of the merchant's orders paid from the sandbox's payer (POST /sandbox/orders/{reference}/pay). */
export async function payOrder(
  deps: Deps,
  input: { merchantId: string; reference: string; body: z.output<typeof ZSandboxPayBody> },
): Promise<string> {
  const chains = sandboxChains(deps); // 404 before any read on an instance that is not a sandbox
  const order = await readOrder(deps, { reference: input.reference, merchantId: input.merchantId });
  return payReadOrder(deps, chains, order, input.body);
}

/**
 * Pays an order from the sandbox's payer with a real transfer on the local chain, so the service
 * verifies it exactly as any payment: tagged with the order's reference as the transaction request
 * would, or plain (matched by its exact amount, or not at all); reported on the payer's submit-tx
 * when asked, as a wallet or checkout page would.
 */
export async function payReadOrder(
  deps: Deps,
  chains: SandboxChains,
  order: OrderView,
  body: z.output<typeof ZSandboxPayBody>,
): Promise<string> {
  const option = pickOption(order, { network: body.network, token: body.token }, 'body');
  const due = optionDueUnits(order, option);
  const units = body.amount !== undefined ? parseUnits(body.amount, option.decimals) : due;
  if (units <= 0n) throw ApiError.conflict('Nothing is due on this option: give `amount` to pay more');
  const txId = await chains.pay({
    network: option.network,
    token: option.tokenMint,
    to: option.recipient,
    units,
    tag: body.tagged ? order.reference : null,
  });
  if (body.report)
    await submitPaymentClaim(deps, {
      reference: order.reference,
      txId,
      network: option.network,
      source: 'payer',
    });
  return txId;
}
