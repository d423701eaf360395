import net from 'node:net';

/**
 * The 16 bytes of an IPv6 address in any of its spellings (`::` compression, a trailing dotted
 * IPv4 part, a `%zone`), or null when it is not one.
 */
export function ipv6Bytes(address: string): Uint8Array | null {
  const text = address.replace(/%.*$/, '');
  if (!net.isIPv6(text)) return null;
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else out.push(parseInt(piece, 16));
    }
    return out;
  };
  const [head, tail] = text.split('::') as [string, string | undefined];
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}
