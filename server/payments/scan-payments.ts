import { Op, QueryTypes, UniqueConstraintError } from 'sequelize';
import type { ChainAdapter, ObservedTransaction } from '../chains/chain-adapter';
import type { Order } from '../db/models';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import { OPEN_STATUSES } from '../orders/order-status';
import { settleClaim } from './settle-claim';
import { CLOCK_SKEW_MS, creditedTo } from './credited-to';

const LEASE_SECONDS = 60;
/** How far before its oldest watched order a never-scanned address is read back. */
const FIRST_SCAN_LOOKBACK_MS = 5 * 60_000;
/** Transactions settled per address and cycle; a larger backlog continues next cycle, in order. */
const MAX_SIGNATURES_PER_ADDRESS = 5000;

type Watched = { recipient: string; token_mint: string; since: Date };

/** Receiving (recipient, mint) pairs with an order still able to be paid, incl. the late window. */
async function watchedRecipients(deps: Deps, network: string): Promise<Watched[]> {
  return deps.db.sequelize.query<Watched>(
    `SELECT recipient, token_mint, min(created_at) AS since FROM orders
      WHERE network = :network
        AND (status IN (:open) OR (status = 'EXPIRED' AND expires_at > now() - make_interval(secs => :late)))
      GROUP BY recipient, token_mint`,
    {
      type: QueryTypes.SELECT,
      replacements: { network, open: [...OPEN_STATUSES], late: deps.config.LATE_PAYMENT_WINDOW_SECONDS },
    },
  );
}

/** Leases the cursors of these addresses for this worker; returns the ones it got. */
async function leaseCursors(deps: Deps, network: string, addresses: string[]) {
  const { sequelize } = deps.db;
  await sequelize.query(
    `INSERT INTO scan_cursors (network, address) SELECT :network, unnest(ARRAY[:addresses]::text[])
     ON CONFLICT DO NOTHING`,
    { replacements: { network, addresses } },
  );
  return sequelize.query<{ address: string; cursor: string | null }>(
    `UPDATE scan_cursors SET locked_until = now() + make_interval(secs => :lease)
      WHERE network = :network AND address IN (:addresses) AND (locked_until IS NULL OR locked_until < now())
      RETURNING address, cursor`,
    { type: QueryTypes.SELECT, replacements: { network, addresses, lease: LEASE_SECONDS } },
  );
}

/**
 * The order a payment to (recipient, mint) belongs to: the one whose reference the transaction
 * names, else the one watched order whose amount (or remaining amount) it pays exactly.
 */
async function matchOrder(
  deps: Deps,
  network: string,
  watched: Watched,
  tx: Extract<ObservedTransaction, { state: 'final' | 'failed' }>,
  credited: bigint,
): Promise<Order | null> {
  const { Order } = deps.db.models;
  const scope = { network, recipient: watched.recipient, tokenMint: watched.token_mint };
  const byReference = await Order.findOne({ where: { ...scope, reference: { [Op.in]: tx.accountKeys } } });
  if (byReference) return byReference;
  const lateCutoff = new Date(deps.clock().getTime() - deps.config.LATE_PAYMENT_WINDOW_SECONDS * 1000);
  const candidates = await Order.findAll({
    where: {
      ...scope,
      [Op.or]: [
        { status: { [Op.in]: [...OPEN_STATUSES] } },
        { status: 'EXPIRED', expiresAt: { [Op.gt]: lateCutoff } },
      ],
      ...(tx.blockTime ? { createdAt: { [Op.lte]: new Date(tx.blockTime.getTime() + CLOCK_SKEW_MS) } } : {}),
    },
    order: [['id', 'ASC']],
  });
  return (
    candidates.find((o) => o.amountUnits === credited) ??
    candidates.find((o) => o.amountUnits - o.amountReceivedUnits === credited) ??
    null
  );
}

/**
 * Settles one transaction found on a watched address. Returns false when it cannot be judged yet
 * (so the cursor must not move past it).
 */
async function processFound(
  deps: Deps,
  chain: ChainAdapter,
  watched: Watched,
  txId: string,
): Promise<boolean> {
  const { models, sequelize } = deps.db;
  const known = await models.PaymentClaim.findOne({
    where: { network: chain.network, txId, status: { [Op.ne]: 'REJECTED' } },
  });
  // Reported already: the verifier settles it. While that claim is open the cursor must stay before
  // this transaction: a claim made for the wrong order is rejected, and then the payment is the
  // scanner's to match to the order it does pay.
  if (known) return known.status !== 'PENDING';
  const tx = await chain.readTransaction(txId);
  if (tx.state === 'not_found' || tx.state === 'not_final') return false;
  if (tx.state === 'failed') return true;
  const credited = creditedTo(tx.credits, watched.recipient, watched.token_mint);
  if (credited === 0n) return true; // not a payment to this recipient (an outgoing transfer, say)
  const order = await matchOrder(deps, chain.network, watched, tx, credited);
  if (!order) {
    deps.logger.warn(
      { txId, recipient: watched.recipient, amount: credited.toString() },
      'payment matches no order',
    );
    return true;
  }
  try {
    await sequelize.transaction(async (transaction) => {
      const locked = await models.Order.findByPk(order.id, { transaction, lock: transaction.LOCK.UPDATE });
      if (!locked) return;
      const now = deps.clock();
      const claim = await models.PaymentClaim.create(
        {
          orderId: locked.id,
          network: chain.network,
          txId,
          source: 'scanner',
          createdAt: now,
          updatedAt: now,
        },
        { transaction },
      );
      await settleClaim(deps, transaction, locked, claim, tx);
    });
  } catch (error) {
    // Reported through submit-tx at the same moment: that claim will be settled by the verifier.
    if (!(error instanceof UniqueConstraintError)) throw error;
  }
  return true;
}

/**
 * One scan cycle: for each receiving address with watched orders, read what is new since its cursor
 * and settle it. RPC calls grow with the number of receiving addresses and new transactions, never
 * with the number of open orders.
 */
export async function scanPayments(deps: Deps, opts: { maxPerAddress?: number } = {}): Promise<number> {
  let found = 0;
  for (const chain of deps.chains.all().filter((c) => c.verifiesPayments)) {
    const watched = await watchedRecipients(deps, chain.network);
    if (watched.length === 0) continue;
    const byAddress = new Map(watched.map((w) => [chain.watchAddress(w.recipient, w.token_mint), w]));
    const leased = await leaseCursors(deps, chain.network, [...byAddress.keys()]);
    for (const { address, cursor } of leased) {
      const w = byAddress.get(address)!;
      let next = cursor;
      try {
        const page = await chain.listTransactions(address, cursor, {
          since: new Date(new Date(w.since).getTime() - FIRST_SCAN_LOOKBACK_MS),
          limit: opts.maxPerAddress ?? MAX_SIGNATURES_PER_ADDRESS,
          onGap: (message) => deps.logger.error({ address }, message),
        });
        let complete = true;
        for (const txId of page.txIds) {
          if (!(await processFound(deps, chain, w, txId))) {
            complete = false;
            break;
          }
          next = txId;
          found++;
        }
        if (complete) next = page.cursor;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        deps.logger.warn({ address, err: error.message }, 'payment scan postponed');
      } finally {
        await deps.db.sequelize.query(
          `UPDATE scan_cursors SET cursor = :next, locked_until = NULL, scanned_at = now()
            WHERE network = :network AND address = :address`,
          { replacements: { next, network: chain.network, address } },
        );
      }
    }
  }
  return found;
}
