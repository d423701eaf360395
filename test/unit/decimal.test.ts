import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatForPeople,
  formatQuote,
  formatUnits,
  MAX_DECIMALS,
  parseDecimal,
  parseUnits,
  plainDecimal,
  wireStep,
} from '../../contract/decimal';
import { MAX_TOKEN_DECIMALS, MIN_TOKEN_DECIMALS } from '../../contract/network-table';
import { convertQuote, formatRate } from '../../server/fx/exact-rate';

const UINT256_MAX = (1n << 256n) - 1n;
const TOKEN_DECIMALS = Array.from(
  { length: MAX_TOKEN_DECIMALS - MIN_TOKEN_DECIMALS + 1 },
  (_, i) => MIN_TOKEN_DECIMALS + i,
);

/** A fixed sequence of bigints below 2^256 (xorshift): the same cases on every run. */
function* someUnits(count: number): Generator<bigint> {
  let x = 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < count; i++) {
    let value = 0n;
    for (let word = 0; word <= i % 4; word++) {
      x ^= (x << 13n) & mask;
      x ^= x >> 7n;
      x ^= (x << 17n) & mask;
      value = (value << 64n) | x;
    }
    yield value >> BigInt(i % 61);
  }
}

/** Units worth trying at `decimals`: zero, one unit, one wire unit, whole tokens and their neighbours. */
const edgeUnits = (decimals: number) => {
  const one = 10n ** BigInt(decimals);
  return [0n, 1n, 9n, 10n, wireStep(decimals), one - 1n, one, one + 1n, 12n * one + one / 2n, UINT256_MAX];
};

describe('parseUnits and formatUnits: one rule for every decimals', () => {
  it('round-trips base units through text at every token decimals (6 to 36)', () => {
    for (const decimals of TOKEN_DECIMALS)
      for (const units of [...edgeUnits(decimals), ...someUnits(200)]) {
        expect(parseUnits(formatUnits(units, decimals), decimals)).toBe(units);
        expect(parseUnits(formatAmount(units, decimals), decimals)).toBe(units);
        expect(parseUnits(formatUnits(units, decimals, 0), decimals)).toBe(units);
      }
  });

  it('round-trips text through base units: the same number, trailing zeros aside', () => {
    for (const decimals of [6, 18])
      for (const text of ['0', '0.1', '12.5', '12.500000', '0.000001', '999999999999.999999', '7.000010']) {
        const units = parseUnits(text, decimals);
        expect(formatUnits(units, decimals, 0)).toBe(plainDecimal(text));
        expect(parseUnits(formatAmount(units, decimals), decimals)).toBe(units);
      }
  });

  it('reads 6-decimal amounts', () => {
    expect(parseUnits('12.5', 6)).toBe(12_500_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('0', 6)).toBe(0n);
    expect(parseUnits('007.5', 6)).toBe(7_500_000n);
    expect(parseUnits('999999999999.999999', 6)).toBe(999_999_999_999_999_999n);
  });

  it('reads 18-decimal amounts', () => {
    expect(parseUnits('12.5', 18)).toBe(12_500_000_000_000_000_000n);
    expect(parseUnits('0.000000000000000001', 18)).toBe(1n);
    expect(parseUnits('3.000000000000000001', 18)).toBe(3_000_000_000_000_000_001n);
  });

  it('takes at most `decimals` places: one more is refused, never rounded', () => {
    expect(() => parseUnits('1.0000001', 6)).toThrow(RangeError);
    expect(() => parseUnits('1.0000000', 6)).toThrow(/more than 6 decimal places/);
    expect(parseUnits('1.000000000000000001', 18)).toBe(10n ** 18n + 1n);
    expect(() => parseUnits('1.0000000000000000001', 18)).toThrow(RangeError);
    expect(parseUnits(`0.${'0'.repeat(35)}1`, 36)).toBe(1n);
    expect(() => parseUnits(`0.${'0'.repeat(36)}1`, 36)).toThrow(RangeError);
    expect(parseUnits('5', 0)).toBe(5n);
    expect(() => parseUnits('5.0', 0)).toThrow(RangeError);
  });

  it('refuses malformed text', () => {
    for (const text of [
      '',
      '.',
      '.5',
      '5.',
      '-1',
      '+1',
      '1e5',
      '1E-6',
      ' 1',
      '1 ',
      '1,5',
      '1_000',
      '0x10',
      '1.2.3',
      'NaN',
      'Infinity',
      '١',
      '１',
      '12.5\n',
    ])
      expect(() => parseUnits(text, 6), JSON.stringify(text)).toThrow(RangeError);
    expect(() => parseDecimal('abc')).toThrow(/not a decimal string/);
  });

  it('takes decimals from 0 to 36 only', () => {
    for (const decimals of [-1, 37, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => parseUnits('1', decimals), String(decimals)).toThrow(RangeError);
      expect(() => formatUnits(1n, decimals), String(decimals)).toThrow(RangeError);
    }
    expect(MAX_DECIMALS).toBe(MAX_TOKEN_DECIMALS);
    expect(formatUnits(UINT256_MAX, 36)).toBe(
      '115792089237316195423570985008687907853269.984665640564039457584007913129639935',
    );
    expect(formatUnits(123n, 0)).toBe('123');
  });

  it('formats with fixed or fewer places', () => {
    expect(formatUnits(12_500_000n, 6)).toBe('12.500000');
    expect(formatUnits(12_500_000n, 6, 0)).toBe('12.5');
    expect(formatUnits(12_000_000n, 6, 0)).toBe('12');
    expect(formatUnits(1n, 6)).toBe('0.000001');
    expect(formatUnits(100_000_000n, 6, 2)).toBe('100.00');
    expect(formatUnits(-1_500_000n, 6, 0)).toBe('-1.5');
  });
});

