import type { Deps } from '../deps';
import { leaseScanCursors } from '../db/lease';

/** Who scans a network, and for how long each lease it takes on a scan target holds. */
export type Scan = { network: string; owner: string; leaseSeconds: number };

/** This worker's lease on a scan target was taken over: it stops and writes nothing. */
export class LeaseLost extends Error {}

/** Leases the cursors of these targets for this worker; returns the ones it got. */
export async function leaseCursors(deps: Deps, scan: Scan, keys: string[]) {
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

/** The lease row of one target's cursor, held by this worker. */
export const cursorKey = (scan: Scan, address: string) => ({
  table: 'scan_cursors' as const,
  key: { network: scan.network, address },
  owner: scan.owner,
});
