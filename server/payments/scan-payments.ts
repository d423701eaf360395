import { randomUUID } from 'node:crypto';
import { fn, col, QueryTypes, UniqueConstraintError } from 'sequelize';
import type {
  ChainAdapter,
  ChainWatch,
  FoundTransfer,
  ObservedTransaction,
  ScanTarget,
} from '../chains/chain-adapter';
import { ChainUnavailableError } from '../chains/chain-errors';
import type { Deps } from '../deps';
import { leaseScanCursors, releaseLease, renewLease } from '../db/lease';
import { payableCutoff, payableNow, watchedSql, watchedWhere } from '../orders/payable';
import {
  creditedTo,
  namesAnOrder,
  orderNamed,
  orderPaidExactly,
  senderTo,
  untaggedCreatedBy,
  type PaymentScope,
} from './credited-to';
import { recipientOwners } from './recipient-owner';
import { isUnattributed, recordUnattributed, TRANSFER_CREDITED_SQL } from './unattributed-payments';
import { creditFound } from './credit-found';
import { settleReportedClaim } from './settle-reported-claim';

/** How far before its oldest watched order a never-scanned (or long idle) target is read back. */
const FIRST_SCAN_LOOKBACK_MS = 5 * 60_000;
/** Transactions settled per target and cycle; a larger backlog continues next cycle, in order. */
const MAX_TRANSACTIONS_PER_TARGET = 5000;

type Watched = { recipient: string; token: string; since: Date; merchantId: string };

/**
 * Receiving (recipient, token) pairs to read: every token of every live wallet (a transfer to a
 * merchant's wallet is never ignored: it pays an order or is kept unattributed), and the
 * recipients of every payment option of orders still watched (until their late window ends, PAID
 * or not: a removed wallet's orders stay watched). Only the
 * address's owner's orders count (server/wallets/create-wallet.ts); the oldest watched order
 * tells how far back a first read goes, and a wallet is read back to when it was added, within the
 * late-payment window.
 */
async function watchedRecipients(deps: Deps, chain: ChainAdapter): Promise<Watched[]> {
  const network = chain.network;
  const { Order, Wallet } = deps.db.models;
  const [orders, wallets] = await Promise.all([
    Order.findAll({
      attributes: ['recipient', 'tokenMint', 'merchantId', [fn('min', col('created_at')), 'since']],
      where: { network, ...watchedWhere(payableNow(deps)) } as never,
      group: ['recipient', 'token_mint', 'merchant_id'],
      raw: true,
    }) as unknown as Promise<
      { recipient: string; tokenMint: string; merchantId: string; since: Date | string }[]
    >,
    Wallet.findAll({
      attributes: ['publicAddress', 'merchantId', 'createdAt'],
      where: { network, deletedAt: null },
      raw: true,
    }),
  ]);
  // The other payment options of payable orders (server/orders/payment-options.ts): usually wallets
  // read anyway, so they add no target; a removed wallet's options stay watched like its orders.
  const options = await deps.db.sequelize.query<{
    recipient: string;
    tokenMint: string;
    merchantId: string;
    since: Date | string;
  }>(
    `SELECT opt.v->>'recipient' AS "recipient", opt.v->>'tokenMint' AS "tokenMint", o.merchant_id AS "merchantId",
            min(o.created_at) AS "since"
       FROM orders o CROSS JOIN LATERAL jsonb_array_elements(o.payment_options) AS opt(v)
      WHERE o.payment_options IS NOT NULL AND ${watchedSql('o')} AND opt.v->>'network' = :network
      GROUP BY 1, 2, 3`,
    { type: QueryTypes.SELECT, replacements: { network, payableCutoff: payableCutoff(payableNow(deps)) } },
  );
  orders.push(...options);
  const owners = await recipientOwners(deps, network, [...new Set(orders.map((o) => o.recipient))]);
  const watched = new Map<string, Watched>();
  const watch = (w: Watched) => {
    const key = `${w.recipient}|${w.token}`;
    const known = watched.get(key);
    if (!known || w.since < known.since) watched.set(key, w);
  };
  for (const o of orders)
    if (owners.get(o.recipient) === o.merchantId)
      watch({
        recipient: o.recipient,
        token: o.tokenMint,
        since: new Date(o.since),
        merchantId: o.merchantId,
      });
  const lateWindowStart = deps.clock().getTime() - deps.config.LATE_PAYMENT_WINDOW_SECONDS * 1000;
  for (const w of wallets)
    for (const t of chain.tokens())
      watch({
        recipient: w.publicAddress,
        token: t.contract,
        since: new Date(Math.max(new Date(w.createdAt).getTime(), lateWindowStart)),
        merchantId: w.merchantId,
      });
  return [...watched.values()];
}

