import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isForbiddenAddress } from '../../server/events/ssrf-guard';
import { signatureHeader } from '../../server/events/webhook-signature';
import { checkMetricsAccess, isLoopbackClient } from '../../server/health/check-metrics-access';
import { constructEvent } from '../../sdk/src/webhooks';

/** Rules that need no database: where a webhook may go, and how it is signed and checked. */

describe('SSRF guard: addresses a webhook must never reach', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1', // NAT64 of 10.0.0.1
    'not-an-ip',
  ])('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => expect(isForbiddenAddress(address)).toBe(false),
  );

  it.each([
    ['IPv4-mapped ::ffff:0:0/96, hex spelling', '::ffff:7f00:1'],
    ['IPv4-mapped, metadata', '0:0:0:0:0:ffff:169.254.169.254'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:10.0.0.1'],
    ['IPv4-compatible ::/96', '::127.0.0.1'],
    ['IPv4-compatible ::/96, public IPv4', '::8.8.8.8'],
    ['NAT64 64:ff9b::/96 of a private IPv4', '64:ff9b::10.0.0.1'],
    ['NAT64 64:ff9b::/96 of loopback', '64:ff9b::7f00:1'],
    ['local-use NAT64 64:ff9b:1::/48', '64:ff9b:1::8.8.8.8'],
    ['6to4 2002::/16 of a private IPv4', '2002:a00:1::1'],
    ['6to4 2002::/16 of loopback', '2002:7f00:1::'],
    ['6to4 2002::/16 of cloud metadata', '2002:a9fe:a9fe::1'],
    ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['site-local fec0::/10', 'fec0::1'],
    ['site-local fec0::/10, upper end', 'feff::1'],
    ['unique-local fc00::/7', 'fc00::1'],
    ['unique-local fd00::/8', 'fd12:3456::1'],
    ['link-local fe80::/10', 'fe80::1'],
    ['link-local with a zone', 'fe80::1%eth0'],
    ['multicast ff00::/8', 'ff02::1'],
    ['discard-only 100::/64', '100::1'],
    ['documentation 2001:db8::/32', '2001:db8::1'],
  ])('refuses %s: %s', (_range, address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each([
    ['NAT64 of a public IPv4', '64:ff9b::8.8.8.8'],
    ['6to4 of a public IPv4', '2002:808:808::1'],
    ['global unicast', '2a00:1450:4001:81c::200e'],
  ])('allows %s: %s', (_range, address) => expect(isForbiddenAddress(address)).toBe(false));

  it('refuses URLs whose host is a forbidden IP literal, without any lookup', async () => {
    for (const url of [
      'http://127.0.0.1/hook',
      'https://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:7f00:1]/hook',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data',
      'http://[2002:a00:1::1]/hook',
      'http://[fec0::1]/hook',
    ])
      await expect(assertPublicUrl(url)).rejects.toThrow();
  });
});

describe('webhook signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'order.paid', data: { order: { reference: 'R' } } });
  const t = 1_790_000_000;

  it('signs "<t>.<body>" with HMAC-SHA256, one v1 per active secret', () => {
    const header = signatureHeader(body, ['whsec_new', 'whsec_old'], t);
    const hmac = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`);
  });

  it("is accepted by the SDK's verifier with either secret, and refused when anything changes", () => {
    const header = signatureHeader(body, ['whsec_new', 'whsec_old'], t);
    const now = t + 1; // seconds
    for (const secret of ['whsec_new', 'whsec_old'])
      expect(constructEvent({ payload: body, header, secret, now })).toMatchObject({ id: 'evt_1' });
    expect(() => constructEvent({ payload: body, header, secret: 'whsec_other', now })).toThrow();
    expect(() => constructEvent({ payload: `${body} `, header, secret: 'whsec_new', now })).toThrow();
    expect(() => constructEvent({ payload: body, header, secret: 'whsec_new', now: t + 3600 })).toThrow(); // outside the tolerance: a replayed delivery
  });
});

describe('/metrics access', () => {
  const client = (peer: string, ip = peer, forwarded = false) => ({
    authorization: undefined,
    peer,
    ip,
    forwarded,
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('counts %s as loopback', (address) =>
    expect(isLoopbackClient(client(address))).toBe(true),
  );

  it.each([
    ['another machine', client('10.0.0.5')],
    ['a public address', client('203.0.113.7')],
    ['IPv4-mapped, not loopback', client('::ffff:10.0.0.5')],
    ['a client behind a trusted proxy on loopback', client('127.0.0.1', '203.0.113.7', true)],
    ['a forwarded request, whatever it claims', client('127.0.0.1', '127.0.0.1', true)],
  ])('does not count %s', (_what, c) => expect(isLoopbackClient(c)).toBe(false));

  it('wants the token from everyone once METRICS_TOKEN is set, and loopback without one', () => {
    const token = { METRICS_TOKEN: 'a-long-metrics-token-123' };
    expect(() => checkMetricsAccess(token, client('127.0.0.1'))).toThrow(/METRICS_TOKEN/);
    expect(() =>
      checkMetricsAccess(token, { ...client('10.0.0.5'), authorization: 'Bearer a-long-metrics-token-123' }),
    ).not.toThrow();
    expect(() => checkMetricsAccess({ METRICS_TOKEN: undefined }, client('::1'))).not.toThrow();
    expect(() => checkMetricsAccess({ METRICS_TOKEN: undefined }, client('10.0.0.5'))).toThrow(/loopback/);
  });
});
