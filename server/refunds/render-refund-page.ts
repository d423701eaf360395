import type { PublicRefund } from '../../contract';
import type { PageLanguage } from './page-language';
import { escapeHtml } from '../lib/escape-html';
import { REFUND_PAGE_TEXT } from './refund-page-text';

/** JSON inside a <script>: no `<` so nothing can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The payer's refund page: what is refunded, its state in words, and while it waits for one, the
 * address form (posted as JSON by a small inline script allowed by its nonce).
 */
export function renderRefundPage(refund: PublicRefund, lang: PageLanguage, nonce: string): string {
  const t = REFUND_PAGE_TEXT[lang];
  const merchant = refund.merchantName ?? t.merchantFallback;
  const rows: [string, string][] = [
    [t.order, refund.orderReference],
    ...(refund.to ? [[t.sendsTo, refund.to] as [string, string]] : []),
    ...(refund.txId ? [[t.transaction, refund.txId] as [string, string]] : []),
    ...(refund.status === 'AWAITING_ADDRESS' ||
    refund.status === 'AWAITING_APPROVAL' ||
    refund.status === 'PENDING'
      ? [[t.deadline, refund.deadlineAt] as [string, string]]
      : []),
  ];
  const form =
    refund.status === 'AWAITING_ADDRESS'
      ? `<form id="address-form" novalidate>
  <label for="address">${escapeHtml(t.addressLabel(refund.network))}</label>
  <input id="address" name="address" autocomplete="off" autocapitalize="off" spellcheck="false" required maxlength="100" aria-describedby="address-hint">
  <p id="address-hint" class="hint">${escapeHtml(t.addressHint({ token: refund.token, network: refund.network }))} ${escapeHtml(refund.addressFormat)}.</p>
  <p class="hint">${escapeHtml(t.approvalHint)}</p>
  <button type="submit">${escapeHtml(t.submit)}</button>
</form>
<script nonce="${nonce}">
(() => {
  const text = ${scriptJson({ saving: t.saving, failed: t.failed, status: t.status })};
  const form = document.getElementById('address-form');
  const status = document.getElementById('status');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const address = form.address.value.trim();
    status.textContent = text.saving;
    try {
      const res = await fetch(${scriptJson(`/pay/refunds/${refund.id}/address`)}, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error((body.error && body.error.message) || res.status);
      // The answer says whether the refund waits for the shop's approval (an address not proved).
      status.textContent = text.status[body.status] || body.status;
      status.dataset.status = body.status;
      form.remove();
    } catch (error) {
      status.textContent = text.failed + ': ' + error.message;
    }
  });
})();
</script>`
      : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t.title)} · ${escapeHtml(merchant)}</title>
<style nonce="${nonce}">
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1b1f24; }
  main { max-width: 30rem; margin: 0 auto; padding: 1.5rem 1rem; }
  h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
  .amount { font-size: 1.8rem; font-weight: 700; margin: .5rem 0; }
  #status { padding: .75rem; border-radius: .5rem; background: #e8eefc; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; }
  dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: .9rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  input { box-sizing: border-box; width: 100%; padding: .6rem; font: inherit; font-family: ui-monospace, monospace; }
  button { margin-top: .75rem; padding: .6rem 1rem; font: inherit; font-weight: 600; border: 0; border-radius: .4rem; background: #1d4ed8; color: #fff; cursor: pointer; }
  .hint { font-size: .9rem; color: #4b5563; }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(t.title)}</h1>
  <p>${escapeHtml(t.intro({ merchant, amount: refund.amount, token: refund.token, network: refund.network }))}</p>
  <p class="amount">${escapeHtml(refund.amount)} ${escapeHtml(refund.token)}</p>
  <p id="status" role="status" aria-live="polite" data-status="${refund.status}">${escapeHtml(t.status[refund.status])}</p>
  <dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
  ${form}
</main>
</body>
</html>`;
}