type Scan = { network: string; owner: string; leaseSeconds: number };

/** This worker's lease on a scan target was taken over: it stops and writes nothing. */
class LeaseLost extends Error {}

/**
 * The targets a watched network's cycle reads: those with reported activity, those never read
 * (a first read sets their cursor) and, on slow-read cycles, the SCAN_BACKSTOP_TARGETS read
 * longest ago, so a lost notification is found in turn and no target is starved. With `all` (the
 * watch may have missed something, or it is not per target), every one. Idle, that is the
 * backstop's reads every SCAN_POLL_SECONDS, however many targets are watched.
 */
async function targetsToRead(
  deps: Deps,
  network: string,
  keys: string[],
  watch: ChainWatch,
  slowRead: boolean,
): Promise<{ chosen: string[]; active: string[] }> {
  watch.follow(keys);
  // Notice is down: the targets are polled, in full, at the slow pace only.
  if (!watch.connected && !slowRead) return { chosen: [], active: [] };
  const { keys: active, all } = watch.drain();
  if (all) return { chosen: keys, active: [...active] };
  let backstop = slowRead ? deps.config.SCAN_BACKSTOP_TARGETS : 0;
  const rows = await deps.db.sequelize.query<{ address: string; never: boolean }>(
    `SELECT k.address, c.scanned_at IS NULL AS never
       FROM unnest(ARRAY[:keys]::text[]) AS k(address)
       LEFT JOIN scan_cursors c ON c.network = :network AND c.address = k.address
      ORDER BY c.scanned_at ASC NULLS FIRST, k.address`,
    { type: QueryTypes.SELECT, replacements: { network, keys } },
  );
  const chosen = rows
    .filter((row) => active.has(row.address) || row.never || backstop-- > 0)
    .map((row) => row.address);
  return { chosen, active: [...active] };
}

/** Leases the cursors of these targets for this worker; returns the ones it got. */
async function leaseCursors(deps: Deps, scan: Scan, keys: string[]) {
  await deps.db.sequelize.query(
    `INSERT INTO scan_cursors (network, address) SELECT :network, unnest(ARRAY[:keys]::text[])
     ON CONFLICT DO NOTHING`,
    { replacements: { network: scan.network, keys } },
  );
  return leaseScanCursors(deps, {
    network: scan.network,
    addresses: keys,
    owner: scan.owner,
    seconds: scan.leaseSeconds,
  });
}

const cursorKey = (scan: Scan, address: string) => ({
  table: 'scan_cursors' as const,
  key: { network: scan.network, address },
  owner: scan.owner,
});

/**
 * The order a payment to (recipient, token) belongs to, by the evidence the scanner has: the one
 * its tag names, else the one watched order whose amount (or amount still due) on one of its
 * payment options to this recipient and token it pays exactly; none when that amount is several
 * orders' (it is then kept unattributed). Only orders of the address's owner count.
 */
