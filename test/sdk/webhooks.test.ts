import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../../server/events/webhook-signature';
import {
  constructEvent,
  generateTestHeader,
  StablepayError,
  WebhookSignatureVerificationError,
  webhooks,
  isMemberEvent,
  isPayoutEvent,
  isSubscriptionEvent,
  API_VERSIONS,
  EVENT_TYPES,
  LATEST_API_VERSION,
  type OrderEvent,
  type PingEvent,
  type RefundEvent,
  type SubscriptionEvent,
  type WebhookEvent,
} from '../../sdk/src/index';
import { API_VERSIONS as CONTRACT_API_VERSIONS, ZWebhookEvent } from '../../contract';

const SECRET = 'whsec_current_0123456789abcdef';
const PREVIOUS = 'whsec_previous_fedcba9876543210';
const NOW = 1_790_000_000;

const event = {
  id: 'evt_4f0c2f7e9b',
  type: 'order.paid',
  apiVersion: '2026-11-24',
  createdAt: '2026-09-21T10:00:00.000Z',
  data: {
    order: { reference: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', status: 'PAID', amount: '19.04762' },
  },
};
// Exactly as the server sends it: the raw text, with a non-ASCII character to catch re-encoding.
const body = JSON.stringify({ ...event, data: { order: { ...event.data.order, description: 'Café ☕' } } });

function verificationError(fn: () => unknown): WebhookSignatureVerificationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureVerificationError);
    expect(error).toBeInstanceOf(StablepayError);
    return error as WebhookSignatureVerificationError;
  }
  throw new Error('expected a WebhookSignatureVerificationError');
}

