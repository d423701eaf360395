/**
 * Answers the sweeps (robustness, fuzz) must not count as faults although they are 5xx.
 *
 * x402 without its operator keys answers 503 NOT_CONFIGURED by design (DESIGN.md, "x402"): the
 * instance names the variable to set; it is a deployment's state, not a fault.
 */
export function isDeliberateUnconfigured(path: string, status: number, text: string): boolean {
  return status === 503 && /^\/x402\//i.test(path) && text.includes('"NOT_CONFIGURED"');
}