async function matchOrder(
  deps: Deps,
  scope: PaymentScope,
  tx: { tags: string[]; blockTime: Date | null },
  credited: bigint,
): Promise<string | null> {
  const tagged = await orderNamed(deps.db, scope, tx.tags);
  if (tagged) return tagged.id;
  // Naming an order elsewhere (another wallet's, another shop's), the transaction is that order's.
  if (await namesAnOrder(deps.db, tx.tags)) return null;
  // The one order whose amount or remainder it is; none when several match (amountEvidence).
  const exact = await orderPaidExactly(deps.db, scope, credited, {
    payable: payableNow(deps),
    createdBy: untaggedCreatedBy(tx.blockTime),
  });
  return exact?.id ?? null;
}

/**
 * Settles the reports of this transaction still being checked, as the verifier would, rather than
 * at their next check (the payments behind it on the cursor would wait for that). Returns false
 * while the verifier holds one of them: the cursor then stays before the transaction.
 */
async function settleReports(deps: Deps, chain: ChainAdapter, txId: string, tx: ObservedTransaction) {
  const open = await deps.db.models.PaymentClaim.findAll({
    where: { network: chain.network, txId, status: 'PENDING' },
    attributes: ['id'],
    order: [['id', 'ASC']],
  });
  let settledAll = true;
  for (const claim of open) {
    const verdict = await settleReportedClaim(deps, claim.id, tx, null);
    if (verdict === null || verdict === 'wait') settledAll = false;
  }
  return settledAll;
}

/**
 * Settles one transaction found paying a watched recipient: the reports made of it first, then, if
 * none credited it, the order its tag or exact amount names, else it is kept unattributed. Returns
 * false when it cannot be judged yet (so the cursor must not move past it).
 */
async function processFound(
  deps: Deps,
  chain: ChainAdapter,
  target: ScanTarget,
  found: FoundTransfer,
  owners: Map<string, string>,
): Promise<boolean> {
  const { models, sequelize } = deps.db;
  // Whether this transfer (to this recipient) credited an order; with `any`, whether the
  // transaction credited one at all.
  const credited = async (any = false) => {
    const [row] = await sequelize.query<{ any: boolean; this: boolean }>(
      `SELECT ${TRANSFER_CREDITED_SQL} AS this,
              ${any ? `EXISTS (SELECT 1 FROM payment_claims WHERE network = :network AND tx_id = :txId AND status = 'VERIFIED')` : 'false'} AS any`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          network: chain.network,
          txId: found.txId,
          recipient: found.recipient,
          tokenMint: target.token,
        },
      },
    );
    return row!;
  };
  if ((await credited()).this) return true;
  // Kept unattributed before (a scan re-reads its last blocks) and nobody reported it since: settled.
  const reported = await models.PaymentClaim.count({
    where: { network: chain.network, txId: found.txId, status: 'PENDING' },
  });
  if (
    reported === 0 &&
    (await isUnattributed(deps, chain.network, found.txId, found.recipient, target.token))
  )
    return true;
  const tx = await chain.readTransaction(found.txId);
  if (!(await settleReports(deps, chain, found.txId, tx))) return false;
  const settled = await credited(true);
  if (settled.this) return true;
  // Not final, or gone in a reorganisation the log query has not caught up with: look again later.
  if (tx.state === 'not_found' || tx.state === 'not_final') return false;
  if (tx.state === 'failed') return true;
  const merchantId = owners.get(found.recipient);
  if (!merchantId) return true; // the wallet was removed and its orders are settled since the read
  const scope = { network: chain.network, recipient: found.recipient, tokenMint: target.token, merchantId };
  const amount = creditedTo(tx.transfers, scope.recipient, scope.tokenMint);
  if (amount === 0n) return true; // not a payment to this recipient (an outgoing transfer, say)
  // A transaction pays one order: one credited already (its transfer to another wallet) leaves
  // this transfer no order to pay; it is kept for its merchant to see.
  const orderId = settled.any ? null : await matchOrder(deps, scope, tx, amount);
  let verdict: Awaited<ReturnType<typeof creditFound>> = null;
  if (orderId)
    try {
      verdict = await creditFound(deps, { orderId, network: chain.network, txId: found.txId }, tx);
    } catch (error) {
      // Credited to an order by a report settled at the same moment: it is that order's.
      if (!(error instanceof UniqueConstraintError)) throw error;
      return false;
    }
  // Its report is being checked by the verifier: judged with it, looked at again next cycle.
  if (verdict === 'held') return false;
  if (verdict === 'accept') return true;
  const token = chain.tokens().find((t) => t.contract === target.token);
  if (!token) return true;
  await recordUnattributed(deps, {
    merchantId,
    network: chain.network,
    txId: found.txId,
    recipient: found.recipient,
    token: token.token,
    tokenMint: token.contract,
    decimals: token.decimals,
    sender: senderTo(tx.transfers, scope.recipient, scope.tokenMint),
    amountUnits: amount,
    blockTime: tx.blockTime,
  });
  deps.logger.info(
    { network: chain.network, txId: found.txId, recipient: found.recipient },
    'payment matches no order: kept unattributed',
  );
  return true;
}

