/** A destination whose send took (or is taking) longer than this is slow. */
export const SLOW_SEND_MS = 1000;
/**
 * Tasks of one (not slow) destination leased at once, in sends of the destination's bound: reading
 * and recording them overlaps the requests in flight.
 */
const PIPELINE = 4;

/** What one run knows of a destination (a channel and a merchant: `webhook:<merchant id>`). */
type Destination = {
  /** Tasks leased and not yet done. */
  held: number;
  /** When each request in flight started. */
  requests: number[];
  /** Tasks waiting for a request slot. */
  waiting: (() => void)[];
  /** How long its last request took: over SLOW_SEND_MS is slow; null before the first one. */
  slow: boolean | null;
};

/**
 * The per-destination limits of one run of the sender: at most `perDestination` requests to one
 * destination in flight at once, and how many of its tasks the next lease may take. A destination
 * whose answers come fast is leased up to PIPELINE times its bound (its next sends ready while the
 * others are answered), any other (new, or slow: a send over a second, its tasks waiting for a
 * request then given back) no more than its bound; in the run's last stretch a slow one gets none.
 */
export class DestinationLimits {
  readonly #all = new Map<string, Destination>();

  constructor(readonly perDestination: number) {}

  #of(d: string): Destination {
    let destination = this.#all.get(d);
    if (!destination) this.#all.set(d, (destination = { held: 0, requests: [], waiting: [], slow: null }));
    return destination;
  }

  /** A task of `d` was leased; `release` when it is done. */
  hold(d: string) {
    this.#of(d).held++;
  }

  release(d: string) {
    this.#of(d).held--;
  }

  isSlow(d: string, t = performance.now()): boolean {
    const { slow, requests } = this.#of(d);
    return slow === true || requests.some((at) => t - at > SLOW_SEND_MS);
  }

  /**
   * Takes a request slot of `d` (when it started; give it back with `free`), waiting for one while
   * `d` is not slow; null when it turned slow meanwhile.
   */
  async take(d: string): Promise<number | null> {
    const destination = this.#of(d);
    for (;;) {
      if (destination.requests.length < this.perDestination) {
        const at = performance.now();
        destination.requests.push(at);
        return at;
      }
      if (this.isSlow(d)) return null;
      await new Promise<void>((resolve) => {
        destination.waiting.push(resolve);
        setTimeout(resolve, SLOW_SEND_MS).unref();
      });
    }
  }

  /** Gives back the slot taken at `at`, whose request took `durationMs`. */
  free(d: string, at: number, durationMs: number | null) {
    const destination = this.#of(d);
    destination.requests.splice(destination.requests.indexOf(at), 1);
    if (durationMs !== null) destination.slow = durationMs > SLOW_SEND_MS;
    // Every waiter looks again (one may be gone: its timer woke it); the first ones take the slots.
    for (const resolve of destination.waiting.splice(0)) resolve();
  }

  /**
   * What the next lease may take: each known destination's cap (unknown ones get `perDestination`),
   * and those this run holds its cap of already (the lease need not look at them).
   */
  leaseLimits(lastStretch: boolean): { cap: Map<string, number>; excluded: string[] } {
    const t = performance.now();
    const cap = new Map<string, number>();
    const excluded: string[] = [];
    for (const [d, { held, slow }] of this.#all) {
      const isSlow = this.isSlow(d, t);
      const n =
        lastStretch && isSlow
          ? 0
          : slow === false && !isSlow
            ? this.perDestination * PIPELINE
            : this.perDestination;
      cap.set(d, n);
      if (n - held <= 0) excluded.push(d);
    }
    return { cap, excluded };
  }
}
