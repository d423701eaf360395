import { seconds } from '../lib/progress';

export type Line = { label: string; value: string; ok?: boolean };
export type Section = { section: string; rows: Line[] };

/** The violations found so far; `check` makes a row that is one when `ok` is false. */
export function createFindings() {
  const violations: string[] = [];
  const check = (label: string, value: string, ok: boolean): Line => {
    if (!ok) violations.push(`${label}: ${value}`);
    return { label, value, ok };
  };
  /** A check that `n` of `of` are as they should be: all of them. */
  const fraction = (label: string, n: number, of: number) => check(label, `${n}/${of}`, n === of);
  return { violations, check, fraction };
}

export type Findings = ReturnType<typeof createFindings>;

/** A duration: ms below a second, else seconds. */
export const ms = (n: number) => (n >= 1000 ? seconds(n) : `${Math.round(n)} ms`);
