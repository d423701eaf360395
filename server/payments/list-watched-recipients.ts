import { fn, col, QueryTypes } from 'sequelize';
import type { ChainAdapter } from '../chains/chain-adapter';
import type { Deps } from '../deps';
import { payableCutoff, payableNow, watchedSql, watchedWhere } from '../orders/payable';
import { recipientOwners } from './recipient-owner';

export type Watched = { recipient: string; token: string; since: Date; merchantId: string };

/**
 * Receiving (recipient, token) pairs to read: every token of every live wallet (a transfer to a
 * merchant's wallet is never ignored: it pays an order or is kept unattributed), and the
 * recipients of every payment option of orders still watched (until their late window ends, PAID
 * or not: a removed wallet's orders stay watched). Only the
 * address's owner's orders count (server/wallets/create-wallet.ts); the oldest watched order
 * tells how far back a first read goes, and a wallet is read back to when it was added, within the
 * late-payment window.
 */
export async function listWatchedRecipients(deps: Deps, chain: ChainAdapter): Promise<Watched[]> {
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
