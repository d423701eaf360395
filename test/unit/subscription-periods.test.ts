import { describe, expect, it } from 'vitest';
import { periodAt, periodIndexAt, periodStart, type PeriodRule } from '../../server/subscriptions/periods';

const DAY = 86_400;
const rule = (anchor: string, interval: PeriodRule['interval'], count = 1, daySeconds = DAY): PeriodRule => ({
  anchor: new Date(anchor),
  interval,
  count,
  daySeconds,
});
const starts = (r: PeriodRule, n: number) =>
  Array.from({ length: n }, (_, i) => periodStart(r, i).toISOString().slice(0, 10));

describe('calendar periods in UTC, anchored at the start', () => {
  it('a monthly one started on 31 January falls on the last day of shorter months, and on the 31st again after', () => {
    expect(starts(rule('2027-01-31T10:00:00Z', 'month'), 5)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    // A leap year's February has its 29th.
    expect(starts(rule('2028-01-31T10:00:00Z', 'month'), 3)).toEqual([
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
    ]);
    // The time of day stays the anchor's, in UTC.
    expect(periodStart(rule('2027-01-31T10:00:00Z', 'month'), 1).toISOString()).toBe(
      '2027-02-28T10:00:00.000Z',
    );
  });

  it('every N intervals: quarters, fortnights, a year from 29 February', () => {
    expect(starts(rule('2027-01-15T00:00:00Z', 'month', 3), 3)).toEqual([
      '2027-01-15',
      '2027-04-15',
      '2027-07-15',
    ]);
    expect(starts(rule('2027-01-01T00:00:00Z', 'week', 2), 3)).toEqual([
      '2027-01-01',
      '2027-01-15',
      '2027-01-29',
    ]);
    expect(starts(rule('2028-02-29T00:00:00Z', 'year'), 3)).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
    ]);
  });

  it('a period ends where the next begins, and the period that holds a moment is found', () => {
    const r = rule('2027-01-31T10:00:00Z', 'month');
    const february = periodAt(r, 1);
    expect(february.end).toEqual(periodStart(r, 2));
    expect(periodIndexAt(r, new Date('2027-03-31T09:59:59Z'))).toBe(1);
    expect(periodIndexAt(r, new Date('2027-03-31T10:00:00Z'))).toBe(2);
    expect(periodIndexAt(r, new Date('2026-12-01T00:00:00Z'))).toBe(0);
    expect(periodIndexAt(r, new Date('2037-01-31T10:00:00Z'))).toBe(120);
  });

  it('on a shortened day a month lasts its own number of days', () => {
    const r = rule('2027-01-31T10:00:00Z', 'month', 1, 2);
    const january = periodAt(r, 0);
    const february = periodAt(r, 1);
    // 28 days from 31 January to 28 February, 31 from then to 31 March: 2 s each.
    expect(january.end.getTime() - january.start.getTime()).toBe(28 * 2000);
    expect(february.end.getTime() - february.start.getTime()).toBe(31 * 2000);
  });
});
