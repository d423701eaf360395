import { QueryTypes, type Transaction } from 'sequelize';
import type { Deps } from '../deps';

/**
 * The merchant a receiving address belongs to on this instance (server/wallets/create-wallet.ts
 * gives each address one owner), or null when nobody registered it. Only the owner's orders may be
 * credited with transfers to it.
 */
export async function recipientOwner(
  deps: Pick<Deps, 'db'>,
  network: string,
  address: string,
  transaction?: Transaction,
): Promise<string | null> {
  const [row] = await deps.db.sequelize.query<{ merchant_id: string }>(
    'SELECT merchant_id FROM wallet_owners WHERE network = :network AND address = :address',
    { type: QueryTypes.SELECT, replacements: { network, address }, transaction },
  );
  return row?.merchant_id ?? null;
}

/** The owners of several addresses of one network (one statement): address → merchant. */
export async function recipientOwners(
  deps: Pick<Deps, 'db'>,
  network: string,
  addresses: string[],
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const rows = await deps.db.sequelize.query<{ address: string; merchant_id: string }>(
    'SELECT address, merchant_id FROM wallet_owners WHERE network = :network AND address = ANY(ARRAY[:addresses]::text[])',
    { type: QueryTypes.SELECT, replacements: { network, addresses } },
  );
  return new Map(rows.map((row) => [row.address, row.merchant_id]));
}
