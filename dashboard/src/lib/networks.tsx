import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { NetworkInfo } from '../../../contract';
import { api, ok } from '../api';

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

const NetworksContext = createContext<Networks>({ on: [], find: () => undefined });

export function NetworksProvider({ children }: { children: ReactNode }) {
  const [on, setOn] = useState<NetworkInfo[]>([]);
  useEffect(() => {
    let live = true;
    // Retried a few times: without it the pickers would stay empty until a reload.
    const load = async (attempt: number): Promise<void> => {
      try {
        const answer = ok(await api.networks.list(), 200);
        if (live) setOn(answer.items);
      } catch {
        if (live && attempt < 5) setTimeout(() => void load(attempt + 1), 1000 * 2 ** attempt);
      }
    };
    void load(0);
    return () => {
      live = false;
    };
  }, []);
  const find = (network: string) => on.find((n) => n.network === network);
  return <NetworksContext.Provider value={{ on, find }}>{children}</NetworksContext.Provider>;
}

export function useNetworks(): Networks {
  return useContext(NetworksContext);
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
