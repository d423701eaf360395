import { QueryTypes, type Transaction } from 'sequelize';
import type { UnattributedPayment } from '../../contract';
import type { Deps } from '../deps';
import { formatAmount } from '../../contract/decimal';
import { decodeCursor, encodeCursor } from '../orders/order-cursor';
import { claimOptionSql } from '../orders/payment-options';

/** A final transfer to a merchant's wallet that credited no order, as the scanner found it. */
export type FoundUnattributed = {
  merchantId: string;
  network: string;
  txId: string;
  recipient: string;
  token: string;
  tokenMint: string;
  decimals: number;
  sender: string | null;
  amountUnits: bigint;
  blockTime: Date | null;
};

/**
 * Whether this transfer (a transaction's payment to a recipient, of a token) credited an order: a
 * verified claim of the transaction on that order's option to this recipient and token. A
 * transaction pays at most one order, but it may hold several transfers (a batch payout to two
 * shops' wallets): the others credited nothing and are each kept, for their own merchant to see.
 * SQL over the replacements :network, :txId, :recipient and :tokenMint.
 */
export const TRANSFER_CREDITED_SQL = `EXISTS (
  SELECT 1 FROM payment_claims c JOIN orders o ON o.id = c.order_id
   WHERE c.network = :network AND c.tx_id = :txId AND c.status = 'VERIFIED'
     AND ${claimOptionSql('c', 'o', 'recipient')} = :recipient
     AND ${claimOptionSql('c', 'o', 'token_mint')} = :tokenMint)`;

/**
 * Keeps a transfer nobody's evidence tied to an order (no tag, no open order's exact amount, no
 * proven report), so no money that arrives is ignored: the merchant sees it and may attribute it.
 * Found again (a scan re-reads its last blocks), it is kept once.
 */
export async function recordUnattributed(
  deps: Pick<Deps, 'db' | 'clock'>,
  found: FoundUnattributed,
): Promise<void> {
  await deps.db.sequelize.query(
    `INSERT INTO unattributed_payments
       (merchant_id, network, tx_id, recipient, token, token_mint, token_decimals, sender, amount_units, block_time, created_at)
     SELECT :merchantId, :network, :txId, :recipient, :token, :tokenMint, :decimals, :sender, :amountUnits, :blockTime, :now
      WHERE NOT ${TRANSFER_CREDITED_SQL}
     ON CONFLICT (network, tx_id, recipient, token_mint) DO NOTHING`,
    {
      replacements: {
        merchantId: found.merchantId,
        network: found.network,
        txId: found.txId,
        recipient: found.recipient,
        token: found.token,
        tokenMint: found.tokenMint,
        decimals: found.decimals,
        sender: found.sender,
        amountUnits: found.amountUnits.toString(),
        blockTime: found.blockTime,
        now: deps.clock(),
      },
    },
  );
}

/** Whether this transfer (a transaction to a recipient, of a token) is kept unattributed already. */
export async function isUnattributed(
  deps: Pick<Deps, 'db'>,
  network: string,
  txId: string,
  recipient: string,
  tokenMint: string,
): Promise<boolean> {
  const rows = await deps.db.sequelize.query(
    `SELECT 1 FROM unattributed_payments
      WHERE network = :network AND tx_id = :txId AND recipient = :recipient AND token_mint = :tokenMint`,
    { type: QueryTypes.SELECT, replacements: { network, txId, recipient, tokenMint } },
  );
  return rows.length > 0;
}

/**
 * A transfer credited to an order leaves the unattributed list (kept, with the order it went to):
 * that transfer only, to the option's recipient and token; the transaction's other transfers (to
 * another shop's wallet, say) stay on their merchants' lists.
 */
export async function markAttributed(
  deps: Pick<Deps, 'db' | 'clock'>,
  transaction: Transaction,
  claim: { network: string; txId: string; orderId: string; recipient: string; tokenMint: string },
): Promise<void> {
  await deps.db.sequelize.query(
    `UPDATE unattributed_payments SET attributed_order_id = :orderId, attributed_at = :now
      WHERE network = :network AND tx_id = :txId AND recipient = :recipient AND token_mint = :tokenMint
        AND attributed_at IS NULL`,
    { replacements: { ...claim, now: deps.clock() }, transaction },
  );
}

type Row = {
  id: string;
  network: string;
  tx_id: string;
  recipient: string;
  token: string;
  token_decimals: number;
  sender: string | null;
  amount_units: string;
  block_time: Date | null;
  created_at: Date;
};

/** A merchant's unattributed transfers, newest first, by id keyset (the same cost at any depth). */
export async function listUnattributed(
  deps: Pick<Deps, 'db'>,
  merchantId: string,
  query: { per_page?: number; cursor?: string },
): Promise<{ items: UnattributedPayment[]; per_page: number; nextCursor: string | null }> {
  const perPage = query.per_page ?? 20;
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const rows = await deps.db.sequelize.query<Row>(
    `SELECT id, network, tx_id, recipient, token, token_decimals, sender, amount_units, block_time, created_at
       FROM unattributed_payments
      WHERE merchant_id = :merchantId AND attributed_at IS NULL ${after ? 'AND id < :after' : ''}
      ORDER BY id DESC
      LIMIT :limit`,
    { type: QueryTypes.SELECT, replacements: { merchantId, after, limit: perPage + 1 } },
  );
  const page = rows.slice(0, perPage);
  return {
    items: page.map((row) => ({
      txId: row.tx_id,
      network: row.network as UnattributedPayment['network'],
      token: row.token as UnattributedPayment['token'],
      to: row.recipient,
      from: row.sender,
      amount: formatAmount(BigInt(row.amount_units), row.token_decimals),
      blockTime: row.block_time ? new Date(row.block_time).toISOString() : null,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    per_page: perPage,
    nextCursor: rows.length > perPage ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}
