/**
 * What the server hands the checkout script inside the page (a JSON script element): the order as
 * the public info route shows it, so the first paint needs no extra request, and what only the
 * server knows (the network's words and explorer, its clock). Shared by both sides as a type.
 */
import type { z } from 'zod';
import type { Network, ZPaymentInfo } from '../../contract';
import type { Locale } from './i18n';

export type Explorer = { name: string; txUrl: string };

export type NetworkView = {
  network: Network;
  /** The network in words, as payers know it. */
  name: string;
  /** Which browser wallets pay on it: Wallet Standard wallets, EIP-1193 ones, or TRON's TIP-1193 (TronLink). */
  walletProtocol: 'wallet-standard' | 'eip-1193' | 'tip-1193';
  /** What the token's address is called there. */
  tokenKind: 'mint' | 'contract';
  /** EVM chain id (the page switches the wallet to it); null elsewhere. */
  chainId: number | null;
  /** Wallet Standard chain (`solana:mainnet`...); null elsewhere. */
  walletChain: string | null;
  /** `txUrl` holds `{tx}`; null when no public explorer knows the chain (a local one). */
  explorer: Explorer | null;
};

export type PaymentInfo = z.infer<typeof ZPaymentInfo>;

export type PageConfig = {
  reference: string;
  /** The language the server chose from ?lang= or Accept-Language; the script re-checks navigator.languages. */
  locale: Locale;
  /** Whether ?lang= chose it (then the browser's languages do not override it). */
  localeFromQuery: boolean;
  info: PaymentInfo;
  network: NetworkView;
  /** Every payment option's network in words (the order's own among them), for the payer's choice. */
  networks: Partial<Record<Network, NetworkView>>;
  /** The server's clock when the page was built, to count down against its time, not the device's. */
  serverNow: string;
  /** A sandbox instance (test money): the page says so and offers the sandbox wallet. */
  sandbox: boolean;
};

/** The id of the JSON script element that carries the PageConfig. */
export const CONFIG_ELEMENT_ID = 'checkout-config';
