/**
 * A client paying the example API (api.ts) per call with x402: @x402/fetch answers the 402 with an
 * EIP-3009 authorization signed by PAYER_PRIVATE_KEY (it needs USDC, no gas: stablepay, the
 * facilitator, sends the transfer and pays the gas).
 *
 *   PAYER_PRIVATE_KEY=0x... PAID_API_URL=http://127.0.0.1:4021/weather npx tsx examples/paid-api/client.ts
 *
 * In the sandbox, fund the payer first: POST /sandbox/faucet {"network": "POLYGON", "token": "USDC", ...}.
 */
import { toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { need } from '../support';

const url = process.env.PAID_API_URL ?? 'http://127.0.0.1:4021/weather';
const account = privateKeyToAccount(need('PAYER_PRIVATE_KEY') as `0x${string}`);
const client = x402Client.fromConfig({
  schemes: [{ network: 'eip155:*', client: new ExactEvmScheme(toClientEvmSigner(account)) }],
  // The sandbox's USDC is not a token x402 knows by default: allow any, up to the price you accept.
  spendControls: { allowedAssets: true, maxAmountPerPayment: '$0.05' },
});
const pay = wrapFetchWithPayment(fetch, client);

const res = await pay(url);
console.log(`status   ${res.status}`);
console.log(`answer   ${await res.text()}`);
const header = res.headers.get('payment-response');
if (header) {
  const receipt = decodePaymentResponseHeader(header);
  console.log(`paid     ${receipt.success ? 'yes' : 'no'} by ${receipt.payer} in ${receipt.transaction}`);
}
if (res.status !== 200) process.exit(1);
