import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
} from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import { encodeBase58 } from '../../../server/lib/base58';
import { api, ok } from '../api';
import { NotThePayingWallet } from './paying-wallet';
import type { PayoutStep } from './payout-wallet';

/**
 * Pays a payout's Solana items from the merchant's browser wallet through the Wallet Standard
 * (Phantom, Solflare, Backpack…: the connectors the checkout's payers use): each of the service's
 * unsigned transactions (several transfers each, missing token accounts created) is signed and sent
 * by the wallet, then reported. The service verifies every item on chain; this only sends.
 */

/** The first registered wallet that can connect and sign-and-send on Solana, else null. */
export function findSolanaWallet(): Wallet | null {
  return (
    getWallets()
      .get()
      .find(
        (w) =>
          StandardConnect in w.features &&
          SolanaSignAndSendTransaction in w.features &&
          w.chains.some((chain) => chain.startsWith('solana:')),
      ) ?? null
  );
}

const fromBase64 = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

/** The wallet's account that is the paying wallet: the service verifies transfers from it alone. */
async function payingAccount(wallet: Wallet, paying: string): Promise<WalletAccount> {
  const { accounts } = await (wallet.features as StandardConnectFeature)[StandardConnect].connect();
  const account = accounts.find((a) => a.address === paying);
  if (!account)
    throw new NotThePayingWallet(
      paying,
      accounts.map((a) => a.address),
    );
  return account;
}

export async function paySolanaFromBrowserWallet(
  wallet: Wallet,
  payoutId: string,
  walletChain: string,
  onStep: (step: PayoutStep) => void,
): Promise<void> {
  onStep({ step: 'connect' });
  const { transactions } = ok(await api.payouts.transactions({ params: { id: payoutId } }), 200);
  const send = (wallet.features as SolanaSignAndSendTransactionFeature)[SolanaSignAndSendTransaction];
  for (const tx of transactions) {
    if (tx.network !== 'SOLANA' || typeof tx.transaction !== 'string') continue;
    const account = await payingAccount(wallet, tx.from);
    onStep({ step: 'pay', network: 'SOLANA' });
    const [sent] = await send.signAndSendTransaction({
      account,
      chain: walletChain as `${string}:${string}`,
      transaction: fromBase64(tx.transaction),
      options: { preflightCommitment: 'confirmed' },
    });
    if (!sent) throw new Error('the wallet returned no signature');
    ok(
      await api.payouts.report({
        params: { id: payoutId },
        body: { network: 'SOLANA', txId: encodeBase58(sent.signature) },
      }),
      200,
    );
  }
}
