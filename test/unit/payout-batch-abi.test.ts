import { describe, expect, it } from 'vitest';
import {
  PAYOUT_BATCH_ABI,
  PAYOUT_BATCH_ARTIFACT_ABI,
} from '../../server/chains/evm/payout-batch/payout-batch';

const DEFAULTS_FALSE = new Set(['anonymous', 'indexed']);

/** An ABI as both sides write it: no internalType, no `false` defaults, keys in one order. */
function normalized(abi: readonly unknown[]) {
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key, v]) => key !== 'internalType' && !(DEFAULTS_FALSE.has(key) && v === false))
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([key, v]) => [key, strip(v)]),
          )
        : value;
  return (strip(abi) as { type: string; name?: string }[]).sort((a, b) =>
    `${a.type}:${a.name}`.localeCompare(`${b.type}:${b.name}`),
  );
}

describe('PayoutBatch interface', () => {
  it('is the compiled contract’s own ABI', () => {
    expect(normalized(PAYOUT_BATCH_ABI)).toEqual(normalized(PAYOUT_BATCH_ARTIFACT_ABI));
  });
});
