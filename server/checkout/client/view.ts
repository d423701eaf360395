/**
 * The page's layout, built once, and `update` that brings it in line with the order. Parts are
 * shown and hidden rather than rebuilt, so focus, the live region and copied text stay put while
 * the status is polled.
 */
import { translate, type Locale, type MessageKey } from '../i18n';
import type { NetworkView, PageConfig, PaymentInfo } from '../page-config';
import { copyText, el, setText, show } from './dom';
import { parseUnits, plainDecimal } from '../../../contract/decimal';
import { formatCountdown, formatDate, formatFiat, formatToken, shortId } from './format';
import type { WalletOption } from './wallet-option';

export type Phase = 'PENDING' | 'CONFIRMING' | 'UNDERPAID' | 'PAID' | 'PAID_LATE' | 'EXPIRED';

/** What the payer is in: the server's status, and expiry as soon as the clock says so. */
export function phaseOf(info: PaymentInfo, now: number): Phase {
  if (info.status === 'PAID') return info.paidLate ? 'PAID_LATE' : 'PAID';
  if (info.status === 'CONFIRMING') return 'CONFIRMING';
  if (info.status === 'EXPIRED' || now >= Date.parse(info.expiresAt)) return 'EXPIRED';
  return info.status;
}

const PAYABLE: readonly Phase[] = ['PENDING', 'UNDERPAID'];

type PaymentOption = PaymentInfo['paymentOptions'][number];
export type OptionKey = { network: PaymentOption['network']; token: PaymentOption['token'] };
const sameOption = (a: OptionKey, b: OptionKey) => a.network === b.network && a.token === b.token;
const optionId = (o: OptionKey) => `option-${o.network}-${o.token}`;

