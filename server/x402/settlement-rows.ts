import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/**
 * x402_settlements (migration 0033): one row per authorization presented for settlement, unique by
 * its key, inserted before anything is sent. Status: `sending` (claimed, nothing broadcast yet),
 * `sent` (signed, recorded, then broadcast; receipt awaited), `settled` (included), `pending` (no
 * receipt in time: the verifier follows its order up, the follow-up job its receipt), `failed`
 * (reverted on chain: the nonce is unused, the authorization may be presented again). Refused
 * before sending (the node's outright refusal too), the row is deleted; so is a claim left idle
 * whose authorization nothing on chain used (expireClaims, followUpSettlements).
 */
export type SettlementRow = {
  id: string;
  status: 'sending' | 'sent' | 'settled' | 'pending' | 'failed';
  transaction: string | null;
  payer: string | null;
  network: string;
  order_id: string | null;
};

export type NewSettlement = {
  key: string;
  merchantId: string;
  network: string;
  asset: string;
  payTo: string;
  payer: string;
  amountUnits: bigint;
  /** What writing its order takes, kept so the order is written even if this process dies (0035). */
  orderReference: string;
  walletId: string;
  resource: string | null;
  apiKeyId: string | null;
  memberId: string;
  /** When the payment stops being valid (EVM: the authorization's validBefore; Solana: null). */
  validBefore: Date | null;
};

/** A sent settlement as its order is written from it (recordSettlement, under its lease). */
export type SettlementToRecord = {
  id: string;
  merchant_id: string;
  network: string;
  asset: string;
  pay_to: string;
  payer: string;
  amount_units: string;
  status: SettlementRow['status'];
  transaction: string | null;
  order_id: string | null;
  order_reference: string | null;
  wallet_id: string | null;
  resource: string | null;
  api_key_id: string | null;
  member_id: string | null;
};

/**
 * Takes the authorization for this settlement: a new row, or one whose earlier attempt failed on
 * chain (the order a pending attempt had is no longer its). Null when another settlement holds it
 * (under way, or done): nothing may be sent then.
 */
export async function claimSettlement(deps: Pick<Deps, 'db'>, s: NewSettlement): Promise<string | null> {
  const rows = await deps.db.sequelize.query<{ id: string }>(
    `INSERT INTO x402_settlements AS s
       (settlement_key, merchant_id, network, asset, pay_to, payer, amount_units, status,
        order_reference, wallet_id, resource, api_key_id, member_id, valid_before)
     VALUES (:key, :merchantId, :network, :asset, :payTo, :payer, :amount, 'sending',
             :orderReference, :walletId, :resource, :apiKeyId, :memberId, :validBefore)
     ON CONFLICT (settlement_key) DO UPDATE
       SET status = 'sending', transaction = NULL, error_reason = NULL, updated_at = now(),
           order_id = NULL, recording_until = NULL,
           merchant_id = EXCLUDED.merchant_id, pay_to = EXCLUDED.pay_to, amount_units = EXCLUDED.amount_units,
           order_reference = EXCLUDED.order_reference, wallet_id = EXCLUDED.wallet_id,
           resource = EXCLUDED.resource, api_key_id = EXCLUDED.api_key_id, member_id = EXCLUDED.member_id,
           valid_before = EXCLUDED.valid_before
       WHERE s.status = 'failed'
     RETURNING id`,
    {
      type: QueryTypes.SELECT,
      replacements: { ...s, amount: s.amountUnits.toString() },
    },
  );
  return rows[0]?.id ?? null;
}

export async function findSettlement(deps: Pick<Deps, 'db'>, key: string): Promise<SettlementRow | null> {
  const [row] = await deps.db.sequelize.query<SettlementRow>(
    `SELECT id, status, transaction, payer, network, order_id FROM x402_settlements WHERE settlement_key = :key`,
    { type: QueryTypes.SELECT, replacements: { key } },
  );
  return row ?? null;
}

