/**
 * Gathers concurrent writes into batches, group-commit style: an item is written at once while
 * fewer than `maxInFlight` writes are under way (alone, so a quiet service pays no wait); the items
 * that arrive meanwhile queue and leave together, as one batch, when a write finishes. A batch
 * whose statement fails is written again item by item, so each item's own error reaches its own
 * caller and no item is lost with another's. Items that must not share a statement (it cannot
 * touch one row twice) give a common key in `conflictKeys`: the later waits until the earlier's
 * write has finished (two statements taking one row in opposite orders could deadlock; one waiting
 * on the other's row would hold its whole batch).
 */
export type WriteBatcherOptions<In, Out> = {
  /** Writes several items in one statement: one outcome per item, in the items' order. */
  writeMany(items: In[]): Promise<Out[]>;
  /** Writes one item on its own: a batch of one, and each item of a batch whose statement failed. */
  writeOne(item: In): Promise<Out>;
  conflictKeys?(item: In): string[];
  maxInFlight: number;
  maxBatch: number;
  /** Told each batch's size as it leaves (for metrics). */
  onBatch?(size: number): void;
};

type Waiting<In, Out> = { item: In; keys: string[]; resolve(out: Out): void; reject(error: unknown): void };

export function createWriteBatcher<In, Out>(opts: WriteBatcherOptions<In, Out>): (item: In) => Promise<Out> {
  const queue: Waiting<In, Out>[] = [];
  let inFlight = 0;
  /** Conflict keys of the items being written now. */
  const writing = new Set<string>();

  /** The next batch: queued items in order, at most one per conflict key, none of one being written. */
  function takeBatch(): Waiting<In, Out>[] {
    const batch: Waiting<In, Out>[] = [];
    for (let i = 0; i < queue.length && batch.length < opts.maxBatch;) {
      const { keys } = queue[i]!;
      if (keys.some((key) => writing.has(key))) {
        i++;
        continue;
      }
      for (const key of keys) writing.add(key);
      batch.push(queue.splice(i, 1)[0]!);
    }
    return batch;
  }

  async function write(batch: Waiting<In, Out>[]) {
    opts.onBatch?.(batch.length);
    if (batch.length > 1) {
      let outcomes: Out[] | null = null;
      try {
        outcomes = await opts.writeMany(batch.map((w) => w.item));
        if (outcomes.length !== batch.length)
          throw new Error(`batch of ${batch.length} answered ${outcomes.length} outcomes`);
      } catch {
        outcomes = null; // written again one by one below: each caller gets its own item's fate
      }
      if (outcomes) return batch.forEach((w, i) => w.resolve(outcomes[i]!));
    }
    await Promise.all(batch.map((w) => opts.writeOne(w.item).then(w.resolve, w.reject)));
  }

  function pump() {
    while (inFlight < opts.maxInFlight && queue.length > 0) {
      const batch = takeBatch();
      if (batch.length === 0) return; // all that waits conflicts with a write under way
      inFlight++;
      void write(batch).finally(() => {
        for (const w of batch) for (const key of w.keys) writing.delete(key);
        inFlight--;
        pump();
      });
    }
  }

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, keys: opts.conflictKeys?.(item) ?? [], resolve, reject });
      pump();
    });
}
