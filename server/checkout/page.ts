/**
 * The HTML around the checkout: the page shell (its script fills #app from the embedded order) and
 * the error page a payer sees for a bad or unknown link. Every text from outside is escaped.
 */
import { escapeHtml } from '../lib/escape-html';
import { LOCALE_NAMES, LOCALES, translate, type Locale, type MessageKey } from './i18n';
import { CONFIG_ELEMENT_ID, type PageConfig } from './page-config';

/** JSON inside <script>: no "</script>", and no line separators some parsers choke on. */
const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Links to the page in each language; the current one is marked for screen readers. */
function languageNav(locale: Locale, path: string) {
  const links = LOCALES.map((l) => {
    const current = l === locale ? ' aria-current="true"' : '';
    return `<li><a href="${escapeHtml(path)}?lang=${l}" lang="${l}" hreflang="${l}"${current}>${LOCALE_NAMES[l]}</a></li>`;
  }).join('');
  return `<nav class="langs" aria-label="${escapeHtml(translate(locale, 'lang'))}"><ul>${links}</ul></nav>`;
}

/**
 * On a sandbox, every page says so before anything else, in words and not only in colour; it is a
 * status (read out, never dismissed), so no one takes test money for real.
 */
function sandboxBanner(locale: Locale) {
  return `<p class="sandbox-banner" role="status" id="sandbox-banner"><strong>${escapeHtml(translate(locale, 'sandboxBanner'))}</strong> <span>${escapeHtml(translate(locale, 'sandboxBannerHint'))}</span></p>`;
}

function shell(locale: Locale, title: string, path: string, main: string, head = '', sandbox = false) {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/pay/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/checkout/assets/checkout.css">${head}</head>
<body>${sandbox ? sandboxBanner(locale) : ''}<div class="page">
<header class="top"><p class="brand"><img src="/pay/icon.svg" alt="" width="28" height="28"> stablepay</p>${languageNav(locale, path)}</header>
<main id="main" class="card">${main}</main>
<footer class="foot"><p>${escapeHtml(translate(locale, 'poweredBy'))}</p></footer>
</div></body></html>`;
}

export function renderCheckoutPage(config: PageConfig): string {
  const t = (key: MessageKey, vars?: Record<string, string>) => translate(config.locale, key, vars);
  const { info } = config;
  const heading = info.merchantName ? t('payTo', { merchant: info.merchantName }) : t('payToUnknown');
  const path = `/checkout/${encodeURIComponent(config.reference)}`;
  // Until the script runs: the heading and the amount, so the page is never blank.
  const main = `<div id="app" class="app"><h1>${escapeHtml(heading)}</h1>
<p class="amount">${escapeHtml(`${info.amountDue} ${info.token}`)}</p>
<noscript><p class="warn">${escapeHtml(t('scanQrHint'))}</p>${noScriptLinks(config, t)}</noscript></div>
<p class="ref">${escapeHtml(t('reference'))}: <code class="wrap">${escapeHtml(info.reference)}</code></p>`;
  const head = `
<script type="application/json" id="${CONFIG_ELEMENT_ID}">${jsonForScript(config)}</script>
<script src="/checkout/assets/checkout.js" defer></script>`;
  return shell(config.locale, `${t('title')} · ${heading}`, path, main, head, config.sandbox);
}

export function renderErrorPage(
  locale: Locale,
  kind: 'notFound' | 'badLink' | 'other',
  path: string,
  sandbox = false,
): string {
  const t = (key: MessageKey) => translate(locale, key);
  const text =
    kind === 'notFound' ? t('errorNotFound') : kind === 'badLink' ? t('errorBadLink') : t('errorOther');
  const main = `<h1>${escapeHtml(t('errorTitle'))}</h1><div class="status expired" role="alert"><p class="status-title">${escapeHtml(text)}</p></div>`;
  return shell(locale, t('errorTitle'), path, main, '', sandbox);
}

/**
 * Without the script, a wallet link per way to pay (one button when there is one): the payer of an
 * order payable on several networks chooses by its network and amount, as the script's choice does.
 */
function noScriptLinks(config: PageConfig, t: (key: MessageKey) => string): string {
  const { paymentOptions } = config.info;
  const link = (href: string, text: string) =>
    `<a class="button" href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  if (paymentOptions.length <= 1) return `<p>${link(config.info.payUrl, t('openWallet'))}</p>`;
  const items = paymentOptions.map((option) => {
    const network = config.networks[option.network]?.name ?? option.network;
    return `<li>${link(option.payUrl, `${option.amountDue} ${option.token} · ${network}`)}</li>`;
  });
  return `<p>${escapeHtml(t('chooseOption'))}:</p><ul class="noscript-options">${items.join('')}</ul>`;
}
