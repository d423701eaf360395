/**
 * TRON's TronLink through the TRON wallet adapter (@tronweb3/tronwallet-adapter-tronlink): found by
 * its TIP-6963 announcement (else window.tron / window.tronLink), connected for a T… account. The
 * service builds the unsigned USDT transfer (GET /pay/tx-request, tag in the calldata), the wallet
 * signs it and broadcasts it with its own tronWeb (the page knows no TRON node), the page reports the
 * txId. The adapter only signs, so the provider it found is kept here for the broadcast.
 */
import { TIP6963AnnounceProviderEventName, WalletReadyState } from '@tronweb3/tronwallet-abstract-adapter';
import { TronLinkAdapter } from '@tronweb3/tronwallet-adapter-tronlink';
import type { Payer } from '../../../sdk/src/payer';
import { serviceMessage } from './report-request';
import { safeIcon, type PayOption, type WalletDiscovery, type WalletOption } from './wallet-option';

/** What TronLink's tronWeb answers to sendRawTransaction: result and txid, or a code and a hex message. */
type BroadcastAnswer = { result?: boolean; txid?: string; code?: unknown; message?: string };
type WalletTronWeb = { trx: { sendRawTransaction(signed: unknown): Promise<BroadcastAnswer> } };
type TronProvider = { tronWeb?: WalletTronWeb | false };

/**
 * How long the adapter waits for TronLink's announcement before trying window.tron / window.tronLink:
 * its default (5 s) would hold the TRON option's wallet list that long on a browser without one.
 */
const CHECK_TIMEOUT_MS = 1500;

/** The unsigned transfer the service built (TRON's transaction request). */
type TronTransactionRequest = { transaction: { txID: string } & Record<string, unknown> };

async function requestTransaction(
  reference: string,
  account: string,
  option?: PayOption,
): Promise<TronTransactionRequest> {
  const query = new URLSearchParams({ account, ...option });
  const url = `${window.location.origin}/pay/tx-request/${encodeURIComponent(reference)}?${query}`;
  const res = await window.fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(15_000),
  });
  const answer: unknown = await res.json().catch(() => null);
  const transaction = (answer as Partial<TronTransactionRequest> | null)?.transaction;
  if (!res.ok || typeof transaction?.txID !== 'string') throw new Error(serviceMessage(res.status, answer));
  return { transaction };
}

/** TRON's error messages come hex-encoded; shown as words when they are. */
function brokenBroadcast(answer: BroadcastAnswer): Error {
  const hex = answer.message ?? '';
  const words = /^([0-9a-fA-F]{2})+$/.test(hex)
    ? new TextDecoder().decode(Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16)))
    : hex;
  return new Error(words || String(answer.code ?? 'the wallet did not broadcast the transaction'));
}

/** The provider TronLink announced (the one the adapter uses), else the injected objects. */
function watchProvider(): () => TronProvider | undefined {
  let announced: TronProvider | undefined;
  window.addEventListener(TIP6963AnnounceProviderEventName, (event) => {
    const detail = (event as unknown as CustomEvent<{ info?: { name?: unknown }; provider?: TronProvider }>)
      .detail;
    if (detail?.info?.name === 'TronLink' && detail.provider) announced ??= detail.provider;
  });
  return () => announced ?? ((window.tron ?? window.tronLink) as TronProvider | undefined);
}

function option(
  adapter: TronLinkAdapter,
  provider: () => TronProvider | undefined,
  payer: Payer,
  reference: string,
  chainId: number | null,
) {
  const connected = async () => {
    if (!adapter.connected) await adapter.connect();
    return adapter.address;
  };
  // The claim proof: TIP-191 (TronLink's signMessageV2), 0x and 65 bytes hex, as the service checks it.
  const signClaim = async (message: string) => {
    await connected();
    return adapter.signMessage(message);
  };
  // TronLink signs against the chain it is on and broadcasts there: a TIP-1193 TronLink is moved to
  // the order's chain first (no-op when on it); an older one (window.tronLink only) cannot switch.
  const onOrderChain = async () => {
    const current = provider();
    if (chainId !== null && current && current !== window.tronLink)
      await adapter.switchChain(`0x${chainId.toString(16)}`);
  };
  const pay = async (payOption?: PayOption) => {
    const account = await connected();
    if (!account) throw new Error('the wallet shared no account');
    await onOrderChain();
    const { transaction } = await requestTransaction(reference, account, payOption);
    const signed = await adapter.signTransaction(transaction as never);
    const tronWeb = provider()?.tronWeb;
    if (!tronWeb) throw new Error('the wallet cannot broadcast');
    const answer = await tronWeb.trx.sendRawTransaction(signed);
    if (answer.result !== true) throw brokenBroadcast(answer);
    const txId = answer.txid ?? transaction.txID;
    await payer.submitTransaction(reference, txId, undefined, payOption?.network);
    return txId;
  };
  return {
    id: 'tronlink',
    name: adapter.name,
    icon: safeIcon(adapter.icon),
    pay,
    signClaim,
  } satisfies WalletOption;
}

/** `chainId`: the TRON chain the service watches (the page's NetworkView), for TronLink to switch to. */
export function tronWallets(payer: Payer, reference: string, chainId: number | null): WalletDiscovery {
  return (onChange) => {
    const provider = watchProvider();
    // No page opened elsewhere: TronLink's site when the wallet is missing, its app on phones.
    const adapter = new TronLinkAdapter({
      checkTimeout: CHECK_TIMEOUT_MS,
      openUrlWhenWalletNotFound: false,
      openAppWithDeeplink: false,
    });
    const publish = () =>
      onChange(
        adapter.readyState === WalletReadyState.Found
          ? [option(adapter, provider, payer, reference, chainId)]
          : [],
      );
    adapter.on('readyStateChanged', publish);
    publish();
  };
}
