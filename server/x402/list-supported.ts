import type { Deps } from '../deps';
import { verifyingFacilitator } from './x402-facilitator';

/** GET /x402/supported: `exact` on each network x402 is on here, and the gas key's address. */
export function listSupported(deps: Pick<Deps, 'config' | 'db' | 'chains'>) {
  return verifyingFacilitator(deps).getSupported();
}
