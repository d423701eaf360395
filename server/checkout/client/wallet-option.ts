/** The payment option a wallet pays with (network and token); omitted, the order's own. */
export type PayOption = { network: string; token: string };

/** A wallet the page can pay with, whatever its kind (Wallet Standard on Solana, EIP-1193 on EVM). */
export type WalletOption = {
  id: string;
  name: string;
  /** A data: URI icon given by the wallet, when it gives one. */
  icon: string | null;
  /** Connects, builds the transaction through the service, lets the wallet send it, reports it: the txId. */
  pay(option?: PayOption): Promise<string>;
  /**
   * Connects and asks the wallet to sign `message` (a claim proof): the signature as the service
   * takes it (EVM: personal_sign hex; Solana: ed25519, base58). Absent when the wallet cannot sign.
   */
  signClaim?: (message: string) => Promise<string>;
};

/** Calls `onChange` with the current list whenever wallets appear; returns the list so far. */
export type WalletDiscovery = (onChange: (wallets: WalletOption[]) => void) => void;

/** A data: URI image, or nothing: a wallet's icon must not make the page load anything from elsewhere. */
export const safeIcon = (icon: unknown): string | null =>
  typeof icon === 'string' && /^data:image\/(svg\+xml|png|jpeg|webp|gif);/.test(icon) ? icon : null;

/** Whether the payer said no in the wallet (EIP-1193 4001, or the words wallets use for it). */
export function isUserRejection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (code === 4001 || name === 'EvmRequestRejectedError') return true;
  return typeof message === 'string' && /\b(rejected|denied|cancell?ed|declined)\b/i.test(message);
}