describe('webhooks.constructEvent', () => {
  it("accepts the server's own header and returns the typed event", () => {
    const header = signatureHeader(body, [SECRET], NOW);
    const parsed: WebhookEvent = constructEvent({ payload: body, header, secret: SECRET, now: NOW + 10 });
    expect(parsed.id).toBe(event.id);
    expect(parsed.type).toBe('order.paid');
    if (parsed.type !== 'order.paid') throw new Error('narrowed by type');
    expect(parsed.apiVersion).toBe('2026-11-24');
    expect(parsed.data.order.reference).toBe(event.data.order.reference);
    expect(parsed.data.order.description).toBe('Café ☕');
    // A Buffer (express.raw) works the same.
    expect(
      webhooks.constructEvent({ payload: Buffer.from(body, 'utf8'), header, secret: SECRET, now: NOW }),
    ).toEqual(parsed);
    // So does a Uint8Array that is not a Buffer.
    const bytes = new Uint8Array(new TextEncoder().encode(body));
    expect(constructEvent({ payload: bytes, header, secret: SECRET, now: NOW })).toEqual(parsed);
  });

  it('accepts a header with two v1 values (a rotation), with either secret', () => {
    const header = signatureHeader(body, [SECRET, PREVIOUS], NOW);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(constructEvent({ payload: body, header, secret: SECRET, now: NOW }).id).toBe(event.id);
    expect(constructEvent({ payload: body, header, secret: PREVIOUS, now: NOW }).id).toBe(event.id);
    // A receiver that was given both secrets accepts a header signed by only the old one.
    const oldOnly = signatureHeader(body, [PREVIOUS], NOW);
    expect(constructEvent({ payload: body, header: oldOnly, secret: [SECRET, PREVIOUS], now: NOW }).id).toBe(
      event.id,
    );
    // Node gives repeated headers as an array.
    expect(constructEvent({ payload: body, header: [header], secret: SECRET, now: NOW }).id).toBe(event.id);
    // Unknown schemes and spaces are tolerated.
    const spaced = header.replace(',', ', v0=deadbeef, ');
    expect(constructEvent({ payload: body, header: spaced, secret: SECRET, now: NOW }).id).toBe(event.id);
  });

  it('rejects a tampered body', () => {
    const header = signatureHeader(body, [SECRET], NOW);
    const tampered = body.replace('19.04762', '1904.762');
    const error = verificationError(() =>
      constructEvent({ payload: tampered, header, secret: SECRET, now: NOW }),
    );
    expect(error.reason).toBe('NO_MATCHING_SIGNATURE');
    expect(error.code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(error.message).toMatch(/No v1 signature in the header matches/);
    expect(error.header).toBe(header);
    // Re-serialised JSON (other spacing) is also another body.
    const reserialised = JSON.stringify(JSON.parse(body), null, 2);
    expect(
      verificationError(() => constructEvent({ payload: reserialised, header, secret: SECRET, now: NOW }))
        .reason,
    ).toBe('NO_MATCHING_SIGNATURE');
  });

  it('rejects a wrong secret, and a signature moved to another timestamp', () => {
    const header = signatureHeader(body, [SECRET], NOW);
    expect(
      verificationError(() => constructEvent({ payload: body, header, secret: 'whsec_wrong', now: NOW }))
        .reason,
    ).toBe('NO_MATCHING_SIGNATURE');
    const moved = header.replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(
      verificationError(() => constructEvent({ payload: body, header: moved, secret: SECRET, now: NOW }))
        .reason,
    ).toBe('NO_MATCHING_SIGNATURE');
    // A truncated or non-hex v1 never matches (and never throws inside timingSafeEqual).
    const truncated = header.slice(0, -2);
    expect(
      verificationError(() => constructEvent({ payload: body, header: truncated, secret: SECRET, now: NOW }))
        .reason,
    ).toBe('NO_MATCHING_SIGNATURE');
  });

  it('rejects a stale (or future) timestamp, with the tolerance in the message', () => {
    const header = signatureHeader(body, [SECRET], NOW);
    const stale = verificationError(() =>
      constructEvent({ payload: body, header, secret: SECRET, now: NOW + 301 }),
    );
    expect(stale.reason).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(stale.message).toContain('301 s old');
    expect(stale.message).toContain('tolerance of 300 s');
    expect(constructEvent({ payload: body, header, secret: SECRET, now: NOW + 300 }).id).toBe(event.id);
    const future = verificationError(() =>
      constructEvent({ payload: body, header, secret: SECRET, now: NOW - 400 }),
    );
    expect(future.message).toContain('in the future');
    // Custom tolerance, and 0 to turn the check off.
    expect(
      verificationError(() =>
        constructEvent({ payload: body, header, secret: SECRET, tolerance: 10, now: NOW + 11 }),
      ).reason,
    ).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(
      constructEvent({ payload: body, header, secret: SECRET, tolerance: 0, now: NOW + 86_400 }).id,
    ).toBe(event.id);
    // Default "now" is the clock: a header from now passes, one from 10 minutes ago does not.
    const fresh = signatureHeader(body, [SECRET], Math.floor(Date.now() / 1000));
    expect(constructEvent({ payload: body, header: fresh, secret: SECRET }).id).toBe(event.id);
    const old = signatureHeader(body, [SECRET], Math.floor(Date.now() / 1000) - 600);
    expect(
      verificationError(() => constructEvent({ payload: body, header: old, secret: SECRET })).reason,
    ).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('rejects a parsed object instead of the raw body, saying so', () => {
    const header = signatureHeader(body, [SECRET], NOW);
    const error = verificationError(() =>
      constructEvent({ payload: JSON.parse(body) as unknown as string, header, secret: SECRET, now: NOW }),
    );
    expect(error.reason).toBe('PAYLOAD_NOT_RAW');
    expect(error.message).toContain('pass the raw request body, not the parsed JSON');
    expect(error.message).toContain('got object');
    expect(
      verificationError(() =>
        constructEvent({ payload: undefined as unknown as string, header, secret: SECRET }),
      ).reason,
    ).toBe('PAYLOAD_NOT_RAW');
  });

  it('rejects a missing or malformed header, and a missing secret', () => {
    for (const header of [undefined, null, '', '   ', []]) {
      const error = verificationError(() =>
        constructEvent({ payload: body, header, secret: SECRET, now: NOW }),
      );
      expect(error.reason).toBe('HEADER_MISSING');
      expect(error.message).toContain('X-Webhook-Signature');
    }
    const v1 = signatureHeader(body, [SECRET], NOW).split(',')[1]!;
    const cases: [string, RegExp][] = [
      [v1, /no timestamp/],
      [`t=${NOW}`, /no v1= signature/],
      [`t=soon,${v1}`, /bad timestamp/],
      [`t=${NOW},t=${NOW},${v1}`, /bad timestamp/],
      ['garbage', /no timestamp/],
    ];
    for (const [header, message] of cases) {
      const error = verificationError(() =>
        constructEvent({ payload: body, header, secret: SECRET, now: NOW }),
      );
      expect(error.reason).toBe('HEADER_MALFORMED');
      expect(error.message).toMatch(message);
    }
    const header = signatureHeader(body, [SECRET], NOW);
    for (const secret of ['', [], [''], undefined as unknown as string])
      expect(
        verificationError(() => constructEvent({ payload: body, header, secret, now: NOW })).reason,
      ).toBe('SECRET_MISSING');
  });
});

describe('webhooks.generateTestHeader', () => {
  it("produces exactly the server's header, and round-trips through constructEvent", () => {
    expect(generateTestHeader({ payload: body, secret: SECRET, timestamp: NOW })).toBe(
      signatureHeader(body, [SECRET], NOW),
    );
    expect(generateTestHeader({ payload: body, secret: [SECRET, PREVIOUS], timestamp: NOW })).toBe(
      signatureHeader(body, [SECRET, PREVIOUS], NOW),
    );
    const header = webhooks.generateTestHeader({ payload: Buffer.from(body), secret: SECRET });
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const parsed = webhooks.constructEvent({ payload: body, header, secret: SECRET });
    expect(parsed.type === 'order.paid' && parsed.data.order.status).toBe('PAID');
    expect(() => generateTestHeader({ payload: body, secret: SECRET, timestamp: 1.5 })).toThrow(TypeError);
  });
});

describe('webhook events: a union told apart by type', () => {
  /** What a receiver written against the SDK does: a switch over the types it knows. */
  function describeEvent(e: WebhookEvent): string {
    // The SDK's guard narrows a subscription's seven event types at once.
    if (isSubscriptionEvent(e)) {
      const sub: SubscriptionEvent = e;
      return `${sub.type} ${sub.data.subscription.id} ${'order' in sub.data ? sub.data.order.reference : '-'}`;
    }
    if (isMemberEvent(e)) return `${e.type} by ${e.data.memberEmail}`;
    // And a payout's seven (API version 2026-12-03 on): about no order.
    if (isPayoutEvent(e)) return `${e.type} ${e.data.payout.id} ${e.data.item?.id ?? '-'}`;
    switch (e.type) {
      case 'order.paid':
      case 'order.underpaid': {
        const paid: OrderEvent<'order.paid' | 'order.underpaid'> = e;
        return `${paid.type} ${paid.data.order.amountReceived} ${paid.data.payment?.txId ?? '-'}`;
      }
      case 'refund.created':
      case 'refund.succeeded':
      case 'refund.failed': {
        const refund: RefundEvent = e;
        return `${refund.type} ${refund.data.refund.amount} of ${refund.data.order.reference}`;
      }
      case 'ping': {
        const ping: PingEvent = e;
        // @ts-expect-error a ping is about no order
        void ping.data.order;
        return `ping ${ping.data.message}`;
      }
      default: {
        const other: OrderEvent = e;
        return `${other.type} ${other.data.order.status}`;
      }
    }
  }

  const sign = (value: object) => {
    const payload = JSON.stringify(value);
    return { payload, header: signatureHeader(payload, [SECRET], NOW), secret: SECRET, now: NOW };
  };

  it('returns a ping (no order) and order events as their own types, with apiVersion', () => {
    const ping = constructEvent(
      sign({
        id: 'evt_ping',
        type: 'ping',
        apiVersion: LATEST_API_VERSION,
        createdAt: '2026-11-24T10:00:00.000Z',
        data: { message: 'A test delivery from stablepay' },
      }),
    );
    expect(describeEvent(ping)).toBe('ping A test delivery from stablepay');
    expect(ping.apiVersion).toBe(LATEST_API_VERSION);
    const paid = constructEvent({
      payload: body,
      header: signatureHeader(body, [SECRET], NOW),
      secret: SECRET,
      now: NOW,
    });
    expect(describeEvent(paid)).toBe('order.paid undefined -');
  });

  it('knows every event type of the contract, and the versions', () => {
    expect(EVENT_TYPES).toContain('ping');
    // The SDK's list is the contract's own (test/integration/webhook-versions.test.ts checks it).
    expect(API_VERSIONS).toBe(CONTRACT_API_VERSIONS);
    expect(LATEST_API_VERSION).toBe(API_VERSIONS[API_VERSIONS.length - 1]);
    // The union is the contract's: every type has a member, and the payload of one does not pass as another.
    for (const type of EVENT_TYPES) {
      const data = type === 'ping' ? { message: 'hi' } : { order: {} };
      const result = ZWebhookEvent.safeParse({
        id: 'evt_1',
        type,
        apiVersion: '2025-01-01',
        createdAt: '2026-01-01T00:00:00Z',
        data,
      });
      // Bodies here are partial (no full order): what matters is that the type is recognised.
      expect(
        result.success || result.error.issues.every((i) => i.code !== 'invalid_union_discriminator'),
        type,
      ).toBe(true);
    }
    const unknown = ZWebhookEvent.safeParse({
      id: 'evt_1',
      type: 'order.refunded',
      apiVersion: '2025-01-01',
      createdAt: '2026-01-01T00:00:00Z',
      data: {},
    });
    expect(unknown.success).toBe(false);
    const noVersion = ZWebhookEvent.safeParse({
      id: 'evt_1',
      type: 'ping',
      createdAt: '2026-01-01T00:00:00Z',
      data: { message: 'hi' },
    });
    expect(noVersion.success).toBe(false);
  });
});
