import type { SubscriptionStatus } from '../../contract';

/** The customer's page in each language it speaks (the checkout's). */
type Words = {
  title: string;
  plan: string;
  every: (count: number, interval: string) => string;
  status: string;
  statuses: Record<SubscriptionStatus, string>;
  dueNow: string;
  payNow: string;
  payBy: string;
  nothingDue: string;
  orders: string;
  period: string;
  orderStatus: string;
  orderStatuses: Record<string, string>;
  cancel: string;
  cancelHint: string;
  canceling: (date: string) => string;
  canceled: string;
  notFound: string;
};

const INTERVALS: Record<string, Record<string, [string, string]>> = {
  en: { day: ['day', 'days'], week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] },
  'pt-BR': {
    day: ['dia', 'dias'],
    week: ['semana', 'semanas'],
    month: ['mês', 'meses'],
    year: ['ano', 'anos'],
  },
  es: { day: ['día', 'días'], week: ['semana', 'semanas'], month: ['mes', 'meses'], year: ['año', 'años'] },
};
const every = (lang: string, word: string) => (count: number, interval: string) => {
  const [one, many] = INTERVALS[lang]![interval] ?? [interval, interval];
  return count === 1 ? `${word} ${one}` : `${word} ${count} ${many}`;
};

export const MANAGE_PAGE_TEXT: Record<'en' | 'pt-BR' | 'es', Words> = {
  en: {
    title: 'Your subscription',
    plan: 'Plan',
    every: every('en', 'every'),
    status: 'Status',
    statuses: {
      INCOMPLETE: 'Waiting for the first payment',
      TRIALING: 'Trial',
      ACTIVE: 'Active',
      PAST_DUE: 'Payment overdue',
      PAUSED: 'Paused',
      CANCELED: 'Canceled',
    },
    dueNow: 'To pay now',
    payNow: 'Pay now',
    payBy: 'Pay by {date}',
    nothingDue: 'Nothing to pay right now.',
    orders: 'Payments',
    period: 'Period',
    orderStatus: 'Status',
    orderStatuses: {
      PENDING: 'To pay',
      CONFIRMING: 'Confirming',
      UNDERPAID: 'Partly paid',
      PAID: 'Paid',
      EXPIRED: 'Expired',
    },
    cancel: 'Cancel subscription',
    cancelHint: 'It ends when the current period ends; nothing more will be asked of you.',
    canceling: (date) => `Ends on ${date}; nothing more will be asked of you.`,
    canceled: 'This subscription has ended.',
    notFound: 'This subscription link is not valid.',
  },
  'pt-BR': {
    title: 'Sua assinatura',
    plan: 'Plano',
    every: every('pt-BR', 'a cada'),
    status: 'Situação',
    statuses: {
      INCOMPLETE: 'Aguardando o primeiro pagamento',
      TRIALING: 'Período de teste',
      ACTIVE: 'Ativa',
      PAST_DUE: 'Pagamento em atraso',
      PAUSED: 'Pausada',
      CANCELED: 'Cancelada',
    },
    dueNow: 'A pagar agora',
    payNow: 'Pagar agora',
    payBy: 'Pague até {date}',
    nothingDue: 'Nada a pagar agora.',
    orders: 'Pagamentos',
    period: 'Período',
    orderStatus: 'Situação',
    orderStatuses: {
      PENDING: 'A pagar',
      CONFIRMING: 'Confirmando',
      UNDERPAID: 'Pago em parte',
      PAID: 'Pago',
      EXPIRED: 'Expirado',
    },
    cancel: 'Cancelar assinatura',
    cancelHint: 'Ela termina no fim do período atual; nada mais será cobrado.',
    canceling: (date) => `Termina em ${date}; nada mais será cobrado.`,
    canceled: 'Esta assinatura terminou.',
    notFound: 'Este link de assinatura não é válido.',
  },
  es: {
    title: 'Tu suscripción',
    plan: 'Plan',
    every: every('es', 'cada'),
    status: 'Estado',
    statuses: {
      INCOMPLETE: 'Esperando el primer pago',
      TRIALING: 'Prueba',
      ACTIVE: 'Activa',
      PAST_DUE: 'Pago atrasado',
      PAUSED: 'En pausa',
      CANCELED: 'Cancelada',
    },
    dueNow: 'Por pagar ahora',
    payNow: 'Pagar ahora',
    payBy: 'Paga antes del {date}',
    nothingDue: 'Nada por pagar ahora.',
    orders: 'Pagos',
    period: 'Período',
    orderStatus: 'Estado',
    orderStatuses: {
      PENDING: 'Por pagar',
      CONFIRMING: 'Confirmando',
      UNDERPAID: 'Pagado en parte',
      PAID: 'Pagado',
      EXPIRED: 'Vencido',
    },
    cancel: 'Cancelar suscripción',
    cancelHint: 'Termina al final del período actual; no se te pedirá nada más.',
    canceling: (date) => `Termina el ${date}; no se te pedirá nada más.`,
    canceled: 'Esta suscripción terminó.',
    notFound: 'Este enlace de suscripción no es válido.',
  },
};
export type ManageLanguage = keyof typeof MANAGE_PAGE_TEXT;
