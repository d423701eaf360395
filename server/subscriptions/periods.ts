import { UTCDate } from '@date-fns/utc';
import { addDays, addMonths, addWeeks, addYears } from 'date-fns';
import type { SubscriptionInterval } from '../../contract';

/** How a subscription's periods fall: every `count` `interval`s from `anchor`, on a clock whose day lasts `daySeconds`. */
export type PeriodRule = {
  anchor: Date;
  interval: SubscriptionInterval;
  count: number;
  /** SUBSCRIPTION_DAY_SECONDS: 86,400 in production; shorter in tests and the sandbox. */
  daySeconds: number;
};

export type Period = { index: number; start: Date; end: Date };

const DAY_MS = 86_400_000;
const ADD: Record<SubscriptionInterval, (date: Date, amount: number) => Date> = {
  day: addDays,
  week: addWeeks,
  month: addMonths,
  year: addYears,
};

/**
 * When period `index` starts: the calendar date `index × count` intervals after the anchor, in UTC,
 * always counted from the anchor (not from the period before), so a monthly subscription started on
 * the 31st falls on the last day of shorter months and on the 31st again after them (date-fns
 * clamps the day of the month). On a shortened day the calendar's distance from the anchor is
 * scaled: a month is its own number of days × `daySeconds`.
 */
export function periodStart(rule: PeriodRule, index: number): Date {
  const calendar = ADD[rule.interval](new UTCDate(rule.anchor.getTime()), index * rule.count);
  const calendarMs = calendar.getTime() - rule.anchor.getTime();
  const scale = rule.daySeconds / 86_400;
  return new Date(rule.anchor.getTime() + Math.round(calendarMs * scale));
}

export const periodAt = (rule: PeriodRule, index: number): Period => ({
  index,
  start: periodStart(rule, index),
  end: periodStart(rule, index + 1),
});

/** The period that holds `at` (0 before the anchor): a guess from the average length, then corrected. */
export function periodIndexAt(rule: PeriodRule, at: Date): number {
  const elapsed = at.getTime() - rule.anchor.getTime();
  if (elapsed < 0) return 0;
  const approxDays: Record<SubscriptionInterval, number> = {
    day: 1,
    week: 7,
    month: 30.436875,
    year: 365.2425,
  };
  const periodMs = approxDays[rule.interval] * rule.count * DAY_MS * (rule.daySeconds / 86_400);
  let index = Math.max(0, Math.floor(elapsed / periodMs));
  while (index > 0 && periodStart(rule, index) > at) index--;
  while (periodStart(rule, index + 1) <= at) index++;
  return index;
}

/** A number of days on the subscriptions' clock, in milliseconds. */
export const daysMs = (days: number, daySeconds: number) => Math.round(days * daySeconds * 1000);
