import { describe, expect, it } from 'vitest';
import {
  convertQuote,
  formatAmount,
  formatRate,
  formatUnits,
  parseDecimal,
  parseUnits,
  wireStep,
} from '../../server/lib/decimal';

describe('decimal money', () => {
  it('parses decimal strings to base units exactly', () => {
    expect(parseUnits('12.5', 6)).toBe(12_500_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('999999999999.999999', 6)).toBe(999_999_999_999_999_999n);
    expect(() => parseUnits('1.0000001', 6)).toThrow(RangeError);
    expect(() => parseUnits('1e5', 6)).toThrow(RangeError);
    expect(() => parseUnits('-1', 6)).toThrow(RangeError);
  });

  it('formats base units with fixed or minimal decimals', () => {
    expect(formatUnits(12_500_000n, 6)).toBe('12.500000');
    expect(formatUnits(12_500_000n, 6, 0)).toBe('12.5');
    expect(formatUnits(12_000_000n, 6, 0)).toBe('12');
    expect(formatUnits(1n, 6)).toBe('0.000001');
    expect(formatUnits(100_000_000n, 6, 2)).toBe('100.00');
  });

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
  });

  it('labels rates at 6 decimals, rounded half up', () => {
    expect(formatRate(parseDecimal('5.4123'))).toBe('5.412300');
    expect(formatRate(parseDecimal('0.92345675'))).toBe('0.923457');
    expect(formatRate(parseDecimal('5'))).toBe('5.000000');
  });
});

describe('amounts of tokens with more decimals', () => {
  it('writes at least 6 places and every further one the units need', () => {
    expect(formatAmount(12_500_000n, 6)).toBe('12.500000');
    expect(formatAmount(12_500_000_000_000_000_000n, 18)).toBe('12.500000');
    // One base unit over at 18 decimals: an overpayment by one unit, never rounded away.
    expect(formatAmount(12_500_000_000_000_000_001n, 18)).toBe('12.500000000000000001');
    expect(parseUnits('12.5', 18)).toBe(12_500_000_000_000_000_000n);
  });

  it('steps one wire unit (10^-6 token) in base units', () => {
    expect(wireStep(6)).toBe(1n);
    expect(wireStep(18)).toBe(10n ** 12n);
  });
});
