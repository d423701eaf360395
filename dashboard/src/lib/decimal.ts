/**
 * Decimal strings as the API writes them ("19.047620"), added and compared exactly: amounts are
 * never turned into floating-point numbers before they are shown.
 */
type Fixed = { units: bigint; scale: number };

function parse(value: string): Fixed {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return { units: 0n, scale: 0 };
  const [, sign, int, frac = ''] = match;
  const units = BigInt(`${int}${frac}` || '0');
  return { units: sign ? -units : units, scale: frac.length };
}

const rescale = (a: Fixed, scale: number) => a.units * 10n ** BigInt(scale - a.scale);

function format({ units, scale }: Fixed): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  let int = scale ? digits.slice(0, -scale) : digits;
  let frac = scale ? digits.slice(-scale) : '';
  frac = frac.replace(/0+$/, '');
  int = int.replace(/^0+(?=\d)/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

export function addDecimal(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return format({ units: rescale(x, scale) + rescale(y, scale), scale });
}

export function subDecimal(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return format({ units: rescale(x, scale) - rescale(y, scale), scale });
}

export function compareDecimal(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export const isPositive = (a: string) => compareDecimal(a, '0') > 0;

/** For charts only: a decimal as a number (precision is not needed to draw a bar). */
export const approx = (a: string) => Number(a) || 0;

/** Sums rows that share a key (e.g. network and token). */
export function sumBy<T>(
  rows: T[],
  key: (row: T) => string,
  amount: (row: T) => string,
): Map<string, string> {
  const sums = new Map<string, string>();
  for (const row of rows) sums.set(key(row), addDecimal(sums.get(key(row)) ?? '0', amount(row)));
  return sums;
}
