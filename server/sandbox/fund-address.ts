import type { z } from 'zod';
import type { ZSandboxFaucetBody } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { sandboxChains } from './sandbox-guard';

/**
 * The faucet: test tokens (and gas) for any address, in the token the service is configured with
 * on that network, so a payer's own wallet or a shop's test suite can pay through its own code.
 */
export async function fundAddress(deps: Deps, body: z.output<typeof ZSandboxFaucetBody>): Promise<string[]> {
  const chains = sandboxChains(deps);
  const symbol = body.token ?? 'USDT';
  const token = deps.chains
    .find(body.network)
    ?.tokens()
    .find((t) => t.token === symbol);
  if (!token) throw ApiError.field('body.token', `the sandbox has no ${symbol} on ${body.network}`);
  return chains.fund({
    network: body.network,
    address: body.address,
    token: token.contract,
    units: parseUnits(body.amount, token.decimals),
  });
}
