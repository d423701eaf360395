import { QueryTypes, type Transaction } from 'sequelize';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { optionDueUnits, optionsOf } from './payment-options';

/** At most this many wire units (0.001 token) are added to make an amount unique. */
export const MAX_AMOUNT_ADJUSTMENT = 1000n;
/** Free amounts tried (each lost to a concurrent creation) before settling for a non-unique one. */
const MAX_TRIES = 64;

export type AmountTarget = {
  network: string;
  recipient: string;
  tokenMint: string;
  amountUnits: bigint;
  /** Base units per step: one wire unit (10^-6 token), so a raised amount still has at most 6 places. */
  step: bigint;
};
export type ReservedAmount = { amountUnits: bigint; unique: boolean };

/**
 * Payments that carry no tag (plain transfers from the EIP-681 link, Solana wallets that drop the
 * reference) are matched by recipient and exact amount, so payable orders to one recipient never
 * share an amount: the order reserves the smallest free amount >= its price, up to
 * MAX_AMOUNT_ADJUSTMENT steps of 10^-6 token more, as a row of its own (server/db/migrations/0008). Each attempt is one
 * statement that holds nothing afterwards; creation never fails for lack of an amount: beyond the
 * bound the plain amount is used and marked not unique.
 */
export async function reserveAmount(
  deps: Pick<Deps, 'db' | 'clock'>,
  target: AmountTarget,
  holder: { reference: string; heldUntil: Date },
): Promise<ReservedAmount> {
  if (await tryReserve(deps, target, target.amountUnits, holder))
    return { amountUnits: target.amountUnits, unique: true };
  // Taken: try the free amounts above it, smallest first. A concurrent creation may take one
  // between the read and the insert; then the next one is tried.
  const high = target.amountUnits + MAX_AMOUNT_ADJUSTMENT * target.step;
  let tries = 0;
  for (let round = 0; round < 2; round++) {
    for (const amount of await freeAmounts(deps, target, target.amountUnits + target.step, high)) {
      if (tries++ >= MAX_TRIES) return { amountUnits: target.amountUnits, unique: false };
      if (await tryReserve(deps, target, amount, holder)) return { amountUnits: amount, unique: true };
    }
  }
  return { amountUnits: target.amountUnits, unique: false };
}

/** An amount reservation (row `alias`) still held at `now`: no other payable order may take it. */
const stillHeld = (alias: string, now: string) => `${alias}.held_until > ${now}`;

/**
 * The one way amounts are reserved: an INSERT of the reservations `wanted` selects (columns
 * network, recipient, token_mint, amount_units, reference, held_until) that takes each amount only
 * if nobody else holds it or its holder's time is over at `now`; it returns the references that got
 * theirs. Order creation runs it inside its own statement, tryReserve alone. An order holds one
 * amount per payment option; one that took some of them in a statement that did not write it
 * takes them again when it tries once more. Rows are taken in key order, so two statements taking
 * the same keys (orders with several options, amounts due) wait for each other, never deadlock.
 */
export const takeAmountsSql = (wanted: string, now: string) =>
  `INSERT INTO amount_reservations AS held (network, recipient, token_mint, amount_units, reference, held_until)
   SELECT network, recipient, token_mint, amount_units, reference, held_until FROM (${wanted}) AS wanted
    ORDER BY network, recipient, token_mint, amount_units
   ON CONFLICT (network, recipient, token_mint, amount_units) DO UPDATE
     SET reference = EXCLUDED.reference, held_until = EXCLUDED.held_until
     WHERE NOT (${stillHeld('held', now)}) OR held.reference = EXCLUDED.reference
   RETURNING reference`;

const TAKE_ONE = takeAmountsSql(
  `SELECT CAST(:network AS text) AS network, CAST(:recipient AS text) AS recipient,
          CAST(:tokenMint AS text) AS token_mint, CAST(:amount AS numeric) AS amount_units,
          CAST(:reference AS text) AS reference, CAST(:heldUntil AS timestamptz) AS held_until`,
  'CAST(:now AS timestamptz)',
);

/** Takes `amount` if nobody holds it (or its holder's time is over). */
async function tryReserve(
  deps: Pick<Deps, 'db' | 'clock'>,
  target: AmountTarget,
  amount: bigint,
  holder: { reference: string; heldUntil: Date },
): Promise<boolean> {
  const rows = await deps.db.sequelize.query(TAKE_ONE, {
    type: QueryTypes.SELECT,
    replacements: {
      network: target.network,
      recipient: target.recipient,
      tokenMint: target.tokenMint,
      amount: amount.toString(),
      reference: holder.reference,
      heldUntil: holder.heldUntil,
      now: deps.clock(),
    },
  });
  return rows.length > 0;
}