/**
 * Marks a claimed settlement's transaction signed, before it is broadcast. False when the claim is
 * no longer this settlement's (it sat idle so long that expireClaims gave the authorization back,
 * and another settlement may hold it now): nothing may be sent then.
 */
export async function markSigned(deps: Pick<Deps, 'db'>, id: string, hash: string): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `UPDATE x402_settlements SET status = 'sent', transaction = :hash, error_reason = NULL, updated_at = now()
      WHERE id = :id AND status = 'sending'
      RETURNING id`,
    { type: QueryTypes.SELECT, replacements: { id, hash } },
  );
  return rows.length > 0;
}

/** Moves a claimed settlement on (the transaction once signed, the order once recorded). */
export async function updateSettlement(
  deps: Pick<Deps, 'db'>,
  id: string,
  set: { status: SettlementRow['status']; transaction?: string; errorReason?: string; orderId?: string },
): Promise<void> {
  await deps.db.sequelize.query(
    `UPDATE x402_settlements
        SET status = :status, updated_at = now(),
            transaction = coalesce(:transaction, transaction),
            error_reason = :errorReason,
            order_id = coalesce(CAST(:orderId AS bigint), order_id)
      WHERE id = :id`,
    {
      replacements: {
        id,
        status: set.status,
        transaction: set.transaction ?? null,
        errorReason: set.errorReason ?? null,
        orderId: set.orderId ?? null,
      },
    },
  );
}

/**
 * Gives the authorization back: refused before anything was sent, it is still the payer's to use.
 * Its row may be `sent` already: the transaction is signed (and recorded) before the node is asked,
 * and the node may refuse it outright.
 */
export async function releaseSettlement(deps: Pick<Deps, 'db'>, id: string): Promise<void> {
  await deps.db.sequelize.query(
    `DELETE FROM x402_settlements WHERE id = :id AND status IN ('sending', 'sent')`,
    { replacements: { id } },
  );
}

/** How long one writer holds a settlement's order to itself: far longer than writing it takes. */
const RECORDING_LEASE_SECONDS = 60;

/**
 * Takes the writing of a sent settlement's order for a while (its lease): null when it has no
 * order to write, or another writer (the settle itself, the follow-up on any instance) holds it.
 * A writer that dies lets its lease run out; the next finds the order it may have written by its
 * reference.
 */
export async function leaseSettlement(
  deps: Pick<Deps, 'db'>,
  id: string,
): Promise<SettlementToRecord | null> {
  const [row] = await deps.db.sequelize.query<SettlementToRecord>(
    `UPDATE x402_settlements SET recording_until = now() + make_interval(secs => :lease)
      WHERE id = :id AND order_id IS NULL AND transaction IS NOT NULL AND order_reference IS NOT NULL
        AND (recording_until IS NULL OR recording_until < now())
      RETURNING id, merchant_id, network, asset, pay_to, payer, amount_units::text AS amount_units, status,
                transaction, order_id, order_reference, wallet_id, resource, api_key_id, member_id`,
    { type: QueryTypes.SELECT, replacements: { id, lease: RECORDING_LEASE_SECONDS } },
  );
  return row ?? null;
}

/** Ends a lease: the order written (linked), or not (the next writer may try). */
export async function endLease(
  deps: Pick<Deps, 'db'>,
  id: string,
  written?: { orderId: string; status: SettlementRow['status'] },
): Promise<void> {
  await deps.db.sequelize.query(
    `UPDATE x402_settlements
        SET recording_until = NULL,
            order_id = coalesce(CAST(:orderId AS bigint), order_id),
            status = coalesce(:status, status),
            updated_at = now()
      WHERE id = :id`,
    { replacements: { id, orderId: written?.orderId ?? null, status: written?.status ?? null } },
  );
}

export type UnrecordedSettlement = {
  id: string;
  settlement_key: string;
  network: string;
  transaction: string;
  valid_before: Date | null;
  merchant_id: string;
  api_key_id: string | null;
  member_id: string | null;
};

const idle = `updated_at < now() - make_interval(secs => :idleSeconds)`;

