import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  artifactText,
  compileUsdcToken,
  USDC_TOKEN_ARTIFACT_PATH,
} from '../../sandbox/chains/evm/usdc-token';

describe('UsdcToken artifact', () => {
  it('is what UsdcToken.sol compiles to (run `npx tsx sandbox/chains/evm/usdc-token.ts` after a change)', () => {
    const committed = fs.readFileSync(USDC_TOKEN_ARTIFACT_PATH, 'utf8');
    expect(committed).toBe(artifactText(compileUsdcToken()));
  }, 60_000);
});
