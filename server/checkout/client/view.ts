/**
 * The page's layout, built once, and `update` that brings it in line with the order. Parts are
 * shown and hidden rather than rebuilt, so focus, the live region and copied text stay put while
 * the status is polled.
 */
import { translate, type Locale, type MessageKey } from '../i18n';
import type { PageConfig, PaymentInfo } from '../page-config';
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

export function createView(root: HTMLElement, config: PageConfig, locale: Locale) {
  const t = (key: MessageKey, vars?: Record<string, string>) => translate(locale, key, vars);
  const { network } = config;
  let info = config.info;
  const token = (amount: string) => formatToken(locale, amount, info.token);

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
  const copyAmount = copyButton('copyAmount', () => plainDecimal(info.amountDue), 'amount-value');
  const summary = el(
    'section',
    { class: 'summary', 'aria-labelledby': 'amount-label' },
    amountLabel,
    el('div', { class: 'amount-row' }, amountValue, copyAmount),
    quoteLine,
    receivedLine,
  );

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
  const done = el('div', { class: 'done' }, txLine, back);

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
  const row = (label: MessageKey, value: Node, ...extra: Node[]) =>
    el('div', { class: 'row' }, el('dt', {}, t(label)), el('dd', {}, value, ...extra));
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
      copyButton('copyLink', () => info.payUrl, 'pay-link-label'),
    ),
    el(
      'section',
      { 'aria-labelledby': 'h-manual' },
      el('h2', { id: 'h-manual' }, t('manual')),
      el(
        'dl',
        { class: 'details' },
        row('network', document.createTextNode(network.name)),
        row('token', document.createTextNode(info.token)),
        row(network.tokenKind === 'mint' ? 'tokenMint' : 'tokenContract', contract),
        row(
          'recipient',
          recipient,
          copyButton('copyAddress', () => info.recipient, 'recipient'),
        ),
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
  root.replaceChildren(...header, summary, status, countdown, when, done, pay, announcer);

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

  return {
    phase: () => phaseOf(info, Date.now() + skew),
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

      // Amount: what is due while payable; what was asked once paid or expired (nothing to copy).
      setText(amountLabel, payable ? t('amountDue') : t('amountTotal'));
      setText(amountValue, token(payable ? info.amountDue : info.amount));
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
        due: token(info.amountDue),
        received: token(info.amountReceived),
        amount: token(info.amount),
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
      show(back, paid && Boolean(info.returnUrl));
      if (info.returnUrl) back.href = info.returnUrl;
      show(done, txLine.hidden === false || back.hidden === false);

      // Payment means: only while something is payable, and always for what is still due.
      const wasFocusedInside = pay.contains(document.activeElement);
      show(pay, payable);
      if (payable) {
        setText(manualAmount, `${plainDecimal(info.amountDue)} ${info.token}`);
        setText(linkText, info.payUrl);
        openWallet.href = info.payUrl;
        // The QR image is cached by URL: the amount due in the query gives a partly paid order a new one.
        const src = `/pay/${encodeURIComponent(info.reference)}/qr.svg?due=${encodeURIComponent(info.amountDue)}`;
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
}

/** Server time minus device time, so the countdown follows the server's clock. */
let skew = 0;
export function setClockSkew(ms: number) {
  skew = ms;
}

export type View = ReturnType<typeof createView>;
