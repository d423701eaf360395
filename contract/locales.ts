/**
 * The languages the customer-facing pages and e-mails speak (the checkout's words are in
 * server/checkout/i18n.ts). Here so the contract, which imports nothing of the server, can name
 * them for `customerLanguage`. Plain data (no zod): the checkout's browser script imports it.
 */
export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** Longest e-mail address (RFC 5321's path limit, less the angle brackets). */
export const EMAIL_MAX = 254;