/** Reads what is new on one leased target and settles it; returns the cursor to keep. */
async function scanTarget(
  deps: Deps,
  scan: Scan,
  chain: ChainAdapter,
  target: ScanTarget,
  cursor: string | null,
  since: Date,
  limit: number,
  owners: Map<string, string>,
): Promise<{ cursor: string | null; settled: number; stopped: boolean }> {
  const page = await chain.scan(target, cursor, {
    since,
    limit,
    onGap: (message) => deps.logger.error({ network: chain.network, target: target.key }, message),
  });
  let settled = 0;
  let renewedAt = Date.now();
  for (const found of page.found) {
    // A long backlog outlasts a lease: renew it while working, and stop (writing nothing) once
    // another worker has taken the target over.
    if (Date.now() - renewedAt > (scan.leaseSeconds * 1000) / 3) {
      if (!(await renewLease(deps, { ...cursorKey(scan, target.key), seconds: scan.leaseSeconds })))
        throw new LeaseLost();
      renewedAt = Date.now();
    }
    let settledIt: boolean;
    try {
      settledIt = await processFound(deps, chain, target, found, owners);
    } catch (error) {
      // This transaction could not be read: what comes after it on this target waits for the next
      // cycle (the cursor stays just before it); what came before stands, and other targets go on.
      if (!(error instanceof ChainUnavailableError)) throw error;
      deps.logger.warn(
        { network: chain.network, target: target.key, txId: found.txId, err: error.message },
        'transaction read postponed',
      );
      return { cursor: found.resumeBefore, settled, stopped: true };
    }
    if (!settledIt) return { cursor: found.resumeBefore, settled, stopped: true };
    settled++;
  }
  // A full page: a larger backlog continues next cycle.
  return { cursor: page.cursor, settled, stopped: page.found.length >= limit };
}

/**
 * One scan cycle: for each scan target (a group of watched recipients sharing a cursor) read what
 * is new since its cursor and settle it. RPC calls grow with the number of targets and of new
 * transactions, never with the number of open orders. A cursor only moves past what was settled.
 */
export async function scanPayments(
  deps: Deps,
  opts: {
    owner?: string;
    maxPerAddress?: number;
    network?: string;
    /** The network's watch (with `network`): only what it reports, and the backstop, is read. */
    watch?: ChainWatch;
    /**
     * With a watch, whether this cycle also does the slow reads: the backstop (SCAN_BACKSTOP_TARGETS
     * read longest ago) while notice flows, every target while it does not. Without, it reads
     * nothing the watch did not report.
     */
    slowRead?: boolean;
  } = {},
): Promise<number> {
  const owner = opts.owner ?? `scan-${randomUUID()}`;
  // Networks side by side (the job runs one lane per network): one whose RPC hangs, each call
  // waiting out its timeout, never holds up the others' payments.
  const chains = deps.chains.all().filter((c) => opts.network === undefined || c.network === opts.network);
  const found = await Promise.all(chains.map((chain) => scanNetwork(deps, chain, owner, opts)));
  return found.reduce((a, b) => a + b, 0);
}

