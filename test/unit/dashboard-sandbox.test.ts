import { describe, expect, it } from 'vitest';
import { simulatedAmount, simulatedKinds } from '../../dashboard/src/lib/sandbox';

/** The dashboard's "Simulate payment" amounts: what the sandbox's pay route takes (≤ 6 places). */
describe('simulatedAmount', () => {
  const option = (amountDue: string, decimals = 6, amount = '10.000000') => ({ amount, amountDue, decimals });

  it('exact leaves the amount to the route (what is due, to the base unit)', () => {
    expect(simulatedAmount('exact', option('10.000000'))).toBeUndefined();
  });

  it('part is half of what is due, over 10% more, in whole wire units', () => {
    expect(simulatedAmount('part', option('10.000000'))).toBe('5.000000');
    expect(simulatedAmount('over', option('10.000000'))).toBe('11.000000');
    expect(simulatedAmount('part', option('0.000003'))).toBe('0.000001');
    expect(simulatedAmount('over', option('0.000003'))).toBe('0.000004');
  });

  it('an 18-decimal option: due rounded up to six places', () => {
    expect(simulatedAmount('part', option('2.500000000000000001', 18, '2.5'))).toBe('1.250000');
  });

  it('nothing due (paid): of the whole amount, never zero', () => {
    expect(simulatedAmount('over', option('0.000000'))).toBe('11.000000');
    expect(simulatedAmount('part', option('0', 6, '0.000001'))).toBe('0.000001');
  });

  it('offers exact only while something is due', () => {
    expect(simulatedKinds(option('10.000000'))).toEqual(['exact', 'part', 'over']);
    expect(simulatedKinds(option('0.000000000000000001', 18))).toEqual(['exact', 'part', 'over']);
    expect(simulatedKinds(option('0.000000'))).toEqual(['part', 'over']);
  });
});
