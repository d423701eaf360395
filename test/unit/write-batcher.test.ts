import { describe, expect, it } from 'vitest';
import { createWriteBatcher } from '../../server/lib/write-batcher';

/** A store whose writes the test releases by hand, recording what each statement held. */
function storeUnderTest(opts: { failWhen?: (items: string[]) => boolean } = {}) {
  const statements: string[][] = [];
  const open: (() => void)[] = [];
  const hold = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push(items);
      open.push(() => (opts.failWhen?.(items) ? reject(new Error(`failed: ${items.join(',')}`)) : resolve()));
    });
  return {
    statements,
    /** Lets the oldest write still open finish. */
    async release() {
      open.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    },
    async releaseAll() {
      while (open.length) await this.release();
    },
    writeMany: async (items: string[]) => {
      await hold(items);
      return items.map((item) => `wrote ${item}`);
    },
    writeOne: async (item: string) => {
      await hold([item]);
      return `wrote ${item} alone`;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('write batcher', () => {
  it('writes alone while writes are few, and together what arrives while they are under way', async () => {
    const store = storeUnderTest();
    const sizes: number[] = [];
    const write = createWriteBatcher({
      ...store,
      maxInFlight: 2,
      maxBatch: 10,
      onBatch: (n) => sizes.push(n),
    });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((item) => write(item));
    await settle();
    // a and b took the two slots; c, d, e wait.
    expect(store.statements).toEqual([['a'], ['b']]);
    await store.release();
    expect(store.statements).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    await store.releaseAll();
    expect(await Promise.all(answers)).toEqual([
      'wrote a alone',
      'wrote b alone',
      'wrote c',
      'wrote d',
      'wrote e',
    ]);
    expect(sizes).toEqual([1, 1, 3]);
  });

  it('never writes two items with one conflict key at once, nor more than maxBatch in a statement', async () => {
    const store = storeUnderTest();
    const write = createWriteBatcher({
      ...store,
      conflictKeys: (item: string) => (item.startsWith('x') ? ['x', item] : [item]),
      maxInFlight: 2,
      maxBatch: 3,
    });
    const answers = ['x0', 'first', 'x1', 'x2', 'p', 'q', 'x3', 'r'].map((item) => write(item));
    await settle();
    // x0 is being written: no other x leaves until it is done, even with a slot free.
    expect(store.statements).toEqual([['x0'], ['first']]);
    await store.release(); // x0 done
    expect(store.statements.slice(2)).toEqual([['x1', 'p', 'q']]);
    await store.release(); // first done: x2 must still wait for x1
    expect(store.statements.slice(3)).toEqual([['r']]);
    await store.releaseAll();
    expect(store.statements.slice(4)).toEqual([['x2'], ['x3']]);
    expect(await Promise.all(answers)).toHaveLength(8);
  });

  it('writes a failed batch again item by item: each caller gets its own item’s fate', async () => {
    const store = storeUnderTest({ failWhen: (items) => items.includes('bad') });
    const write = createWriteBatcher({ ...store, maxInFlight: 1, maxBatch: 10 });
    const answers = ['first', 'ok1', 'bad', 'ok2'].map((item) =>
      write(item).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await settle();
    await store.releaseAll();
    expect(await Promise.all(answers)).toEqual([
      { value: 'wrote first alone' },
      { value: 'wrote ok1 alone' },
      { error: 'failed: bad' },
      { value: 'wrote ok2 alone' },
    ]);
    expect(store.statements).toEqual([['first'], ['ok1', 'bad', 'ok2'], ['ok1'], ['bad'], ['ok2']]);
  });

  it('treats an answer of the wrong length as a failed batch', async () => {
    const store = storeUnderTest();
    const write = createWriteBatcher({
      ...store,
      writeMany: async (items: string[]) => {
        await store.writeMany(items);
        return ['only one'];
      },
      maxInFlight: 1,
      maxBatch: 10,
    });
    const answers = ['first', 'a', 'b'].map((item) => write(item));
    await settle();
    await store.releaseAll();
    expect(await Promise.all(answers)).toEqual(['wrote first alone', 'wrote a alone', 'wrote b alone']);
  });
});
