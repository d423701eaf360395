/**
 * The checkout page's script (bundled by the service with esbuild, served from /checkout/assets).
 * It reads the order the server put in the page, shows it, follows its status by polling the
 * public info route, and pays through the SDK's payer helpers with the browser's wallets.
 */
import { createPayer } from '../../../sdk/src/payer';
import { pickLocale, translate } from '../i18n';
import { CONFIG_ELEMENT_ID, type NetworkView, type PageConfig } from '../page-config';
import { evmWallets } from './evm-wallets';
import { createReport } from './report';
import { createSandboxPay } from './sandbox-pay';
import { solanaWallets } from './solana-wallets';
import { tronWallets } from './tron-wallets';
import { createView, setClockSkew } from './view';
import { isUserRejection, type WalletOption } from './wallet-option';

/** How often the status is read: often while a payment can happen, rarely once expired (late payments). */
const POLL_MS = { active: 2000, expired: 10_000 } as const;

function readConfig(): PageConfig | null {
  const node = document.getElementById(CONFIG_ELEMENT_ID);
  try {
    return node?.textContent ? (JSON.parse(node.textContent) as PageConfig) : null;
  } catch {
    return null;
  }
}

function start() {
  const config = readConfig();
  const root = document.getElementById('app');
  if (!config || !root) return;
  setClockSkew(Date.parse(config.serverNow) - Date.now());

  // ?lang= wins; else the browser's own list (the server only saw Accept-Language).
  const locale = config.localeFromQuery ? config.locale : pickLocale([...navigator.languages, config.locale]);
  document.documentElement.lang = locale;
  const t = (key: Parameters<typeof translate>[1], vars?: Record<string, string>) =>
    translate(locale, key, vars);

  const payer = createPayer({ baseUrl: window.location.origin, maxRetries: 1, requestTimeoutMs: 15_000 });
  const view = createView(root, config, locale);
  const report = createReport(config, locale, (info) => showInfo(info));
  root.append(report.element);
  function showInfo(info: Parameters<typeof view.update>[0]) {
    view.update(info);
    report.update(info, view.phase());
  }
  showInfo(config.info);

  let wallets: WalletOption[] = [];
  const multi = config.info.paymentOptions.length > 1;
  const onPay = async (wallet: WalletOption) => {
    view.setBusy(true, onPay);
    view.walletMessage(t('walletWorking', { wallet: wallet.name }));
    try {
      // One-option orders ask exactly as before; with a choice, for the chosen option.
      const txId = await wallet.pay(multi ? view.option() : undefined);
      view.walletMessage(t('walletSent', { tx: `${txId.slice(0, 10)}…` }));
      await refresh();
    } catch (error) {
      view.walletMessage(
        isUserRejection(error)
          ? t('walletRejected')
          : t('walletError', { message: error instanceof Error ? error.message : String(error) }),
        'error',
      );
    } finally {
      view.setBusy(false, onPay);
    }
  };
  // The wallets of each kind an option needs; the page offers those of the chosen option's network.
  const views = multi ? Object.values(config.networks ?? {}) : [config.network];
  const found: Record<NetworkView['walletProtocol'], WalletOption[]> = {
    'wallet-standard': [],
    'eip-1193': [],
    'tip-1193': [],
  };
  const offer = () => {
    wallets = found[view.network().walletProtocol];
    view.setWallets(wallets, onPay);
    report.setWallets(wallets);
  };
  const solanaView = views.find((v) => v.walletProtocol === 'wallet-standard');
  if (solanaView)
    solanaWallets(
      payer,
      config.reference,
      solanaView.walletChain ?? 'solana:mainnet',
    )((list) => {
      found['wallet-standard'] = list;
      offer();
    });
  if (views.some((v) => v.walletProtocol === 'eip-1193'))
    evmWallets(
      payer,
      config.reference,
      t('browserWallet'),
    )((list) => {
      found['eip-1193'] = list;
      offer();
    });
  const tronView = views.find((v) => v.walletProtocol === 'tip-1193');
  if (tronView)
    tronWallets(
      payer,
      config.reference,
      tronView.chainId,
    )((list) => {
      found['tip-1193'] = list;
      offer();
    });
  if (config.sandbox)
    view.addPayMeans(
      createSandboxPay(config, locale, () => (multi ? view.option() : undefined), refresh).element,
    );
  if (multi) report.setNetwork(view.network(), view.option().network);
  view.onChoice(() => {
    report.setNetwork(view.network(), view.option().network);
    offer();
  });

  let offline = false;
  async function refresh() {
    try {
      showInfo(await payer.getPaymentInfo(config!.reference));
      if (offline) view.walletMessage('');
      offline = false;
    } catch (error) {
      console.warn('stablepay: reading the payment status failed', error);
      offline = true;
      view.walletMessage(t('offline'), 'error');
    }
  }
  async function poll() {
    const phase = view.phase();
    if (phase === 'PAID' || phase === 'PAID_LATE') return; // final: nothing more will change
    await refresh();
    setTimeout(poll, phase === 'EXPIRED' ? POLL_MS.expired : POLL_MS.active);
  }
  setTimeout(poll, POLL_MS.active);
  view.tick();
  setInterval(() => view.tick(), 1000);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
