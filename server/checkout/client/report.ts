/**
 * "Already paid? Report your transaction": for a payer who paid some other way (an exchange, a
 * wallet that did not use this page), a disclosure with a txId field. A browser wallet that can
 * sign messages proves the payer sent it (claimProofMessage, signed by the sending wallet), and
 * the order is credited once the chain confirms; without one the report is sent alone and the shop
 * checks it (DESIGN.md, "Claims need proof").
 */
import { claimProofMessage } from '../../../contract/proof-messages';
import { translate, type Locale, type MessageKey } from '../i18n';
import type { NetworkView, PageConfig, PaymentInfo } from '../page-config';
import { el, setText, show } from './dom';
import { ReportFailure, sendReport, type ReportProblem } from './report-request';
import type { Phase } from './view';
import { isUserRejection, type WalletOption } from './wallet-option';

const PROBLEM_KEYS: Record<ReportProblem, MessageKey> = {
  invalid: 'reportInvalid',
  badSignature: 'reportWalletError',
  conflict: 'reportConflict',
  tooMany: 'reportTooMany',
  failed: 'reportFailed',
};

/** How each kind of network writes a transaction's id, in the words of the field's hint. */
const TX_HINT_KEYS: Record<NetworkView['walletProtocol'], MessageKey> = {
  'wallet-standard': 'reportTxHintSolana',
  'eip-1193': 'reportTxHintEvm',
  'tip-1193': 'reportTxHintTron',
};

export function createReport(config: PageConfig, locale: Locale, onReported: (info: PaymentInfo) => void) {
  const t = (key: MessageKey, vars?: Record<string, string>) => translate(locale, key, vars);
  let network: NetworkView = config.network;
  /** The network a report names (the chosen option's); undefined on one-option orders, as before. */
  let sendNetwork: string | undefined;
  let solana = network.walletProtocol === 'wallet-standard';

  const input = el('input', {
    id: 'report-tx',
    name: 'txId',
    type: 'text',
    required: true,
    maxlength: '200',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    'aria-describedby': 'report-tx-hint',
  });
  const signList = el('ul', { class: 'wallets', id: 'report-wallets' });
  const sign = el(
    'div',
    { class: 'report-sign', id: 'report-sign' },
    el('p', { class: 'muted' }, t('reportSignIntro')),
    signList,
  );
  const send = el('button', { type: 'submit', class: 'button', id: 'report-send' }, t('reportSend'));
  const hint = el(
    'p',
    { class: 'muted hint', id: 'report-tx-hint' },
    t(TX_HINT_KEYS[network.walletProtocol]),
  );
  const form = el(
    'form',
    { id: 'report-form', novalidate: true },
    el('label', { for: 'report-tx' }, t('reportTxLabel')),
    input,
    hint,
    sign,
    send,
    el('p', { class: 'muted hint', id: 'report-unsigned-note' }, t('reportUnsignedNote')),
  );
  const status = el('p', {
    class: 'report-status',
    id: 'report-status',
    role: 'status',
    'aria-live': 'polite',
  });
  const element = el(
    'details',
    { class: 'report', id: 'report' },
    el('summary', {}, t('reportSummary')),
    el('p', { class: 'muted' }, t('reportIntro')),
    form,
    status,
  );

  let signers: WalletOption[] = [];
  let busy = false;
  /** The transaction last reported from here, until the order shows it credited. */
  let reported: string | null = null;
  // EVM hashes are hex, written in either case; Solana signatures are base58, where case matters.
  const sameTx = (a: string, b: string) => (solana ? a === b : a.toLowerCase() === b.toLowerCase());

  function say(text: string, kind: 'info' | 'ok' | 'error' = 'info') {
    status.className = `report-status ${kind}`;
    setText(status, text);
  }

  function render() {
    signList.replaceChildren(
      ...signers.map((w) => {
        const button = el(
          'button',
          { type: 'button', class: 'button wallet', 'data-wallet': w.id, disabled: busy },
          w.icon ? el('img', { src: w.icon, alt: '', width: '24', height: '24' }) : null,
          t('reportSignWith', { wallet: w.name }),
        );
        button.addEventListener('click', () => void report(w));
        return el('li', {}, button);
      }),
    );
    show(sign, signers.length > 0);
    // With a wallet to sign, reporting without it is the lesser way; without one it is the way.
    send.className = signers.length > 0 ? 'button' : 'button primary';
    setText(send, t(signers.length > 0 ? 'reportSendUnsigned' : 'reportSend'));
    send.disabled = busy;
  }

  function problemText(error: unknown, wallet: WalletOption | undefined): string {
    if (error instanceof ReportFailure)
      return t(PROBLEM_KEYS[error.problem], { network: network.name, message: error.message });
    if (wallet && isUserRejection(error)) return t('reportRejected');
    return t('reportWalletError', { message: error instanceof Error ? error.message : String(error) });
  }

  async function report(wallet?: WalletOption) {
    if (busy) return;
    const txId = input.value.trim();
    if (!txId) {
      input.setAttribute('aria-invalid', 'true');
      say(t('reportMissing'), 'error');
      input.focus();
      return;
    }
    input.removeAttribute('aria-invalid');
    busy = true;
    render();
    try {
      let signature: string | undefined;
      if (wallet?.signClaim) {
        say(t('reportSigning', { wallet: wallet.name }));
        // The txId exactly as the body sends it: the service checks the message it rebuilds from it.
        signature = await wallet.signClaim(claimProofMessage(config.reference, txId));
      }
      say(t('reportSending'));
      const body = {
        txId,
        ...(signature ? { signature } : {}),
        ...(sendNetwork ? { network: sendNetwork } : {}),
      };
      const info = await sendReport(
        window.fetch.bind(window),
        window.location.origin,
        config.reference,
        body,
      );
      say(t(signature ? 'reportSignedDone' : 'reportUnsignedDone'), 'ok');
      reported = txId;
      onReported(info);
    } catch (error) {
      say(problemText(error, wallet), 'error');
    } finally {
      busy = false;
      render();
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void report();
  });
  render();

  return {
    element,
    /** The payer chose an option on `view`'s network: reports name it, and the hint says its ids. */
    setNetwork(view: NetworkView, networkName: string) {
      network = view;
      sendNetwork = networkName;
      solana = view.walletProtocol === 'wallet-standard';
      setText(hint, t(TX_HINT_KEYS[view.walletProtocol]));
    },
    setWallets(wallets: WalletOption[]) {
      signers = wallets.filter((w) => w.signClaim);
      render();
    },
    /** Follows the order: says when the reported transaction is credited; gone once the order is paid. */
    update(info: PaymentInfo, phase: Phase) {
      if (reported && info.txId && sameTx(info.txId, reported)) {
        reported = null;
        say(t('reportCredited'), 'ok');
      }
      show(element, phase !== 'PAID' && phase !== 'PAID_LATE');
    },
  };
}
