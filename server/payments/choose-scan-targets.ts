import { QueryTypes } from 'sequelize';
import type { ChainWatch } from '../chains/chain-adapter';
import type { Deps } from '../deps';

/**
 * The targets a watched network's cycle reads: those with reported activity, those never read
 * (a first read sets their cursor) and, on slow-read cycles, the SCAN_BACKSTOP_TARGETS read
 * longest ago, so a lost notification is found in turn and no target is starved. With `all` (the
 * watch may have missed something, or it is not per target), every one. Idle, that is the
 * backstop's reads every SCAN_POLL_SECONDS, however many targets are watched.
 */
export async function chooseScanTargets(
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
