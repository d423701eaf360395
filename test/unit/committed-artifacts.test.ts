import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  artifactText,
  COMMITTED_CONTRACTS,
  compileCommitted,
} from '../../sandbox/chains/evm/committed-artifacts';

describe('committed contract artifacts', () => {
  it.each(COMMITTED_CONTRACTS.map((c) => [c.contract, c] as const))(
    '%s is what its source compiles to (run `npx tsx sandbox/chains/evm/committed-artifacts.ts` after a change)',
    (_name, c) => {
      const committed = fs.readFileSync(c.artifact, 'utf8');
      expect(committed).toBe(artifactText(c.contract, compileCommitted(c)));
    },
    60_000,
  );
});
