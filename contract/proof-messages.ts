/**
 * The texts a wallet signs to prove it controls an address (DESIGN.md, "Money safety against other
 * people"): the sender of a transfer claiming it for an order, and the sender of a payment giving
 * the address its refund goes to. The txId and the address are written exactly as the request body
 * sends them. Shared by the server (which checks), the SDK and the checkout (which ask a wallet).
 */
export const claimProofMessage = (reference: string, txId: string) => `stablepay claim ${reference} ${txId}`;

export const refundAddressProofMessage = (refundId: string, address: string) =>
  `stablepay refund ${refundId} ${address}`;
