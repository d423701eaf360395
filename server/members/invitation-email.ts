import type { Locale, Role } from '../../contract';
import { fill } from '../emails/email-words';
import { escapeHtml } from '../lib/escape-html';

const WORDS: Record<Locale, { subject: string; intro: string; action: string; expires: string }> = {
  en: {
    subject: 'You are invited to {account} on stablepay',
    intro: '{inviter} invites you to join {account} as {role}.',
    action: 'Accept the invitation',
    expires: 'The link works once, until {expires}.',
  },
  'pt-BR': {
    subject: 'Você foi convidado para {account} no stablepay',
    intro: '{inviter} convida você para entrar em {account} como {role}.',
    action: 'Aceitar o convite',
    expires: 'O link funciona uma vez, até {expires}.',
  },
  es: {
    subject: 'Te invitan a {account} en stablepay',
    intro: '{inviter} te invita a unirte a {account} como {role}.',
    action: 'Aceptar la invitación',
    expires: 'El enlace funciona una vez, hasta {expires}.',
  },
};

/** The invitation e-mail: plain text and HTML, every value escaped in the HTML part. */
export function renderInvitationEmail(mail: {
  language: Locale;
  account: string;
  inviter: string;
  role: Role;
  link: string;
  expiresAt: Date;
}) {
  const w = WORDS[mail.language];
  const vars = {
    account: mail.account,
    inviter: mail.inviter,
    role: mail.role,
    expires: mail.expiresAt.toISOString(),
  };
  const subject = fill(w.subject, vars);
  const intro = fill(w.intro, vars);
  const expires = fill(w.expires, vars);
  const text = `${intro}\n\n${w.action}: ${mail.link}\n\n${expires}\n`;
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${mail.language}"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:560px;margin:auto;padding:16px">
<p>${e(intro)}</p>
<p><a href="${e(mail.link)}" style="display:inline-block;padding:10px 16px;background:#1f6feb;color:#fff;border-radius:6px;text-decoration:none">${e(w.action)}</a></p>
<p style="color:#555">${e(expires)}</p>
</body></html>`;
  return { subject, text, html };
}
