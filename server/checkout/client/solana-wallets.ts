/**
 * Solana wallets through the Wallet Standard (Phantom, Solflare, Backpack, ...): discovered with
 * @wallet-standard/app; the transaction is the service's transaction request (memo, reference key,
 * priority fee), the wallet signs and sends it, and the page reports the signature.
 */
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
} from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import type { Payer } from '../../../sdk/src/payer';
import { encodeBase58 } from '../../lib/base58';
import { safeIcon, type WalletDiscovery, type WalletOption } from './wallet-option';

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Wallets that can connect and sign-and-send a Solana transaction; the ones that cannot are not offered. */
function canPay(wallet: Wallet): boolean {
  return (
    StandardConnect in wallet.features &&
    SolanaSignAndSendTransaction in wallet.features &&
    wallet.chains.some((chain) => chain.startsWith('solana:'))
  );
}

function option(wallet: Wallet, payer: Payer, reference: string, chain: string): WalletOption {
  return {
    id: `ws:${wallet.name}`,
    name: wallet.name,
    icon: safeIcon(wallet.icon),
    async pay() {
      const connect = (wallet.features as StandardConnectFeature)[StandardConnect];
      const { accounts } = await connect.connect();
      // Wallets list accounts per chain; one for this cluster first, else any Solana one.
      const account: WalletAccount | undefined =
        accounts.find((a) => a.chains.includes(chain as `${string}:${string}`)) ??
        accounts.find((a) => a.chains.some((c) => c.startsWith('solana:'))) ??
        accounts[0];
      if (!account) throw new Error('the wallet shared no account');
      const built = await payer.requestSolanaTransaction({ reference, account: account.address });
      const send = (wallet.features as SolanaSignAndSendTransactionFeature)[SolanaSignAndSendTransaction];
      const [sent] = await send.signAndSendTransaction({
        account,
        chain: chain as `${string}:${string}`,
        transaction: base64ToBytes(built.transaction),
        options: { preflightCommitment: 'confirmed' },
      });
      if (!sent) throw new Error('the wallet returned no signature');
      const signature = encodeBase58(sent.signature);
      await payer.submitTransaction(reference, signature);
      return signature;
    },
  };
}

export function solanaWallets(payer: Payer, reference: string, chain: string): WalletDiscovery {
  return (onChange) => {
    const registry = getWallets();
    const list = () =>
      registry
        .get()
        .filter(canPay)
        .map((w) => option(w, payer, reference, chain));
    registry.on('register', () => onChange(list()));
    registry.on('unregister', () => onChange(list()));
    onChange(list());
  };
}
