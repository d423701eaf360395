import type { Network, PayoutItemInput, Token } from '../../contract';
import { parseUnits } from '../../contract/decimal';
import type { Deps } from '../deps';
import { ApiError, type ErrorDetail } from '../errors';

/** An item as checked: its address canonical, its token's mint and decimals, its exact base units. */
export type CheckedPayoutItem = {
  network: Network;
  token: Token;
  tokenMint: string;
  decimals: number;
  to: string;
  amountUnits: bigint;
  reference: string | null;
  note: string | null;
};

/** How the problems are named: `<prefix>.N.field`, N the item's place (`positions[i]`, else i). */
export type ItemPaths = {
  prefix: string;
  /** Each item's N when some of the input never reached here (a CSV's rows of the wrong shape). */
  positions?: readonly number[];
  /** Problems found before (those rows'), thrown in the same 400. */
  problems?: readonly ErrorDetail[];
};

/**
 * Checks every item against the chains (an address of that network, the token on there, an amount
 * above zero exact in the token's decimals) and throws one 400 naming each bad field
 * (`<prefix>.N.field`). The same recipient and token twice on one network is refused: one
 * transaction's transfers to an address are read as one sum, so two items there could not be told apart.
 */
export function checkPayoutItems(
  deps: Pick<Deps, 'chains'>,
  items: readonly PayoutItemInput[],
  paths: ItemPaths = { prefix: 'body.items' },
): CheckedPayoutItem[] {
  const problems: ErrorDetail[] = [...(paths.problems ?? [])];
  const checked: CheckedPayoutItem[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const n = paths.positions?.[i] ?? i;
    const prefix = paths.prefix;
    const at = (field: string, message: string) =>
      problems.push({ path: `${prefix}.${n}.${field}`, message });
    const chain = deps.chains.find(item.network);
    if (!chain) return at('network', `${item.network} is not on at this service`);
    const mint = chain.tokenMint(item.token);
    if (mint === null) at('token', chain.tokenUnavailableReason(item.token));
    const to = chain.normalizeAddress(item.to);
    if (to === null) at('to', chain.addressFormat);
    let amountUnits: bigint | null = null;
    if (mint !== null) {
      const decimals = chain.tokenDecimals(item.token);
      try {
        amountUnits = parseUnits(item.amount, decimals);
        if (amountUnits <= 0n) at('amount', 'must be greater than zero');
      } catch {
        at('amount', `has more decimal places than ${item.token} has on ${item.network} (${decimals})`);
      }
    }
    if (to !== null && mint !== null) {
      const key = `${item.network}|${mint}|${to}`;
      const first = seen.get(key);
      if (first !== undefined) at('to', `is item ${first}'s recipient of the same token: make it one item`);
      else seen.set(key, n);
    }
    if (mint === null || to === null || amountUnits === null || amountUnits <= 0n) return;
    checked.push({
      network: item.network,
      token: item.token,
      tokenMint: mint,
      decimals: chain.tokenDecimals(item.token),
      to,
      amountUnits,
      reference: item.reference ?? null,
      note: item.note ?? null,
    });
  });
  if (problems.length > 0) {
    problems.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
    throw ApiError.validation(`${problems.length} problem(s) in the payout's items`, problems);
  }
  return checked;
}
