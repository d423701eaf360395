import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { QueryTypes } from 'sequelize';
import type { Order } from '../../contract';
import { randomEvmAddress } from '../../test/support/harness';
import type { Ctx } from '../stack';

/** The networks measured side by side: Solana and the bench's EVM network. */
export type Templates = { solana: Order; evm: Order };

/**
 * `count` more shops, as a service hosting many has: each a merchant of its own with a receiving
 * wallet on each network at a fresh address, and one open order to each, copied from `templates`
 * (token, amount), expiring as a new order would. Inserted in SQL (a thousand logins would take minutes of password
 * hashing); the service watches them as any other, by their orders' recipients.
 */
export async function addShops(ctx: Ctx, templates: Templates, count: number): Promise<void> {
  if (count <= 0) return;
  const merchants = Array.from({ length: count }, () => randomUUID());
  const { sequelize } = ctx.server.deps.db;
  await sequelize.transaction(async (transaction) => {
    await sequelize.query(
      `INSERT INTO merchants (id, email, full_name)
       SELECT s.id, 'shop-' || s.id || '@bench.local', 'Idle shop'
         FROM unnest(ARRAY[:merchants]::uuid[]) AS s(id), merchants m
        WHERE m.id = :template`,
      { transaction, replacements: { merchants, template: ctx.merchantId } },
    );
    const solana = merchants.map(() => Keypair.generate().publicKey.toBase58());
    const evm = merchants.map(() => randomEvmAddress());
    for (const [template, addresses] of [
      [templates.solana, solana],
      [templates.evm, evm],
    ] as const) {
      const wallets = merchants.map(() => randomUUID());
      const shop = `unnest(ARRAY[:merchants]::uuid[], ARRAY[:wallets]::uuid[], ARRAY[:addresses]::text[])
                      AS s(merchant_id, wallet_id, address)`;
      const replacements = {
        merchants,
        wallets,
        addresses,
        template: template.reference,
        ttl: ctx.server.deps.config.ORDER_TTL_SECONDS,
      };
      await sequelize.query(
        `WITH w AS (
           INSERT INTO wallets (id, merchant_id, name, network, public_address)
           SELECT s.wallet_id, s.merchant_id, 'idle shop', o.network, s.address
             FROM ${shop}, orders o WHERE o.reference = :template
           RETURNING network, public_address, merchant_id)
         -- Each address owned by its shop, as registering the wallet makes it.
         INSERT INTO wallet_owners (network, address, merchant_id) SELECT network, public_address, merchant_id FROM w`,
        { transaction, replacements },
      );
      await sequelize.query(
        `INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                             amount_units, status, expires_at, created_at, updated_at)
         SELECT translate(md5(s.wallet_id::text), '0', 'z'), s.merchant_id, s.wallet_id, o.network, o.token,
                o.token_mint, s.address, o.amount_units, 'PENDING', now() + make_interval(secs => :ttl),
                now(), now()
           FROM ${shop}, orders o WHERE o.reference = :template`,
        { transaction, replacements },
      );
    }
  });
}

/** Receiving addresses with an open order, per network. */
export async function watchedWallets(ctx: Ctx): Promise<Record<string, number>> {
  const rows = await ctx.server.deps.db.sequelize.query<{ network: string; n: number }>(
    `SELECT network, count(DISTINCT recipient)::int AS n FROM orders
      WHERE status IN ('PENDING', 'CONFIRMING', 'UNDERPAID') GROUP BY network`,
    { type: QueryTypes.SELECT },
  );
  return Object.fromEntries(rows.map((r) => [r.network, r.n]));
}
