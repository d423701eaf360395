import { describe, expect, it } from 'vitest';
import { decodeBase58 } from '../../server/lib/base58';
import { randomBytesPooled } from '../../server/lib/random-pool';
import { newReference } from '../../server/orders/new-reference';

describe('pooled random bytes', () => {
  it('hands out every byte once, across refills, and leaves earlier slices as they were', () => {
    const slices = Array.from({ length: 300 }, () => randomBytesPooled(32)); // 9,600 bytes: two refills
    const copies = slices.map((s) => Buffer.from(s).toString('hex'));
    expect(new Set(copies).size).toBe(300);
    randomBytesPooled(4000);
    expect(slices.map((s) => s.toString('hex'))).toEqual(copies);
    expect(() => randomBytesPooled(4097)).toThrow(RangeError);
  });

  it('gives references of 32 bytes in base58, all different', () => {
    const refs = Array.from({ length: 1000 }, newReference);
    expect(new Set(refs).size).toBe(1000);
    for (const ref of refs.slice(0, 50)) expect(decodeBase58(ref)?.length).toBe(32);
  });
});
