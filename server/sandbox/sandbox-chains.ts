import type { Network, SandboxChainInfo } from '../../contract';

/**
 * What the sandbox's routes ask of its local chains. The implementation (sandbox/, litesvm and
 * Hardhat) is handed to the service at start as `deps.sandbox`: server/ never imports it, so a
 * normal instance carries no chain simulator and these routes have nothing to call.
 */
export type SandboxChains = {
  /** Each chain, its tokens and the merchant's wallet with the key the sandbox holds. */
  info(): SandboxChainInfo[];
  /** A transfer of `units` of `token` (mint or contract) from a funded payer; names `tag` when given. */
  pay(payment: {
    network: Network;
    token: string;
    to: string;
    units: bigint;
    tag: string | null;
  }): Promise<string>;
  /** Mints `units` of `token` to `address` and gives it gas; the minting transactions. */
  fund(grant: { network: Network; address: string; token: string; units: bigint }): Promise<string[]>;
  /** Mines blocks (slots) and moves every chain's clock and the service's; where each chain is then. */
  advance(step: { blocks: number; seconds: number }): Promise<SandboxPosition[]>;
  /** Signs a built refund transaction with the key of `from` and sends it; null when no key of it is held. */
  sendRefund(refund: { network: Network; from: string; transaction: unknown }): Promise<string | null>;
};

export type SandboxPosition = { network: Network; blockNumber?: number; slot?: number };
