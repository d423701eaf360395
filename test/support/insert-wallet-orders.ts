import type { Sequelize } from 'sequelize';
import { newReference } from '../../server/orders/new-reference';

/**
 * Open orders copied from the order `template`, one per recipient, each to a wallet of its own that
 * the template's merchant owns (as registering the wallet would make it): many watched wallets at
 * once without paying for as many API calls. `distinctAmounts` adds i base units to the i-th order,
 * so no two share an amount. The new orders' references, in the recipients' order.
 */
export async function insertWalletOrders(
  sequelize: Sequelize,
  template: string,
  recipients: readonly string[],
  { distinctAmounts = false } = {},
): Promise<string[]> {
  const references = recipients.map(() => newReference());
  if (recipients.length === 0) return references;
  await sequelize.query(
    `WITH made AS (
       INSERT INTO orders (reference, merchant_id, wallet_id, network, token, token_mint, recipient,
                           amount_units, status, expires_at, created_at, updated_at)
       SELECT r.reference, o.merchant_id, o.wallet_id, o.network, o.token, o.token_mint, r.recipient,
              o.amount_units + CASE WHEN :distinctAmounts THEN r.i ELSE 0 END, 'PENDING', o.expires_at, now(), now()
         FROM orders o,
              unnest(ARRAY[:recipients]::text[], ARRAY[:references]::text[]) WITH ORDINALITY AS r(recipient, reference, i)
        WHERE o.reference = :template
       RETURNING network, recipient, merchant_id)
     INSERT INTO wallet_owners (network, address, merchant_id) SELECT network, recipient, merchant_id FROM made`,
    { replacements: { recipients: [...recipients], references, template, distinctAmounts } },
  );
  return references;
}