/** The amounts in [low, high] nobody holds now, smallest first (at most MAX_TRIES). One range read. */
async function freeAmounts(
  deps: Pick<Deps, 'db' | 'clock'>,
  target: AmountTarget,
  low: bigint,
  high: bigint,
): Promise<bigint[]> {
  const held = await deps.db.sequelize.query<{ amount_units: string }>(
    `SELECT amount_units FROM amount_reservations AS held
      WHERE network = :network AND recipient = :recipient AND token_mint = :tokenMint
        AND amount_units BETWEEN :low AND :high AND ${stillHeld('held', 'CAST(:now AS timestamptz)')}`,
    {
      type: QueryTypes.SELECT,
      replacements: {
        network: target.network,
        recipient: target.recipient,
        tokenMint: target.tokenMint,
        low: low.toString(),
        high: high.toString(),
        now: deps.clock(),
      },
    },
  );
  const taken = new Set(held.map((row) => BigInt(row.amount_units)));
  const free: bigint[] = [];
  for (let amount = low; amount <= high && free.length < MAX_TRIES; amount += target.step)
    if (!taken.has(amount)) free.push(amount);
  return free;
}

/** Gives an order's amount back (it was paid, or its creation did not go through). */
export async function releaseAmount(
  deps: Pick<Deps, 'db'>,
  reference: string,
  transaction?: Transaction,
): Promise<void> {
  await deps.db.sequelize.query('DELETE FROM amount_reservations WHERE reference = :reference', {
    replacements: { reference },
    transaction,
  });
}

const HOLD_DUE = takeAmountsSql(
  `SELECT network, recipient, token_mint, amount_units, CAST(:reference AS text) AS reference,
          CAST(:heldUntil AS timestamptz) AS held_until
     FROM unnest(ARRAY[:networks]::text[], ARRAY[:recipients]::text[], ARRAY[:tokenMints]::text[],
                 ARRAY[:amounts]::numeric[]) AS t(network, recipient, token_mint, amount_units)`,
  'CAST(:now AS timestamptz)',
);

/**
 * What is still due on a partly paid order is what its payment links ask for (untagged on EVM), and
 * an untagged transfer of it is the order's only while no other order has that amount
 * (server/payments/credited-to.ts, amountEvidence). So it is held like an amount: orders made
 * afterwards avoid it. Run in the transaction that credited a payment to `order` (its row locked),
 * with whether it is now paid: while it is not each unique option's amount due is held (unless
 * another order holds it already: that amount is then nobody's evidence), and what was due before
 * is given back; once PAID, nothing due is held. The options' own amounts stay held as ever.
 */
export async function holdAmountsDue(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  transaction: Transaction,
  order: Order,
  paid: boolean,
): Promise<void> {
  const options = optionsOf(order);
  const held: typeof options = [];
  for (const option of paid ? [] : options) {
    const due = optionDueUnits(order, option);
    if (option.amountUnique && due > 0n && due !== option.amountUnits)
      held.push({ ...option, amountUnits: due });
  }
  const kept = [...options, ...held];
  const columns = (list: typeof kept) => ({
    networks: list.map((o) => o.network),
    recipients: list.map((o) => o.recipient),
    tokenMints: list.map((o) => o.tokenMint),
    amounts: list.map((o) => o.amountUnits.toString()),
  });
  const { sequelize } = deps.db;
  await sequelize.query(
    `DELETE FROM amount_reservations
      WHERE reference = :reference
        AND (network, recipient, token_mint, amount_units) NOT IN (
              SELECT * FROM unnest(ARRAY[:networks]::text[], ARRAY[:recipients]::text[],
                                   ARRAY[:tokenMints]::text[], ARRAY[:amounts]::numeric[]))`,
    { replacements: { reference: order.reference, ...columns(kept) }, transaction },
  );
  if (held.length === 0) return;
  await sequelize.query(HOLD_DUE, {
    type: QueryTypes.SELECT,
    replacements: {
      reference: order.reference,
      heldUntil: new Date(order.expiresAt.getTime() + deps.config.LATE_PAYMENT_WINDOW_SECONDS * 1000),
      now: deps.clock(),
      ...columns(held),
    },
    transaction,
  });
}