export function createView(root: HTMLElement, config: PageConfig, locale: Locale) {
  const t = (key: MessageKey, vars?: Record<string, string>) => translate(locale, key, vars);
  let info = config.info;
  /** Whether the payer chooses among several options; one-option orders show none of it. */
  const multi = info.paymentOptions.length > 1;
  /** What is said of an option's network: the server's words for it, else the order's own network's. */
  const networkOf = (n: string): NetworkView =>
    config.networks?.[n as NetworkView['network']] ?? config.network;
  /**
   * The option the payer chose: until they choose, the one a partial payment was made with, else
   * the order's own (the first).
   */
  const first = info.paymentOptions[0] ?? { network: info.network, token: info.token };
  let chosen: OptionKey =
    info.paymentOptions.find((o) => info.paidWith && sameOption(o, info.paidWith)) ?? first;
  const option = (): PaymentOption | undefined => info.paymentOptions.find((o) => sameOption(o, chosen));
  let network = networkOf(chosen.network);
  const optionName = (o: OptionKey) =>
    t('optionName', { token: o.token, network: networkOf(o.network).name });
  let tokenName: string = info.token;
  const token = (amount: string) => formatToken(locale, amount, tokenName);
  const choiceListeners: ((o: OptionKey) => void)[] = [];

  /** A button that copies `value()` and says so, in the button and to screen readers. */
  const announcer = el('p', { class: 'sr-only', 'aria-live': 'polite', id: 'announcer' });
  function copyButton(label: MessageKey, value: () => string, describedBy?: string) {
    const button = el('button', { type: 'button', class: 'copy', 'aria-describedby': describedBy }, t(label));
    button.addEventListener('click', async () => {
      const ok = await copyText(value());
      if (!ok) return;
      setText(button, t('copied'));
      setText(announcer, `${t('copied')}: ${value()}`);
      setTimeout(() => setText(button, t(label)), 2000);
    });
    return button;
  }

  // Heading: who is paid, for what, how much.
  const amountValue = el('p', { class: 'amount', id: 'amount-value' });
  const quoteLine = el('p', { class: 'muted', id: 'quote' });
  const receivedLine = el('p', { class: 'muted', id: 'received' });
  const amountLabel = el('h2', { class: 'label', id: 'amount-label' }, t('amountDue'));
  const copyAmount = copyButton('copyAmount', () => plainDecimal(dueNow()), 'amount-value');
  const dueNow = () => (multi ? (option()?.amountDue ?? info.amountDue) : info.amountDue);
  const payUrlNow = () => (multi ? (option()?.payUrl ?? info.payUrl) : info.payUrl);
  const recipientNow = () => (multi ? (option()?.recipient ?? info.recipient) : info.recipient);
  const summary = el(
    'section',
    { class: 'summary', 'aria-labelledby': 'amount-label' },
    amountLabel,
    el('div', { class: 'amount-row' }, amountValue, copyAmount),
    quoteLine,
    receivedLine,
  );

  // Several options: the payer's choice, as radio buttons named in words ("USDT on Polygon PoS").
  const choiceLegend = el('legend', { id: 'choice-label' }, t('chooseOption'));
  const choice = el('fieldset', { class: 'choice', id: 'choice' }, choiceLegend);
  for (const o of info.paymentOptions) {
    const input = el('input', {
      type: 'radio',
      name: 'payment-option',
      id: optionId(o),
      value: `${o.network}:${o.token}`,
      checked: sameOption(o, chosen),
    });
    input.addEventListener('change', () => {
      if (!input.checked) return;
      chosen = { network: o.network, token: o.token };
      view.update(info);
      for (const listener of choiceListeners) listener(chosen);
    });
    choice.append(
      el('div', { class: 'choice-item' }, input, el('label', { for: optionId(o) }, optionName(o))),
    );
  }
  show(choice, multi);
  const paidWithLine = el('p', { class: 'paid-with', id: 'paid-with' });

  // The status, in words, announced when it changes.
  const statusTitle = el('p', { class: 'status-title' });
  const statusHint = el('p', { class: 'status-hint' });
  const status = el(
    'div',
    {
      class: 'status',
      id: 'status',
      role: 'status',
      'aria-live': 'polite',
      'aria-atomic': 'true',
      tabindex: '-1',
    },
    statusTitle,
    statusHint,
  );
  const countdownValue = el('span', { class: 'countdown-value', role: 'timer', 'aria-live': 'off' });
  const countdown = el('p', { class: 'countdown', id: 'countdown' }, `${t('expiresIn')}: `, countdownValue);
  const when = el('p', { class: 'muted', id: 'when' });

  // Paid or confirming: the transaction and the way back to the shop.
  const txLink = el('a', { id: 'tx-link', rel: 'noopener noreferrer', target: '_blank' });
  const txCode = el('code', { class: 'wrap' });
  const txLine = el('p', { id: 'tx' }, `${t('transaction')}: `, txCode, ' ', txLink);
  const back = el('a', { class: 'button primary', id: 'back-to-shop', rel: 'noopener' }, t('backToShop'));
  const done = el('div', { class: 'done' }, paidWithLine, txLine, back);

  // Paying: browser wallets, a mobile wallet, or by hand.
  const walletList = el('ul', { class: 'wallets', id: 'wallets' });
  const walletMessage = el('p', { class: 'wallet-message', id: 'wallet-message', 'aria-live': 'polite' });
  const noWallets = el('p', { class: 'muted', id: 'no-wallets' }, t('noWallets', { network: network.name }));
  const qr = el('img', { class: 'qr', id: 'qr', alt: t('qrAlt'), width: '220', height: '220' });
  const openWallet = el('a', { class: 'button', id: 'open-wallet' }, t('openWallet'));
  const linkText = el('code', { class: 'wrap', id: 'pay-link' });
  const warn = el(
    'p',
    { class: 'warn', id: 'network-warning' },
    t('warnNetwork', { token: config.info.token, network: network.name }),
  );
  const recipient = el('code', { class: 'wrap', id: 'recipient' }, info.recipient);
  const contract = el('code', { class: 'wrap', id: 'token-contract' }, info.tokenMintOrContract);
  const manualAmount = el('code', { id: 'manual-amount' });
  const manualNetwork = el('span', { id: 'manual-network' }, network.name);
  const manualToken = el('span', { id: 'manual-token' }, info.token);
  const contractLabel = el('dt', {}, t(network.tokenKind === 'mint' ? 'tokenMint' : 'tokenContract'));
  const row = (label: MessageKey | HTMLElement, value: Node, ...extra: Node[]) =>
    el(
      'div',
      { class: 'row' },
      typeof label === 'string' ? el('dt', {}, t(label)) : label,
      el('dd', {}, value, ...extra),
    );
  const pay = el(
    'div',
    { class: 'pay', id: 'pay' },
    warn,
    el(
      'section',
      { 'aria-labelledby': 'h-wallet' },
      el('h2', { id: 'h-wallet' }, t('payWithWallet')),
      walletList,
      noWallets,
      walletMessage,
    ),
    el(
      'section',
      { 'aria-labelledby': 'h-qr' },
      el('h2', { id: 'h-qr' }, t('scanQr')),
      el('p', { class: 'muted' }, t('scanQrHint')),
      qr,
      el('p', {}, openWallet),
      el(
        'p',
        { class: 'link-text' },
        el('span', { id: 'pay-link-label' }, `${t('paymentLink')}: `),
        linkText,
      ),
      copyButton('copyLink', payUrlNow, 'pay-link-label'),
    ),
    el(
      'section',
      { 'aria-labelledby': 'h-manual' },
      el('h2', { id: 'h-manual' }, t('manual')),
      el(
        'dl',
        { class: 'details' },
        row('network', manualNetwork),
        row('token', manualToken),
        row(contractLabel, contract),
        row('recipient', recipient, copyButton('copyAddress', recipientNow, 'recipient')),
        row('amountDue', manualAmount),
      ),
    ),
  );

  const header: HTMLElement[] = [
    el(
      'h1',
      { id: 'title' },
      info.merchantName ? t('payTo', { merchant: info.merchantName }) : t('payToUnknown'),
    ),
  ];
  if (info.description) header.push(el('p', { class: 'description' }, info.description));
  root.replaceChildren(...header, summary, choice, status, countdown, when, done, pay, announcer);

  let wallets: WalletOption[] = [];
  let busy = false;
  let shownPhase: Phase | null = null;

  function renderWallets(onPay: (w: WalletOption) => void) {
    walletList.replaceChildren(
      ...wallets.map((w) => {
        const button = el(
          'button',
          { type: 'button', class: 'button wallet', 'data-wallet': w.id, disabled: busy },
          w.icon ? el('img', { src: w.icon, alt: '', width: '24', height: '24' }) : null,
          t('payWith', { wallet: w.name }),
        );
        button.addEventListener('click', () => onPay(w));
        return el('li', {}, button);
      }),
    );
    show(noWallets, wallets.length === 0);
  }

  const view = {
    phase: () => phaseOf(info, Date.now() + skew),
    /** The option the payer chose, and the words of its network. */
    option: () => chosen,
    network: () => network,
    /** Called with the new option whenever the payer chooses another. */
    onChoice(listener: (o: OptionKey) => void) {
      choiceListeners.push(listener);
    },
    /** Another way to pay (the sandbox wallet), first after the network warning, shown while payable. */
    addPayMeans(node: HTMLElement) {
      warn.after(node);
    },
    setWallets(next: WalletOption[], onPay: (w: WalletOption) => void) {
      wallets = next;
      renderWallets(onPay);
    },
    setBusy(value: boolean, onPay: (w: WalletOption) => void) {
      busy = value;
      renderWallets(onPay);
    },
    walletMessage(text: string, kind: 'info' | 'error' = 'info') {
      walletMessage.className = `wallet-message ${kind}`;
      setText(walletMessage, text);
    },
    tick() {
      const left = Date.parse(info.expiresAt) - (Date.now() + skew);
      setText(countdownValue, formatCountdown(left));
      countdown.classList.toggle('urgent', left < 60_000);
      if (phaseOf(info, Date.now() + skew) !== shownPhase) this.update(info);
    },
    update(next: PaymentInfo) {
      info = next;
      const phase = phaseOf(info, Date.now() + skew);
      const payable = PAYABLE.includes(phase);
      const paid = phase === 'PAID' || phase === 'PAID_LATE';
      // Once paid, the option it was paid with is the one shown (its amount, its explorer).
      const shown: OptionKey =
        multi && !payable && info.paidWith
          ? { network: info.paidWith.network, token: info.paidWith.token }
          : chosen;
      const shownOption = multi ? info.paymentOptions.find((o) => sameOption(o, shown)) : undefined;
      network = networkOf(shown.network);
      tokenName = shownOption?.token ?? info.token;
      const due = shownOption?.amountDue ?? info.amountDue;
      const amount = shownOption?.amount ?? info.amount;
      show(choice, multi && payable);

      // Amount: what is due while payable; what was asked once paid or expired (nothing to copy).
      setText(amountLabel, payable ? t('amountDue') : t('amountTotal'));
      setText(amountValue, token(payable ? due : amount));
      show(copyAmount, payable);
      setText(
        quoteLine,
        info.quoteCurrency && info.quoteAmount
          ? t('quote', {
              quote: formatFiat(locale, info.quoteAmount, info.quoteCurrency),
              rate: info.fxRateLabel ?? '',
            })
          : '',
      );
      show(quoteLine, Boolean(info.quoteCurrency && info.quoteAmount));
      const partly = parseUnits(info.amountReceived, info.decimals) > 0n && !paid;
      setText(receivedLine, partly ? t('received', { amount: token(info.amountReceived) }) : '');
      show(receivedLine, partly);

      // Status in words.
      document.body.dataset.phase = phase;
      status.className = `status ${phase.toLowerCase()}`;
      const vars = {
        due: token(due),
        received: token(info.amountReceived),
        amount: token(amount),
      };
      setText(statusTitle, t(phase, vars));
      setText(statusHint, t(`${phase}_hint`, vars));
      show(countdown, payable);
      setText(
        when,
        paid && info.paidAt
          ? t('paidAt', { date: formatDate(locale, info.paidAt) })
          : phase === 'EXPIRED'
            ? t('expiredAt', { date: formatDate(locale, info.expiresAt) })
            : '',
      );
      show(when, when.textContent !== '');

      // The transaction, once there is one, with its explorer; the way back once paid.
      const txId = info.txId;
      show(txLine, Boolean(txId) && (paid || phase === 'CONFIRMING'));
      if (txId) {
        setText(txCode, shortId(txId));
        txCode.title = txId;
        const explorer = network.explorer;
        show(txLink, explorer !== null);
        if (explorer) {
          txLink.href = explorer.txUrl.replace('{tx}', encodeURIComponent(txId));
          setText(txLink, t('viewOnExplorer', { explorer: explorer.name }));
        }
      }
      const paidWith = multi && paid && info.paidWith;
      setText(
        paidWithLine,
        paidWith ? t('paidWith', { token: paidWith.token, network: networkOf(paidWith.network).name }) : '',
      );
      show(paidWithLine, Boolean(paidWith));
      show(back, paid && Boolean(info.returnUrl));
      if (info.returnUrl) back.href = info.returnUrl;
      show(done, txLine.hidden === false || back.hidden === false || paidWithLine.hidden === false);

      // Payment means: only while something is payable, and always for what is still due.
      const wasFocusedInside = pay.contains(document.activeElement);
      show(pay, payable);
      if (payable) {
        const payUrl = payUrlNow();
        setText(manualAmount, `${plainDecimal(due)} ${tokenName}`);
        setText(linkText, payUrl);
        openWallet.href = payUrl;
        if (multi && shownOption) {
          setText(warn, t('warnOptionNetwork', { network: network.name }));
          setText(manualNetwork, network.name);
          setText(manualToken, shownOption.token);
          setText(contractLabel, t(network.tokenKind === 'mint' ? 'tokenMint' : 'tokenContract'));
          setText(contract, shownOption.tokenMintOrContract);
          setText(recipient, shownOption.recipient);
          setText(noWallets, t('noWallets', { network: network.name }));
        }
        // The QR image is cached by URL: the amount due in the query gives a partly paid order a new one.
        // An option's QR is its qrImageUrl, asked of this page's own origin (the one it was served from).
        let src = `/pay/${encodeURIComponent(info.reference)}/qr.svg?due=${encodeURIComponent(due)}`;
        if (multi && shownOption) {
          const url = new URL(shownOption.qrImageUrl, window.location.origin);
          url.searchParams.set('network', shownOption.network);
          url.searchParams.set('token', shownOption.token);
          url.searchParams.set('due', due);
          src = `${url.pathname}${url.search}`;
        }
        if (qr.getAttribute('src') !== src) qr.src = src;
      } else {
        // Hidden is not enough: nothing payable stays in the page to be copied or read out.
        qr.removeAttribute('src');
        openWallet.removeAttribute('href');
        setText(linkText, '');
        setText(manualAmount, '');
      }
      // Focus on something that vanished is lost to keyboard users: give it to the status instead.
      if (wasFocusedInside && !payable) status.focus();
      shownPhase = phase;
    },
  };
  return view;
}

/** Server time minus device time, so the countdown follows the server's clock. */
let skew = 0;
export function setClockSkew(ms: number) {
  skew = ms;
}

export type View = ReturnType<typeof createView>;