describe('formatAmount: what the API writes', () => {
  it('writes at least 6 places and every further one the units need', () => {
    expect(formatAmount(0n, 6)).toBe('0.000000');
    expect(formatAmount(0n, 18)).toBe('0.000000');
    expect(formatAmount(12_500_000n, 6)).toBe('12.500000');
    expect(formatAmount(12_500_000_000_000_000_000n, 18)).toBe('12.500000');
    // One base unit over at 18 decimals: an overpayment by one unit, never rounded away.
    expect(formatAmount(12_500_000_000_000_000_001n, 18)).toBe('12.500000000000000001');
    expect(formatAmount(12_500_010_000_000_000_000n, 18)).toBe('12.500010');
    expect(formatAmount(1n, 36)).toBe(`0.${'0'.repeat(35)}1`);
  });

  it('has the same length rule at every decimals: 6 places, or as many as the last non-zero digit needs', () => {
    for (const decimals of TOKEN_DECIMALS)
      for (const units of someUnits(100)) {
        const [, fraction = ''] = formatAmount(units, decimals).split('.');
        expect(fraction.length).toBeGreaterThanOrEqual(6);
        if (fraction.length > 6) expect(fraction.endsWith('0')).toBe(false);
      }
  });

  it('steps one wire unit (10^-6 token) in base units', () => {
    expect(wireStep(6)).toBe(1n);
    expect(wireStep(18)).toBe(10n ** 12n);
    expect(formatAmount(wireStep(18), 18)).toBe('0.000001');
  });

  it('writes quotes with 2 to 6 places', () => {
    expect(formatQuote(9_200_000n)).toBe('9.20');
    expect(formatQuote(9_123_000n)).toBe('9.123');
    expect(formatQuote(1n)).toBe('0.000001');
    expect(formatQuote(0n)).toBe('0.00');
  });
});

describe('plainDecimal and formatForPeople: what a payer copies and reads', () => {
  it('drops trailing and leading zeros only', () => {
    expect(plainDecimal('12.500000')).toBe('12.5');
    expect(plainDecimal('3.0')).toBe('3');
    expect(plainDecimal('007')).toBe('7');
    expect(plainDecimal('0.000000')).toBe('0');
    expect(plainDecimal('12.500000000000000001')).toBe('12.500000000000000001');
    expect(() => plainDecimal('1e6')).toThrow(RangeError);
  });

  it('groups the whole part as the language does and keeps every place of the fraction', () => {
    expect(formatForPeople('1234.500000', 'en')).toBe('1,234.50');
    expect(formatForPeople('1234.500000', 'pt-BR')).toBe('1.234,50');
    expect(formatForPeople('1234567.25', 'es')).toBe('1.234.567,25');
    expect(formatForPeople('19.047620', 'en')).toBe('19.04762');
    expect(formatForPeople('12.500000000000000001', 'en')).toBe('12.500000000000000001');
    expect(formatForPeople('123456789012345678901234567890', 'en', 0)).toBe(
      '123,456,789,012,345,678,901,234,567,890',
    );
    expect(formatForPeople('5.000000', 'en', 0)).toBe('5');
    expect(formatForPeople('not a number', 'en')).toBe('not a number');
  });
});

describe('quotes at a rate', () => {
  it('converts quotes rounding up, never down', () => {
    // 100 BRL at 5.25 BRL per token = 19.0476190476... -> 19.047620
    expect(convertQuote(parseUnits('100', 6), parseDecimal('5.25'))).toBe(19_047_620n);
    // exact division stays exact
    expect(convertQuote(parseUnits('10.50', 6), parseDecimal('5.25'))).toBe(2_000_000n);
    // the merchant never receives less than quoted: amount * rate >= quote
    for (const [quote, rate] of [
      ['0.01', '5.4123'],
      ['1', '3'],
      ['12345.67', '0.923456789012345678'],
    ] as const) {
      const units = convertQuote(parseUnits(quote, 6), parseDecimal(rate));
      const r = parseDecimal(rate);
      expect(units * r.digits).toBeGreaterThanOrEqual(parseUnits(quote, 6) * 10n ** BigInt(r.scale));
      expect((units - 1n) * r.digits).toBeLessThan(parseUnits(quote, 6) * 10n ** BigInt(r.scale));
    }
    expect(() => convertQuote(1n, parseDecimal('0'))).toThrow(RangeError);
  });

  it('labels rates at 6 decimals, rounded half up', () => {
    expect(formatRate(parseDecimal('5.4123'))).toBe('5.412300');
    expect(formatRate(parseDecimal('0.92345675'))).toBe('0.923457');
    expect(formatRate(parseDecimal('5'))).toBe('5.000000');
  });
});
