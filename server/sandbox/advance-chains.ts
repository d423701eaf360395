import type { z } from 'zod';
import type { ZSandboxAdvanceBody } from '../../contract';
import type { Deps } from '../deps';
import { sandboxChains } from './sandbox-guard';
import type { SandboxPosition } from './sandbox-chains';

/**
 * Mines blocks and moves the clocks: payments reach their confirmations, and time-bound rules
 * (expiry, late windows, subscriptions' periods) can be tried without waiting for them. The service's
 * clock is the one the sandbox handed it at start, so moving it is the chains' implementation's job.
 */
export function advanceChains(
  deps: Deps,
  body: z.output<typeof ZSandboxAdvanceBody>,
): Promise<SandboxPosition[]> {
  return sandboxChains(deps).advance({ blocks: body.blocks, seconds: body.seconds });
}