/** The oldest `limit` settlements matching `where` and untouched for `idleMs`, with `columns`. */
function idleSettlements<T extends object>(
  deps: Pick<Deps, 'db'>,
  query: { columns: string; where: string },
  idleMs: number,
  limit: number,
): Promise<T[]> {
  return deps.db.sequelize.query<T>(
    `SELECT ${query.columns} FROM x402_settlements
      WHERE ${query.where} AND ${idle}
      ORDER BY updated_at LIMIT :limit`,
    { type: QueryTypes.SELECT, replacements: { idleSeconds: idleMs / 1000, limit } },
  );
}

/**
 * Sent settlements without their order, untouched for `idleMs` (a settle still under way is left
 * to finish): what a process that died between the broadcast and the order leaves behind.
 */
export function unrecordedSettlements(
  deps: Pick<Deps, 'db'>,
  idleMs: number,
  limit: number,
): Promise<UnrecordedSettlement[]> {
  return idleSettlements(
    deps,
    {
      columns: 'id, settlement_key, network, transaction, valid_before, merchant_id, api_key_id, member_id',
      where: `order_id IS NULL AND status IN ('sent', 'settled', 'pending') AND transaction IS NOT NULL
        AND (recording_until IS NULL OR recording_until < now())`,
    },
    idleMs,
    limit,
  );
}

export type IdleClaim = { id: string; settlement_key: string; network: string };

/**
 * Claims idle for `idleMs` with nothing signed for them: what a process that died after claiming
 * an authorization, before signing its transaction, leaves behind (expireClaims).
 */
export function idleClaims(deps: Pick<Deps, 'db'>, idleMs: number, limit: number): Promise<IdleClaim[]> {
  return idleSettlements(
    deps,
    { columns: 'id, settlement_key, network', where: `status = 'sending'` },
    idleMs,
    limit,
  );
}

/**
 * Gives back the authorization of a claim idle for `idleMs` whose transaction, if signed, never
 * left (nothing on chain used it). A settlement still under way that touches its row first keeps
 * it; one that comes later finds it gone and sends nothing (markSigned). True when released.
 */
export async function releaseIdleClaim(deps: Pick<Deps, 'db'>, id: string, idleMs: number): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `DELETE FROM x402_settlements
      WHERE id = :id AND status IN ('sending', 'sent') AND order_id IS NULL AND ${idle}
      RETURNING id`,
    { type: QueryTypes.SELECT, replacements: { id, idleSeconds: idleMs / 1000 } },
  );
  return rows.length > 0;
}

/**
 * An idle claim's authorization was used on chain by `transaction` (not one signed here): the row
 * takes it as sent, and is followed up as one (its order written once its receipt is read). Left
 * idle, so the follow-up's next look finds it.
 */
export async function adoptTransaction(
  deps: Pick<Deps, 'db'>,
  id: string,
  transaction: string,
  idleMs: number,
): Promise<void> {
  await deps.db.sequelize.query(
    `UPDATE x402_settlements SET status = 'sent', transaction = :transaction
      WHERE id = :id AND status = 'sending' AND ${idle}`,
    { replacements: { id, transaction, idleSeconds: idleMs / 1000 } },
  );
}

export type PendingSettlement = {
  id: string;
  settlement_key: string;
  network: string;
  transaction: string;
  valid_before: Date | null;
};

/**
 * Settlements answered `settlement_pending` (no receipt in time) whose order is written: the
 * follow-up reads their receipt again until there is one.
 */
export async function pendingSettlements(
  deps: Pick<Deps, 'db'>,
  limit: number,
): Promise<PendingSettlement[]> {
  return deps.db.sequelize.query(
    `SELECT id, settlement_key, network, transaction, valid_before FROM x402_settlements
      WHERE status = 'pending' AND order_id IS NOT NULL AND transaction IS NOT NULL
      ORDER BY updated_at LIMIT :limit`,
    { type: QueryTypes.SELECT, replacements: { limit } },
  );
}
