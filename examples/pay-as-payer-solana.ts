/**
 * Pay an order the way a payer's wallet does: ask stablepay for the transaction (Solana Pay
 * transaction request), sign it, send it, report it, and wait until the service has verified it.
 *
 *   STABLEPAY_URL=http://localhost:3000 ORDER_REFERENCE=... SOLANA_RPC_URL=... \
 *     PAYER_SECRET_KEY='[12,34,...]' npx tsx examples/pay-as-payer-solana.ts
 *
 * In a browser, pass your wallet adapter (Phantom, Solflare...) as `wallet` instead of a Keypair.
 * No merchant token is needed: these routes are public.
 */
import { Connection, Keypair, type Transaction } from '@solana/web3.js';
import { parsePayUrl, payWithSolanaWallet } from '@stablepay/sdk/payer';
import { need } from './support';

const baseUrl = process.env.STABLEPAY_URL ?? 'http://localhost:3000';
const reference = need('ORDER_REFERENCE');
const payer = Keypair.fromSecretKey(Uint8Array.from(JSON.parse(need('PAYER_SECRET_KEY')) as number[]));
const connection = new Connection(need('SOLANA_RPC_URL'), 'confirmed');

const wallet = {
  publicKey: payer.publicKey,
  signTransaction: async <T extends Transaction>(tx: T) => {
    tx.partialSign(payer);
    return tx;
  },
};

const result = await payWithSolanaWallet({ baseUrl, reference, wallet, connection, timeoutMs: 60_000 });
const link = parsePayUrl(result.info.payUrl);
console.log(`signature   ${result.signature}`);
console.log(`status      ${result.info.status}${result.timedOut ? ' (still verifying)' : ''}`);
console.log(
  `paid        ${result.info.amountReceived} ${result.info.token} to ${'recipient' in link ? link.recipient : ''}`,
);
