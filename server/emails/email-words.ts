import type { EmailKind, Locale } from '../../contract';

/**
 * The words of customers' e-mails, in every language the checkout speaks. `{name}` placeholders
 * are filled by render-order-email.ts (plain text, escaped there for the HTML part).
 */
type Words = {
  subject: Record<EmailKind, string>;
  intro: Record<EmailKind, string>;
  action: Record<EmailKind, string>;
  description: string;
  amount: string;
  reference: string;
  expires: string;
  paidAt: string;
  transaction: string;
  manage: string;
  theShop: string;
  footer: string;
};

const en: Words = {
  subject: {
    order: 'Payment due: {amount} {token} to {merchant}',
    reminder: 'Reminder: your payment to {merchant} expires soon',
    receipt: 'Receipt: {amount} {token} paid to {merchant}',
  },
  intro: {
    order: '{merchant} asks you to pay {amount} {token} on {network}.',
    reminder: 'Your payment of {amount} {token} on {network} to {merchant} is still open and expires soon.',
    receipt: 'Thank you: your payment of {amount} {token} on {network} to {merchant} is confirmed.',
  },
  action: { order: 'Pay now', reminder: 'Pay now', receipt: 'View the order' },
  description: 'For',
  amount: 'Amount',
  reference: 'Reference',
  expires: 'Pay before',
  paidAt: 'Paid on',
  transaction: 'Transaction',
  manage: 'Manage your subscription',
  theShop: 'the shop',
  footer:
    'Sent for {merchant} by its payment service. Before paying, check that the link leads to {host}. Never send a payment on another network or in another token.',
};

const ptBR: Words = {
  subject: {
    order: 'Pagamento pendente: {amount} {token} para {merchant}',
    reminder: 'Lembrete: seu pagamento para {merchant} vence em breve',
    receipt: 'Recibo: {amount} {token} pagos a {merchant}',
  },
  intro: {
    order: '{merchant} pede que você pague {amount} {token} na rede {network}.',
    reminder:
      'Seu pagamento de {amount} {token} na rede {network} para {merchant} ainda está aberto e vence em breve.',
    receipt: 'Obrigado: seu pagamento de {amount} {token} na rede {network} para {merchant} foi confirmado.',
  },
  action: { order: 'Pagar agora', reminder: 'Pagar agora', receipt: 'Ver o pedido' },
  description: 'Referente a',
  amount: 'Valor',
  reference: 'Referência',
  expires: 'Pague até',
  paidAt: 'Pago em',
  transaction: 'Transação',
  manage: 'Gerenciar sua assinatura',
  theShop: 'a loja',
  footer:
    'Enviado em nome de {merchant} pelo seu serviço de pagamentos. Antes de pagar, confira se o link leva a {host}. Nunca envie um pagamento em outra rede ou outro token.',
};

const es: Words = {
  subject: {
    order: 'Pago pendiente: {amount} {token} a {merchant}',
    reminder: 'Recordatorio: tu pago a {merchant} vence pronto',
    receipt: 'Recibo: {amount} {token} pagados a {merchant}',
  },
  intro: {
    order: '{merchant} te pide pagar {amount} {token} en la red {network}.',
    reminder: 'Tu pago de {amount} {token} en la red {network} a {merchant} sigue abierto y vence pronto.',
    receipt: 'Gracias: tu pago de {amount} {token} en la red {network} a {merchant} está confirmado.',
  },
  action: { order: 'Pagar ahora', reminder: 'Pagar ahora', receipt: 'Ver el pedido' },
  description: 'Concepto',
  amount: 'Importe',
  reference: 'Referencia',
  expires: 'Paga antes del',
  paidAt: 'Pagado el',
  transaction: 'Transacción',
  manage: 'Gestionar tu suscripción',
  theShop: 'la tienda',
  footer:
    'Enviado en nombre de {merchant} por su servicio de pagos. Antes de pagar, comprueba que el enlace lleva a {host}. Nunca envíes un pago en otra red ni en otro token.',
};

export const EMAIL_WORDS: Record<Locale, Words> = { en, 'pt-BR': ptBR, es };

/** `text` with its `{name}` placeholders filled from `vars` (an unknown one is left as it is). */
export const fill = (text: string, vars: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (all, name: string) => vars[name] ?? all);
