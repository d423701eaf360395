/**
 * Solana wallets through the Wallet Standard (Phantom, Solflare, Backpack, ...): discovered with
 * @wallet-standard/app; the transaction is the service's transaction request (memo, reference key,
 * priority fee), the wallet signs and sends it, and the page reports the signature.
 */
import {
  SolanaSignAndSendTransaction,
  SolanaSignMessage,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignMessageFeature,
} from '@solana/wallet-standard-features';
import { getWallets } from '@wallet-standard/app';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import type { Payer } from '../../../sdk/src/payer';
import { encodeBase58 } from '../../lib/base58';
import { safeIcon, type PayOption, type WalletDiscovery, type WalletOption } from './wallet-option';

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

/** Connects the wallet: its account for this cluster first, else any Solana one. */
async function connectAccount(wallet: Wallet, chain: string): Promise<WalletAccount> {
  const connect = (wallet.features as StandardConnectFeature)[StandardConnect];
  const { accounts } = await connect.connect();
  const account: WalletAccount | undefined =
    accounts.find((a) => a.chains.includes(chain as `${string}:${string}`)) ??
    accounts.find((a) => a.chains.some((c) => c.startsWith('solana:'))) ??
    accounts[0];
  if (!account) throw new Error('the wallet shared no account');
  return account;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The claim proof: ed25519 over the message's UTF-8 bytes, base58, as the service checks it. */
async function signClaim(wallet: Wallet, chain: string, message: string): Promise<string> {
  const account = await connectAccount(wallet, chain);
  const bytes = new TextEncoder().encode(message);
  const sign = (wallet.features as SolanaSignMessageFeature)[SolanaSignMessage];
  const [signed] = await sign.signMessage({ account, message: bytes });
  if (!signed) throw new Error('the wallet returned no signature');
  // The standard lets a wallet prefix the message: such a signature proves nothing to the service.
  if (signed.signedMessage && !sameBytes(signed.signedMessage, bytes))
    throw new Error('the wallet signed a different message');
  return encodeBase58(signed.signature);
}

function option(wallet: Wallet, payer: Payer, reference: string, chain: string): WalletOption {
  return {
    id: `ws:${wallet.name}`,
    name: wallet.name,
    icon: safeIcon(wallet.icon),
    signClaim:
      SolanaSignMessage in wallet.features ? (message) => signClaim(wallet, chain, message) : undefined,
    async pay(payOption?: PayOption) {
      const account = await connectAccount(wallet, chain);
      const built = await payer.requestSolanaTransaction({
        reference,
        account: account.address,
        option: payOption,
      });
      const send = (wallet.features as SolanaSignAndSendTransactionFeature)[SolanaSignAndSendTransaction];
      const [sent] = await send.signAndSendTransaction({
        account,
        chain: chain as `${string}:${string}`,
        transaction: base64ToBytes(built.transaction),
        options: { preflightCommitment: 'confirmed' },
      });
      if (!sent) throw new Error('the wallet returned no signature');
      const signature = encodeBase58(sent.signature);
      await payer.submitTransaction(reference, signature, undefined, payOption?.network);
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
