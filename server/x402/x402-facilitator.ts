import { x402Facilitator } from '@x402/core/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { Deps } from '../deps';
import { facilitatorEvmSigner, type SendWatch } from './evm-signer';
import { evmGasKey, x402EvmNetworks, type X402EvmNetwork } from './x402-networks';

const verifiers = new WeakMap<Deps['config'], x402Facilitator>();

/**
 * @x402/core's facilitator with @x402/evm's `exact` scheme on each network x402 is on here, for
 * /supported and /verify: its signer reads and checks signatures, and never sends. Built once per
 * configuration. 503 NOT_CONFIGURED without X402_EVM_PRIVATE_KEY.
 */
export function verifyingFacilitator(deps: Pick<Deps, 'config' | 'db'>): x402Facilitator {
  const gasKey = evmGasKey(deps);
  let facilitator = verifiers.get(deps.config);
  if (!facilitator) {
    facilitator = new x402Facilitator();
    for (const net of x402EvmNetworks(deps))
      facilitator.register(net.caip2, new ExactEvmScheme(facilitatorEvmSigner(deps, net, gasKey)));
    verifiers.set(deps.config, facilitator);
  }
  return facilitator;
}

/**
 * A facilitator for one settlement on `net`: its signer sends (serialized per gas key, refused
 * above the gas price ceiling or without gas) and tells `watch` what became of the transaction.
 * The scheme checks the authorization again first, simulating the transfer (no gas spent on one
 * that would revert).
 */
export function settlingFacilitator(
  deps: Pick<Deps, 'config' | 'db'>,
  net: X402EvmNetwork,
  gasKey: `0x${string}`,
  watch: SendWatch,
): x402Facilitator {
  return new x402Facilitator().register(
    net.caip2,
    new ExactEvmScheme(facilitatorEvmSigner(deps, net, gasKey, watch), { simulateInSettle: true }),
  );
}
