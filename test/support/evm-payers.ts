import type { Address, Hex } from 'viem';
import { expect } from 'vitest';
import { claimProofMessage } from '../../contract';
import type { LocalEvm, LocalWallet } from '../../sandbox/chains/evm/local-evm';
import type { PaymentHarness } from './payment-harness';

/**
 * A wallet's transfer to the shop without the order's tag (the fee came off it, say), made final,
 * then reported by the payer with the sending wallet's signature of the claim message (submit-tx
 * answers 202). Returns the transaction id.
 */
export async function payUntaggedAndReportSigned(
  h: PaymentHarness,
  evm: LocalEvm,
  pay: {
    from: LocalWallet;
    token: Address;
    to: string;
    units: bigint;
    confirmations: number;
    reference: string;
  },
): Promise<Hex> {
  const txId = await evm.transfer({
    from: pay.from,
    token: pay.token,
    to: pay.to as Address,
    units: pay.units,
  });
  await evm.mine(pay.confirmations);
  const signature = await pay.from.signMessage({ message: claimProofMessage(pay.reference, txId) });
  expect((await h.submitTx(pay.reference, txId, signature)).status).toBe(202);
  return txId;
}

/** The network a test pays on: its name and chain id, and the token contract it pays in. */
export type EvmPayment = { network: string; chainId: number; token: Address };

/** Pays through the service's transaction request, as a browser wallet would. */
export async function payThroughRequest(
  h: PaymentHarness,
  evm: LocalEvm,
  on: EvmPayment,
  reference: string,
  from: LocalWallet,
): Promise<Hex> {
  const req = await h.server.api('GET', `/pay/tx-request/${reference}?account=${from.address}`);
  expect(req.status, req.text).toBe(200);
  expect(req.body).toMatchObject({
    network: on.network,
    chainId: on.chainId,
    to: on.token,
    value: '0',
    reference,
  });
  return evm.sendTransaction({ from, to: req.body.to, data: req.body.data });
}

/** Pays like a wallet that scanned the EIP-681 link: a plain transfer, no tag, nobody reports it. */
export async function payThroughLink(
  evm: LocalEvm,
  chainId: number,
  payUrl: string,
  from: LocalWallet,
): Promise<Hex> {
  const match =
    /^ethereum:(0x[0-9a-fA-F]{40})@(\d+)\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/.exec(payUrl);
  expect(match, payUrl).not.toBeNull();
  const [, token, chain, to, amount] = match!;
  expect(Number(chain)).toBe(chainId);
  return evm.transfer({ from, token: token as Address, to: to as Address, units: BigInt(amount!) });
}
