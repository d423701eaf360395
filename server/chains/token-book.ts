import type { Network, Token } from '../../contract';
import type { ChainAdapter } from './chain-adapter';
import { ChainUnavailableError } from './chain-errors';

/** A token as configured on one network. */
export type ConfiguredToken = { token: Token; contract: string; decimals: number };

/**
 * The tokens of one network: what is configured, and what the chain itself says of their decimals.
 * A token whose contract reports other decimals than configured (or is no token at all) is refused
 * until the configuration is fixed: amounts in the wrong base unit would be off by powers of ten.
 * Until the chain has answered, the configured decimals stand (a link needs no RPC).
 */
export type TokenBook = {
  /** The mint or contract of a token that is on and not refused; null otherwise. */
  contract(token: Token): string | null;
  /** The configured decimals (every amount of the token is in these base units). */
  decimals(token: Token): number;
  /** Why `contract(token)` is null, in words for the merchant. */
  unavailableReason(token: Token): string;
  /** The tokens that are on and not refused. */
  listed(): ConfiguredToken[];
  /**
   * Reads each unchecked token's decimals from the chain, once. An RPC failure leaves the token
   * unchecked (tried again next time); a mismatch refuses it and is reported through `onRefused`.
   */
  verify(): Promise<void>;
};

export function createTokenBook(opts: {
  network: Network;
  tokens: ConfiguredToken[];
  /** Why a token that is not configured is off (which variable turns it on). */
  offReason: (token: Token) => string;
  /** The decimals the chain reports for a mint or contract; throws ChainUnavailableError when unreachable. */
  readDecimals: (contract: string) => Promise<number>;
  /** Told once per refused token (the registry logs it as an error). */
  onRefused?: (message: string) => void;
}): TokenBook {
  const configured = new Map(opts.tokens.map((t) => [t.token, t]));
  const checked = new Set<Token>();
  const refused = new Map<Token, string>();
  let running: Promise<void> | null = null;

  async function check(t: ConfiguredToken): Promise<void> {
    let onChain: number;
    try {
      onChain = await opts.readDecimals(t.contract);
    } catch (error) {
      if (error instanceof ChainUnavailableError) return;
      // Not unreachable: the address answered, but not as a token (no contract there, no decimals()).
      onChain = Number.NaN;
    }
    checked.add(t.token);
    if (onChain === t.decimals) return;
    const why = Number.isNaN(onChain)
      ? `${t.contract} does not answer decimals() as a token contract`
      : `its contract ${t.contract} reports ${onChain} decimals, the configuration says ${t.decimals}`;
    const message = `${t.token} on ${opts.network} is refused until its configuration is fixed: ${why}`;
    refused.set(t.token, message);
    opts.onRefused?.(message);
  }

  return {
    contract: (token) => (refused.has(token) ? null : (configured.get(token)?.contract ?? null)),
    decimals: (token) => configured.get(token)?.decimals ?? 6,
    unavailableReason: (token) => refused.get(token) ?? opts.offReason(token),
    listed: () => [...configured.values()].filter((t) => !refused.has(t.token)),
    verify() {
      const unchecked = [...configured.values()].filter((t) => !checked.has(t.token));
      if (unchecked.length === 0) return Promise.resolve();
      running ??= Promise.all(unchecked.map(check))
        .then(() => undefined)
        .finally(() => {
          running = null;
        });
      return running;
    },
  };
}

/** The ChainAdapter members a token book answers, the same on every network. */
export function tokenMembers(
  book: TokenBook,
): Pick<ChainAdapter, 'tokenMint' | 'tokenDecimals' | 'tokenUnavailableReason' | 'tokens' | 'verifyTokens'> {
  return {
    tokenMint: (token) => book.contract(token),
    tokenDecimals: (token) => book.decimals(token),
    tokenUnavailableReason: (token) => book.unavailableReason(token),
    tokens: () => book.listed(),
    verifyTokens: () => book.verify(),
  };
}
