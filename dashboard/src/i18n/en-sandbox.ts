/** English texts of the sandbox's banner and controls (see en.ts). */
export const enSandbox = {
  sandboxBanner: 'Sandbox, no real money',
  sandboxBannerHint:
    'This service runs on local test chains: orders, payments and refunds here move test tokens only.',
  simulateTitle: 'Simulate payment',
  simulateIntro:
    'Sends a real transfer on the sandbox’s local chain from a funded test payer; the order then moves as it would for any payer.',
  simulateKind: 'Amount',
  simulateExact: 'Exact: what is still due',
  simulatePart: 'Part: half of it',
  simulateOver: 'Over: 10% more',
  simulateOption: 'Pay with',
  simulateTagged: 'Tagged: name the order on chain, as a wallet paying through the checkout does',
  simulateReport: 'Reported: tell the service the transaction, as the checkout page does',
  simulateSubmit: 'Simulate payment',
  simulateSent: 'Sent {amount} (transaction {tx}). The order follows the chain.',
  sandboxSendRefund: 'Send refund from the sandbox wallet',
  sandboxRefundSent:
    'Sent from the sandbox wallet (transaction {tx}). The refund succeeds once the chain confirms it.',
} as const;

export type SandboxKey = keyof typeof enSandbox;
