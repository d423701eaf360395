import { NETWORKS, TOKENS, type Network, type Token, type WebhookEventBody } from '../../../contract';
import { DECIMAL_TEXT } from '../../../contract/decimal';

/**
 * Reading the facts of reported and unattributed transfers for the pages that show them: audit
 * entries carry free-form data (`Record<string, unknown>`), so each field is taken only when it has
 * the form the service writes, and anything else is left out rather than shown wrong.
 */

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const isoTime = (value: unknown) => {
  const s = text(value);
  return s !== null && !Number.isNaN(Date.parse(s)) ? s : null;
};

/** A `payment.claimed` entry: a transfer a payer reported without proof (it credited nothing). */
export type ClaimedTransfer = {
  txId: string;
  /** Its network, on an order with several ways to pay (an attribution must name it). */
  network: Network | null;
  amount: string | null;
  from: string | null;
  blockTime: string | null;
  reason: string | null;
};

export function readClaimedTransfer(data: Record<string, unknown>): ClaimedTransfer | null {
  const txId = text(data.txId);
  if (!txId) return null;
  const amount = text(data.amount);
  const network = NETWORKS.find((n) => n === data.network) ?? null;
  return {
    txId,
    network,
    amount: amount !== null && DECIMAL_TEXT.test(amount) ? amount : null,
    from: text(data.from),
    blockTime: isoTime(data.blockTime),
    reason: text(data.reason),
  };
}

/** Whether a payer's report (`tx.submitted`) came signed by the sending wallet; null for the merchant's. */
export function reportSigned(data: Record<string, unknown>): boolean | null {
  return typeof data.signed === 'boolean' ? data.signed : null;
}

/** One transfer, however often it is listed: a transaction id is unique on its network only. */
export const transferKey = (t: { network: string; txId: string }) => `${t.network}:${t.txId}`;

/** The next page after the ones shown ("Load more"), without a transfer twice if the list moved. */
export function appendTransfers<T extends { network: string; txId: string }>(shown: T[], next: T[]): T[] {
  const seen = new Set(shown.map(transferKey));
  return [...shown, ...next.filter((t) => !seen.has(transferKey(t)))];
}

/** A transfer the merchant attributed from the page, waiting for the chain's word. */
export type Attribution = { network: string; txId: string; reference: string };

export type AttributionOutcome =
  | { kind: 'credited'; attribution: Attribution; amount: string; token: string }
  | { kind: 'rejected'; attribution: Attribution };

/**
 * What the order events say about attributions in flight: an `order.paid` or `order.underpaid`
 * carrying the transfer (`data.payment`) credited it; an `order.payment_rejected` of its order
 * turned it down (the order's timeline says why).
 */
export function attributionOutcomes(
  events: WebhookEventBody[],
  pending: Attribution[],
): AttributionOutcome[] {
  const outcomes: AttributionOutcome[] = [];
  const open = new Map(pending.map((a) => [transferKey(a), a]));
  for (const event of events) {
    if (event.type === 'order.paid' || event.type === 'order.underpaid') {
      const payment = event.data.payment;
      const attribution = payment && open.get(transferKey(payment));
      if (attribution && attribution.reference === event.data.order.reference) {
        outcomes.push({
          kind: 'credited',
          attribution,
          amount: payment.amount,
          token: event.data.order.token,
        });
        open.delete(transferKey(attribution));
      }
    } else if (event.type === 'order.payment_rejected') {
      for (const attribution of open.values())
        if (attribution.reference === event.data.order.reference) {
          outcomes.push({ kind: 'rejected', attribution });
          open.delete(transferKey(attribution));
        }
    }
  }
  return outcomes;
}

/** A way to pay as an order's audit entry names it: network, token and amount. */
export type AuditOption = { network: Network; token: Token; amount: string };

/**
 * The options an `order.created` entry lists (`paymentOptions`: the ways to pay beyond the order's
 * own), or null when the value is not that list as the service writes it.
 */
export function readAuditOptions(value: unknown): AuditOption[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const options: AuditOption[] = [];
  for (const o of value as Record<string, unknown>[]) {
    const network = NETWORKS.find((n) => n === o?.network);
    const token = TOKENS.find((t) => t === o?.token);
    const amount = text(o?.amount);
    if (!network || !token || amount === null || !DECIMAL_TEXT.test(amount)) return null;
    options.push({ network, token, amount });
  }
  return options;
}
