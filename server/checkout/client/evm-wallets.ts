/**
 * Polygon/Ethereum wallets through EIP-1193: every wallet that announces itself with EIP-6963
 * (MetaMask, Rabby, Coinbase Wallet... side by side), else the one on window.ethereum. Paying is the
 * SDK's payWithEvmWallet: connect, switch to the order's chain, send the tagged transfer from the
 * transaction request, report the hash. The page follows the status itself (timeoutMs 0).
 */
import type { Eip1193Provider, Payer } from '../../../sdk/src/payer';
import { utf8Hex } from './report-request';
import { safeIcon, type PayOption, type WalletDiscovery, type WalletOption } from './wallet-option';

type Eip6963Detail = {
  info?: { uuid?: unknown; name?: unknown; icon?: unknown; rdns?: unknown };
  provider?: Eip1193Provider;
};

declare global {
  interface Window {
    ethereum?: Eip1193Provider & { isMetaMask?: boolean };
  }
}

function option(
  id: string,
  name: string,
  icon: unknown,
  provider: Eip1193Provider,
  pay: Payer['payWithEvmWallet'],
  reference: string,
): WalletOption {
  return {
    id,
    name,
    icon: safeIcon(icon),
    async pay(payOption?: PayOption) {
      const { txId } = await pay({ reference, provider, timeoutMs: 0, option: payOption });
      return txId;
    },
    signClaim: (message) => signClaim(provider, message),
  };
}

/** The claim proof: EIP-191 personal_sign of the message by the wallet's first account, hex. */
async function signClaim(provider: Eip1193Provider, message: string): Promise<string> {
  const accounts = await provider.request({ method: 'eth_requestAccounts' });
  const account: unknown = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof account !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(account))
    throw new Error('the wallet shared no account');
  const signature = await provider.request({ method: 'personal_sign', params: [utf8Hex(message), account] });
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature))
    throw new Error('the wallet returned no signature');
  return signature;
}

/** How long to wait for EIP-6963 announcements before offering window.ethereum instead. */
const ANNOUNCE_GRACE_MS = 300;

/** `unnamed` names a window.ethereum wallet that does not say which it is. */
export function evmWallets(payer: Payer, reference: string, unnamed: string): WalletDiscovery {
  return (onChange) => {
    const announced = new Map<string, WalletOption>();
    let legacy: WalletOption | null = null;
    const publish = () => onChange(announced.size ? [...announced.values()] : legacy ? [legacy] : []);

    window.addEventListener('eip6963:announceProvider', (event) => {
      const detail = (event as CustomEvent<Eip6963Detail>).detail;
      const { info, provider } = detail ?? {};
      if (!info || typeof provider?.request !== 'function') return;
      const id = typeof info.uuid === 'string' ? info.uuid : String(info.rdns ?? announced.size);
      const name =
        typeof info.name === 'string' && info.name.trim() ? info.name.trim().slice(0, 40) : 'Wallet';
      announced.set(id, option(`6963:${id}`, name, info.icon, provider, payer.payWithEvmWallet, reference));
      publish();
    });
    window.dispatchEvent(new Event('eip6963:requestProvider'));

    // Wallets from before EIP-6963 only set window.ethereum; one that does both is already listed.
    setTimeout(() => {
      const injected = window.ethereum;
      if (!announced.size && typeof injected?.request === 'function')
        legacy = option(
          'injected',
          injected.isMetaMask ? 'MetaMask' : unnamed,
          null,
          injected,
          payer.payWithEvmWallet,
          reference,
        );
      publish();
    }, ANNOUNCE_GRACE_MS);
  };
}
