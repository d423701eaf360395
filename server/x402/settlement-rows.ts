import { QueryTypes } from 'sequelize';
import type { Deps } from '../deps';

/**
 * x402_settlements (migration 0033): one row per authorization presented for settlement, unique by
 * its key, inserted before anything is sent. Status: `sending` (claimed, nothing broadcast yet),
 * `sent` (signed and broadcast, receipt awaited), `settled` (included), `pending` (no receipt in
 * time: the verifier follows its order up), `failed` (reverted on chain: the nonce is unused, the
 * authorization may be presented again). Refused before sending, the row is deleted.
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
};

/**
 * Takes the authorization for this settlement: a new row, or one whose earlier attempt failed on
 * chain. Null when another settlement holds it (under way, or done): nothing may be sent then.
 */
export async function claimSettlement(deps: Pick<Deps, 'db'>, s: NewSettlement): Promise<string | null> {
  const rows = await deps.db.sequelize.query<{ id: string }>(
    `INSERT INTO x402_settlements AS s
       (settlement_key, merchant_id, network, asset, pay_to, payer, amount_units, status)
     VALUES (:key, :merchantId, :network, :asset, :payTo, :payer, :amount, 'sending')
     ON CONFLICT (settlement_key) DO UPDATE
       SET status = 'sending', transaction = NULL, error_reason = NULL, updated_at = now(),
           merchant_id = EXCLUDED.merchant_id, pay_to = EXCLUDED.pay_to, amount_units = EXCLUDED.amount_units
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

/** Gives the authorization back: refused before anything was sent, it is still the payer's to use. */
export async function releaseSettlement(deps: Pick<Deps, 'db'>, id: string): Promise<void> {
  await deps.db.sequelize.query(`DELETE FROM x402_settlements WHERE id = :id AND status = 'sending'`, {
    replacements: { id },
  });
}
