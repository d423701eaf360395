import { useQuery } from '@tanstack/react-query';
import type { NetworkInfo } from '../../../contract';
import { networksQuery } from './queries';

/**
 * The networks the service takes payments on, from GET /networks (read once per page load): the
 * network pickers, the tokens of each network and the explorer links follow the service's own
 * configuration, never a list kept here.
 */
type Networks = {
  /** The networks that are on, in the service's order; empty until the answer comes. */
  on: NetworkInfo[];
  find(network: string): NetworkInfo | undefined;
};

const NONE: NetworkInfo[] = [];

export function useNetworks(): Networks {
  const on = useQuery(networksQuery).data?.items ?? NONE;
  return { on, find: (network: string) => on.find((n) => n.network === network) };
}

/**
 * Whether this service is a sandbox (GET /networks says so: public, so known before sign-in too):
 * false until the answer comes, so a real instance never flashes the sandbox's banner or controls.
 */
export function useSandbox(): boolean {
  return useQuery(networksQuery).data?.sandbox ?? false;
}

/** Where a transaction (or an address) can be looked at, from the service's explorer for the network. */
export function explorerUrl(
  networks: Networks,
  network: string,
  what: { tx: string } | { address: string },
): { url: string; name: string } | null {
  const explorer = networks.find(network)?.explorer;
  if (!explorer) return null;
  const url =
    'tx' in what
      ? explorer.txUrl.replace('{tx}', encodeURIComponent(what.tx))
      : explorer.txUrl.replace('/tx/{tx}', `/address/${encodeURIComponent(what.address)}`);
  return url.includes('{tx}') ? null : { url, name: explorer.name };
}
