import { EMAIL_SUBJECT_MAX, type EmailKind, type Locale, type Order } from '../../contract';
import { escapeHtml } from '../lib/escape-html';
import { EMAIL_WORDS, fill } from './email-words';

/** What an e-mail says of its order: the presented order's fields (merchant and payer views both have them). */
export type OrderMailFacts = Pick<
  Order,
  | 'reference'
  | 'amount'
  | 'token'
  | 'network'
  | 'description'
  | 'checkoutUrl'
  | 'expiresAt'
  | 'paidAt'
  | 'txId'
>;

export type OrderMail = {
  kind: EmailKind;
  language: Locale;
  /** The shop's name as the checkout shows it; null: "the shop" in the e-mail's language. */
  merchantName: string | null;
  order: OrderMailFacts;
  /** A subscription's page for the customer (its plan, cancel): linked when given. */
  manageUrl?: string;
};

export type RenderedEmail = { subject: string; text: string; html: string };

/** A time as every reader reads it alike, whatever their time zone: `2026-05-01 14:30 UTC`. */
const utc = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** One line of text: a merchant's name or description must not break the subject header. */
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * An e-mail about an order, in the customer's language: its subject, a plain-text part and an HTML
 * part saying the same. Nothing is loaded from elsewhere (no remote image, font or style: mail
 * clients block them and they tell the sender when a mail is opened), every text from outside is
 * escaped, and the links are the service's own: the order's checkout page, and `manageUrl`.
 */
export function renderOrderEmail(mail: OrderMail): RenderedEmail {
  const w = EMAIL_WORDS[mail.language];
  const { order, kind } = mail;
  const merchant = oneLine(mail.merchantName ?? '') || w.theShop;
  const vars = { merchant, amount: order.amount, token: order.token, network: order.network };
  const subject = oneLine(fill(w.subject[kind], vars)).slice(0, EMAIL_SUBJECT_MAX);
  const intro = fill(w.intro[kind], vars);
  const rows: [string, string][] = [
    [w.amount, `${order.amount} ${order.token} (${order.network})`],
    ...(order.description ? [[w.description, order.description] as [string, string]] : []),
    [w.reference, order.reference],
    ...(kind === 'receipt'
      ? [
          ...(order.paidAt ? [[w.paidAt, utc(order.paidAt)] as [string, string]] : []),
          ...(order.txId ? [[w.transaction, order.txId] as [string, string]] : []),
        ]
      : [[w.expires, utc(order.expiresAt)] as [string, string]]),
  ];
  const footer = fill(w.footer, { merchant, host: new URL(order.checkoutUrl).host });
  const action = w.action[kind];

  const text = [
    intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `${action}: ${order.checkoutUrl}`,
    ...(mail.manageUrl ? [`${w.manage}: ${mail.manageUrl}`] : []),
    '',
    '--',
    footer,
    '',
  ].join('\n');

  const e = escapeHtml;
  const link = (url: string, label: string, style: string) =>
    `<a href="${e(url)}" style="${style}">${e(label)}</a>`;
  const html = `<!doctype html>
<html lang="${mail.language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;color:#1a1a1a;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="font-size:16px;line-height:1.5;margin:0 0 16px">${e(intro)}</p>
<table role="presentation" style="border-collapse:collapse;width:100%;font-size:14px">
${rows.map(([label, value]) => `<tr><td style="padding:4px 12px 4px 0;color:#555;white-space:nowrap;vertical-align:top">${e(label)}</td><td style="padding:4px 0;word-break:break-all">${e(value)}</td></tr>`).join('\n')}
</table>
<p style="margin:24px 0 8px">${link(order.checkoutUrl, action, 'display:inline-block;background:#1f4fd6;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600')}</p>
<p style="margin:0 0 16px;font-size:12px;color:#555;word-break:break-all">${e(order.checkoutUrl)}</p>
${mail.manageUrl ? `<p style="margin:0 0 16px;font-size:14px">${link(mail.manageUrl, w.manage, 'color:#1f4fd6')}</p>\n` : ''}<p style="margin:24px 0 0;font-size:12px;line-height:1.5;color:#666">${e(footer)}</p>
</div>
</body></html>
`;
  return { subject, text, html };
}
