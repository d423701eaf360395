/**
 * A client paying the example API (api.ts) per call with x402: @x402/fetch answers the 402 with a
 * payment signed by the payer's key. It needs USDC and no gas or fee: stablepay, the facilitator,
 * sends the transfer (EVM: an EIP-3009 authorization) or co-signs it as fee payer (Solana).
 *
 *   PAYER_PRIVATE_KEY=0x... PAID_API_URL=http://127.0.0.1:4021/weather npx tsx examples/paid-api/client.ts
 *   PAYER_SOLANA_SECRET_KEY=<base58> SOLANA_RPC_URL=http://127.0.0.1:8899 npx tsx examples/paid-api/client.ts
 *
 * On Solana the client builds the transfer itself, so it reads the chain: SOLANA_RPC_URL (the
 * sandbox's is in GET /sandbox). In the sandbox, fund the payer first:
 * POST /sandbox/faucet {"network": "POLYGON" or "SOLANA", "token": "USDC", ...}.
 */
import { createKeyPairSignerFromBytes, getBase58Encoder } from '@solana/kit';
import { toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { toClientSvmSigner } from '@x402/svm';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { need } from '../support';

/** The payer's scheme: Solana when its key is given, else EVM. */
async function payerScheme() {
  const solanaKey = process.env.PAYER_SOLANA_SECRET_KEY;
  if (solanaKey) {
    const signer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solanaKey));
    const client = new ExactSvmScheme(toClientSvmSigner(signer), { rpcUrl: need('SOLANA_RPC_URL') });
    return { network: 'solana:*' as const, client };
  }
  const account = privateKeyToAccount(need('PAYER_PRIVATE_KEY') as `0x${string}`);
  return { network: 'eip155:*' as const, client: new ExactEvmScheme(toClientEvmSigner(account)) };
}

const url = process.env.PAID_API_URL ?? 'http://127.0.0.1:4021/weather';
const client = x402Client.fromConfig({
  schemes: [await payerScheme()],
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
