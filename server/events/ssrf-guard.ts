import dns from 'node:dns';
import net from 'node:net';

/** Addresses a webhook must never reach: loopback, private, link-local (cloud metadata), and the like. */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return blocked.check(address, 'ipv4');
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
