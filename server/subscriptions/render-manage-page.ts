import type { Order, Subscription } from '../../contract';
import { escapeHtml } from '../lib/escape-html';
import { MANAGE_PAGE_TEXT, type ManageLanguage } from './manage-page-text';

const OPEN = ['PENDING', 'CONFIRMING', 'UNDERPAID'];

/** The customer's page: their plan, where it stands, the order to pay now, past payments, cancel. No script, no remote asset. */
export function renderManagePage(
  subscription: Subscription,
  orders: Order[],
  lang: ManageLanguage,
  merchantName: string | null,
): string {
  const t = MANAGE_PAGE_TEXT[lang];
  const date = (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
  const price = subscription.amount
    ? `${subscription.amount} ${subscription.token}`
    : `${subscription.quoteAmount} ${subscription.quoteCurrency}`;
  const due = orders.find((o) => OPEN.includes(o.status));
  const live = subscription.status !== 'CANCELED';
  const rows = orders
    .map(
      (o) =>
        `<tr><td>${escapeHtml(o.period ? `${date(o.period.start)} – ${date(o.period.end)}` : '')}</td>` +
        `<td>${escapeHtml(`${o.amount} ${o.token}`)}</td><td>${escapeHtml(t.orderStatuses[o.status] ?? o.status)}</td></tr>`,
    )
    .join('');
  const dueBlock = due
    ? `<section><h2>${escapeHtml(t.dueNow)}</h2><p class="amount">${escapeHtml(`${due.amount} ${due.token}`)}</p>` +
      `<p>${escapeHtml(t.payBy.replace('{date}', date(due.expiresAt)))}</p>` +
      `<p><a class="button" href="${escapeHtml(due.checkoutUrl)}">${escapeHtml(t.payNow)}</a></p></section>`
    : live
      ? `<p>${escapeHtml(t.nothingDue)}</p>`
      : '';
  const cancelBlock = !live
    ? `<p>${escapeHtml(t.canceled)}</p>`
    : subscription.cancelAtPeriodEnd
      ? `<p>${escapeHtml(t.canceling(date(subscription.currentPeriodEnd ?? subscription.updatedAt)))}</p>`
      : `<form method="post"><input type="hidden" name="action" value="cancel">` +
        `<button type="submit">${escapeHtml(t.cancel)}</button><p class="hint">${escapeHtml(t.cancelHint)}</p></form>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>${escapeHtml(t.title)}</title><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(t.title)}</h1>
${merchantName ? `<p class="merchant">${escapeHtml(merchantName)}</p>` : ''}
<dl><dt>${escapeHtml(t.plan)}</dt><dd>${escapeHtml(subscription.description ?? '')} ${escapeHtml(price)} ${escapeHtml(t.every(subscription.intervalCount, subscription.interval))}</dd>
<dt>${escapeHtml(t.status)}</dt><dd class="status">${escapeHtml(t.statuses[subscription.status])}</dd></dl>
${dueBlock}
${orders.length ? `<section><h2>${escapeHtml(t.orders)}</h2><table><thead><tr><th>${escapeHtml(t.period)}</th><th></th><th>${escapeHtml(t.orderStatus)}</th></tr></thead><tbody>${rows}</tbody></table></section>` : ''}
${cancelBlock}
</main></body></html>`;
}

export function renderManageNotFound(lang: ManageLanguage): string {
  const t = MANAGE_PAGE_TEXT[lang];
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escapeHtml(t.title)}</title><style>${STYLE}</style></head><body><main><p>${escapeHtml(t.notFound)}</p></main></body></html>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1b1f24;margin:0}
main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-radius:12px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.05rem;margin:1.5rem 0 .5rem}.merchant{color:#555;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem}dt{color:#555}dd{margin:0}
.amount{font-size:1.3rem;font-weight:600;margin:.25rem 0}
.button,button{display:inline-block;background:#1f6feb;color:#fff;border:0;border-radius:8px;padding:.6rem 1.1rem;font-size:1rem;text-decoration:none;cursor:pointer}
form button{background:#fff;color:#b42318;border:1px solid #b42318;margin-top:1.5rem}.hint{color:#555;font-size:.9rem}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.35rem .25rem;border-bottom:1px solid #eee;font-size:.95rem}`;
