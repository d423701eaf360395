import dns from 'node:dns';
import net from 'node:net';
import { ipv6Bytes } from '../lib/ipv6-bytes';

/** IPv4 a webhook must never reach: loopback, private, link-local (cloud metadata), and the like. */
const blockedV4 = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blockedV4.addSubnet(prefix, bits, 'ipv4');

/**
 * IPv6 is reachable only in global unicast, 2000::/3: everything else is not a public host. That
 * leaves out ::/8 (unspecified, loopback, IPv4-compatible ::/96, local-use NAT64 64:ff9b:1::/48),
 * discard-only 100::/64, unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10 and
 * multicast ff00::/8. Inside it, these prefixes are refused whole: [first bytes, length in bits].
 */
const GLOBAL_UNICAST: readonly [readonly number[], number] = [[0x20], 3];
const BLOCKED_GLOBAL_V6: readonly (readonly [readonly number[], number])[] = [
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo, 2001::/32: tunnels to an IPv4 address of its choosing
  [[0x20, 0x01, 0x00, 0x02, 0x00, 0x00], 48], // benchmarking, 2001:2::/48
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation, 2001:db8::/32
];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], bits: number) => {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (prefix[bit / 8]! & mask)) return false;
  }
  return true;
};

const zeros = (bytes: Uint8Array, from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
const v4At = (bytes: Uint8Array, at: number) => Array.from(bytes.slice(at, at + 4)).join('.');

/**
 * The IPv4 address an IPv6 one leads to, for the forms that embed one: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 */
function embeddedV4(bytes: Uint8Array): string | null {
  if (zeros(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4At(bytes, 12);
  if (zeros(bytes, 0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(bytes, 10, 12))
    return v4At(bytes, 12);
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b], 32) && zeros(bytes, 4, 12)) return v4At(bytes, 12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4At(bytes, 2);
  return null;
}

/** Whether a webhook must not go to this address (anything that is not an IP address included). */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address.replace(/%.*$/, ''));
  if (family === 4) return blockedV4.check(address, 'ipv4');
  const bytes = family === 6 ? ipv6Bytes(address) : null;
  if (!bytes) return true;
  const v4 = embeddedV4(bytes);
  if (v4 !== null) return blockedV4.check(v4, 'ipv4');
  if (!startsWith(bytes, ...GLOBAL_UNICAST)) return true;
  return BLOCKED_GLOBAL_V6.some(([prefix, bits]) => startsWith(bytes, prefix, bits));
}

export class ForbiddenDestinationError extends Error {
  override name = 'ForbiddenDestinationError';
}

/**
 * A dns.lookup replacement for http.request: resolves, refuses forbidden addresses, and hands the
 * checked address to the socket, so a DNS answer cannot change between check and connect.
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isForbiddenAddress(a.address));
    if (bad || list.length === 0)
      return callback(
        new ForbiddenDestinationError(`${hostname} resolves to a private or reserved address`),
        '',
        4,
      );
    if ((options as dns.LookupOptions).all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Checks a URL at save time: literal IPs directly, host names through DNS. */
export async function assertPublicUrl(url: string): Promise<void> {
  const { hostname } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (isForbiddenAddress(host))
      throw new ForbiddenDestinationError(`${host} is a private or reserved address`);
    return;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal'))
    throw new ForbiddenDestinationError(`${host} is not a public host`);
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => {
    throw new ForbiddenDestinationError(`${host} does not resolve`);
  });
  if (addresses.some((a) => isForbiddenAddress(a.address)))
    throw new ForbiddenDestinationError(`${host} resolves to a private or reserved address`);
}