async function scanNetwork(
  deps: Deps,
  chain: ChainAdapter,
  owner: string,
  opts: { maxPerAddress?: number; network?: string; watch?: ChainWatch; slowRead?: boolean },
): Promise<number> {
  let found = 0;
  // Once per token (again while the chain cannot be reached): configured decimals against the chain's.
  await chain.verifyTokens();
  const scan: Scan = { network: chain.network, owner, leaseSeconds: deps.config.JOB_LEASE_SECONDS };
  const watched = await watchedRecipients(deps, chain);
  const watch = opts.network === chain.network ? opts.watch : undefined;
  if (watched.length === 0) {
    watch?.follow([]);
    return 0;
  }
  const targets = new Map(chain.scanTargets(watched).map((t) => [t.key, t]));
  const owners = new Map(watched.map((w) => [w.recipient, w.merchantId]));
  const sinceOf = new Map(watched.map((w) => [`${w.recipient}|${w.token}`, w.since.getTime()]));
  const keys = [...targets.keys()];
  const toRead = watch
    ? await targetsToRead(deps, chain.network, keys, watch, opts.slowRead ?? false)
    : { chosen: keys, active: [] };
  if (toRead.chosen.length === 0) return 0;
  const leased = await leaseCursors(deps, scan, toRead.chosen);
  // Activity on a target another worker holds: that worker may have read it just before the
  // transaction landed, so it is read again next cycle.
  const got = new Set(leased.map((row) => row.address));
  watch?.remind(toRead.active.filter((key) => !got.has(key)));
  let unreachable = false;
  for (const row of leased) {
    const target = targets.get(row.address)!;
    let oldest = Infinity;
    for (const recipient of target.recipients)
      oldest = Math.min(oldest, sinceOf.get(`${recipient}|${target.token}`) ?? Infinity);
    const since = new Date(oldest - FIRST_SCAN_LOOKBACK_MS);
    // A cursor last moved before anything now watched existed covers nothing that can pay:
    // start again from the oldest watched order instead of reading the idle time in between.
    const fresh = row.cursor !== null && row.scanned_at !== null && new Date(row.scanned_at) >= since;
    let next = fresh ? row.cursor : null;
    let advanced = false;
    // The network did not answer for an earlier target: the rest waits for the next cycle (not
    // for its next notification or backstop turn).
    if (unreachable) watch?.remind([target.key]);
    else
      try {
        const result = await scanTarget(
          deps,
          scan,
          chain,
          target,
          next,
          since,
          opts.maxPerAddress ?? MAX_TRANSACTIONS_PER_TARGET,
          owners,
        );
        next = result.cursor;
        found += result.settled;
        advanced = true;
        // Stopped before a transaction it cannot judge yet (not final, or reported and being
        // checked) or at its page's end: read again next cycle, not at the next notification or
        // backstop turn.
        if (result.stopped) watch?.remind([target.key]);
      } catch (error) {
        if (error instanceof LeaseLost) {
          deps.logger.warn(
            { network: chain.network, target: target.key },
            'scan lease lost to another worker',
          );
          continue; // the new holder owns the cursor now: write nothing
        }
        if (!(error instanceof ChainUnavailableError)) throw error;
        unreachable = true;
        watch?.remind([target.key]);
        deps.logger.warn(
          { network: chain.network, target: target.key, err: error.message },
          'payment scan postponed',
        );
      }
    // Only while this worker still holds the lease: a worker that lost it (it stalled) must not
    // set the cursor over the one the new holder moved.
    const released = await releaseLease(deps, {
      ...cursorKey(scan, row.address),
      set: advanced ? { cursor: next, scanned_at: deps.clock() } : undefined,
    });
    // Lost after its last transaction: what it settled stands (each once), its cursor is not written.
    if (!released && advanced)
      deps.logger.warn({ network: chain.network, target: target.key }, 'scan lease lost to another worker');
  }
  return found;
}
