import {
  isFiatCurrency,
  type Account,
  type CreateOrderBody,
  type Network,
  type Order,
} from '../../../contract';
import { api, ApiFailure, failureOf } from '../api';

/** Cents typed on the keypad, as a decimal string: 1250 → "12.50". */
export const centsText = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The tip on `cents` at `percent`, rounded half up to the cent. */
export const tipCents = (cents: number, percent: number | null) =>
  percent ? Math.floor((cents * percent + 50) / 100) : 0;

/** What the keypad's key does to the cents typed so far (at most 9,999,999.99). */
export function pressKey(cents: number, key: string): number {
  if (key === 'back') return Math.floor(cents / 10);
  if (key === 'clear') return 0;
  if (key === '00') return cents * 100 > 999_999_999 ? cents : cents * 100;
  if (/^[0-9]$/.test(key)) return cents * 10 + Number(key) > 999_999_999 ? cents : cents * 10 + Number(key);
  return cents;
}

/** The sale's order: every payment option, source pos, priced in the account's currency, the tip in it. */
export function saleBody(
  account: Account,
  network: Network,
  sale: { cents: number; tipPercent: number | null; email: string },
): CreateOrderBody {
  const tip = tipCents(sale.cents, sale.tipPercent);
  const total = centsText(sale.cents + tip);
  const currency = account.currency;
  const price = isFiatCurrency(currency)
    ? { quoteCurrency: currency, quoteAmount: total, token: 'USDT' as const }
    : { amount: total, token: currency };
  return {
    network,
    ...price,
    paymentOptions: 'all',
    source: 'pos',
    metadata: {
      pos: {
        subtotal: centsText(sale.cents),
        tip: centsText(tip),
        tipPercent: sale.tipPercent ?? 0,
        currency,
      },
    },
    ...(sale.email ? { customerEmail: sale.email } : {}),
  };
}

/** What a sale's order says of its tip (the point of sale writes it in its metadata). */
export function saleOf(
  order: Order,
): { subtotal: string; tip: string; tipPercent: number; currency: string } | null {
  const pos = (order.metadata as { pos?: unknown } | null)?.pos;
  if (!pos || typeof pos !== 'object') return null;
  const p = pos as Record<string, unknown>;
  return typeof p.subtotal === 'string' && typeof p.tip === 'string' && typeof p.currency === 'string'
    ? { subtotal: p.subtotal, tip: p.tip, tipPercent: Number(p.tipPercent) || 0, currency: p.currency }
    : null;
}

/** Whether a failure is the connection's (no answer, or the service not reachable now): try the same sale again. */
export const isConnectionFailure = (error: unknown) =>
  error instanceof ApiFailure &&
  (error.code === 'NETWORK' || error.status === 502 || error.status === 503 || error.status === 504);

/**
 * Creates the sale's order with its Idempotency-Key, made once per sale before the first try: a
 * retry after a lost connection sends the same key and body, and the service answers with the
 * order it made then (never a second one).
 */
export async function chargeSale(body: CreateOrderBody, idempotencyKey: string): Promise<Order> {
  const answer = await api.orders.create({ body, headers: { 'idempotency-key': idempotencyKey } });
  if (answer.status !== 201) throw failureOf(answer);
  return answer.body;
}
