import { ensureDashboardBuilt } from '../../dashboard/build';

/**
 * Vitest global setup: builds dashboard/dist once per run when the sources changed since the last
 * build (a hash check, well under a second, when they did not), so tests that load /dashboard see
 * the current app. `npm start` does the same before the service starts.
 */
export default async function setup() {
  await ensureDashboardBuilt({ log: (line) => console.log(line) });
}
