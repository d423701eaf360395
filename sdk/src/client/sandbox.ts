import { byId, byReference, success, type ClientContext } from './core';
import type {
  SandboxAdvanceParams,
  SandboxAdvanceResult,
  SandboxFaucetParams,
  SandboxInfo,
  SandboxPayParams,
  X402FacilitatorClient,
  X402PaymentPayload,
  X402Requirements,
} from './types';

export interface X402Api {
  /**
   * A facilitator client for @x402/express (or any x402 v2 resource server): `verify`,
   * `settle` and `getSupported` on this service's /x402 routes with this client's API key
   * (scope `x402:settle`). Pass it to `new x402ResourceServer(...)`. A settle is never retried
   * (presented again, a payment answers `already_settled`).
   */
  facilitator(): X402FacilitatorClient;
}

export interface SandboxApi {
  /** GET /sandbox: each local chain's RPC URL, chain id and tokens, and the merchant's wallet keys. */
  info(): Promise<SandboxInfo>;
  /**
   * POST /sandbox/orders/{reference}/pay: a real transfer from a funded sandbox payer (default
   * what is still due, tagged, unreported). Never retried on an unknown outcome: it moves money.
   */
  pay(reference: string, body?: SandboxPayParams): Promise<{ txId: string }>;
  /** POST /sandbox/faucet: test tokens and gas to any address. */
  faucet(body: SandboxFaucetParams): Promise<{ txIds: string[] }>;
  /** POST /sandbox/advance: mine blocks and move the chains' clocks and the service's. */
  advance(body?: SandboxAdvanceParams): Promise<SandboxAdvanceResult>;
  /** POST /sandbox/refunds/{id}/send: sign and send a PENDING refund with the sandbox merchant's key. */
  sendRefund(refundId: string): Promise<{ txId: string }>;
  /**
   * POST /sandbox/payouts/{id}/send: sign, send and report an APPROVED payout's transactions with
   * the sandbox merchant's keys (fund its wallets first). Never retried on an unknown outcome.
   */
  sendPayout(payoutId: string): Promise<{ txIds: string[] }>;
}

export function x402Api({ raw }: ClientContext): X402Api {
  return {
    facilitator(): X402FacilitatorClient {
      const request = (paymentPayload: X402PaymentPayload, paymentRequirements: X402Requirements) => ({
        body: { x402Version: paymentPayload.x402Version, paymentPayload, paymentRequirements },
      });
      return {
        verify: (payload, requirements) => success(raw.x402.verify(request(payload, requirements))),
        settle: (payload, requirements) => success(raw.x402.settle(request(payload, requirements))),
        getSupported: () => success(raw.x402.supported()),
      };
    },
  };
}

export function sandboxApi({ raw }: ClientContext): SandboxApi {
  return {
    async info(): Promise<SandboxInfo> {
      return success(raw.sandbox.info());
    },
    async pay(reference: string, body: SandboxPayParams = {}): Promise<{ txId: string }> {
      return success(raw.sandbox.pay({ ...byReference(reference), body }));
    },
    async faucet(body: SandboxFaucetParams): Promise<{ txIds: string[] }> {
      return success(raw.sandbox.faucet({ body }));
    },
    async advance(body: SandboxAdvanceParams = {}): Promise<SandboxAdvanceResult> {
      return success(raw.sandbox.advance({ body }));
    },
    async sendRefund(refundId: string): Promise<{ txId: string }> {
      return success(raw.sandbox.sendRefund(byId(refundId)));
    },
    async sendPayout(payoutId: string): Promise<{ txIds: string[] }> {
      return success(raw.sandbox.sendPayout(byId(payoutId)));
    },
  };
}
