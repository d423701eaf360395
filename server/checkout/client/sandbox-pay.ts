/**
 * "Pay with the sandbox wallet", on a sandbox only: the public sandbox route pays exactly what is
 * due on the chosen option, tagged and reported, from a funded test wallet. The page then follows
 * the order as it does any payment (it polls): confirming, then paid.
 */
import { translate, type Locale, type MessageKey } from '../i18n';
import type { PageConfig } from '../page-config';
import { el, setText } from './dom';
import { serviceMessage } from './report-request';
import type { OptionKey } from './view';

/** POST /sandbox/checkout/{reference}/pay: the transaction sent, or an Error with the service's words. */
async function payFromSandbox(reference: string, option: OptionKey | undefined): Promise<string> {
  const res = await fetch(`${window.location.origin}/sandbox/checkout/${encodeURIComponent(reference)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(option ? { network: option.network, token: option.token } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await res.json().catch(() => null)) as { txId?: unknown } | null;
  if (res.status === 200 && typeof answer?.txId === 'string') return answer.txId;
  throw new Error(serviceMessage(res.status, answer));
}

export function createSandboxPay(
  config: PageConfig,
  locale: Locale,
  /** The option the payer chose; undefined on a one-option order (the order's own). */
  option: () => OptionKey | undefined,
  onSent: () => Promise<void>,
) {
  const t = (key: MessageKey, vars?: Record<string, string>) => translate(locale, key, vars);
  const button = el(
    'button',
    { type: 'button', class: 'button primary', id: 'sandbox-pay-button' },
    t('sandboxPay'),
  );
  const message = el('p', { class: 'wallet-message', id: 'sandbox-pay-message', 'aria-live': 'polite' });
  const element = el(
    'section',
    { class: 'sandbox-pay', id: 'sandbox-pay', 'aria-labelledby': 'h-sandbox-pay' },
    el('h2', { id: 'h-sandbox-pay' }, t('sandboxPayTitle')),
    el('p', { class: 'muted' }, t('sandboxPayHint')),
    button,
    message,
  );
  button.addEventListener('click', async () => {
    button.disabled = true;
    message.className = 'wallet-message';
    setText(message, t('sandboxPaying'));
    try {
      const txId = await payFromSandbox(config.reference, option());
      setText(message, t('sandboxSent', { tx: `${txId.slice(0, 10)}…` }));
      await onSent();
    } catch (error) {
      message.className = 'wallet-message error';
      setText(
        message,
        t('sandboxFailed', { message: error instanceof Error ? error.message : String(error) }),
      );
    } finally {
      button.disabled = false;
    }
  });
  return { element };
}
