import { formatAmount, parseUnits, wireStep, WIRE_DECIMALS } from '../../../contract/decimal';

/** What "Simulate payment" sends: what is due, half of it, or 10% more than it. */
export type SimulatedKind = 'exact' | 'part' | 'over';

/**
 * The kinds an option offers: not `exact` once nothing is due on it (the route would answer 409
 * "nothing is due"); part and over then pay more, to try an overpayment.
 */
export function simulatedKinds(option: { amountDue: string; decimals: number }): SimulatedKind[] {
  return parseUnits(option.amountDue, option.decimals) > 0n ? ['exact', 'part', 'over'] : ['part', 'over'];
}

/**
 * The amount of a simulated payment on an option, as the sandbox's pay route takes it (at most six
 * places): nothing for `exact` (the route pays what is still due, to the base unit); half of what is
 * due for `part`, 10% more for `over`, of the option's whole amount once nothing is due (to try a
 * payment after the order is paid). Whole wire units, never below one: a route's refusal is the
 * API's to say, not a rounding's.
 */
export function simulatedAmount(
  kind: SimulatedKind,
  option: { amount: string; amountDue: string; decimals: number },
): string | undefined {
  if (kind === 'exact') return undefined;
  const step = wireStep(option.decimals);
  const toWire = (text: string) => (parseUnits(text, option.decimals) + step - 1n) / step;
  const due = toWire(option.amountDue);
  const base = due > 0n ? due : toWire(option.amount);
  const wire = kind === 'part' ? base / 2n : base + (base + 9n) / 10n;
  return formatAmount(wire > 0n ? wire : 1n, WIRE_DECIMALS);
}
