import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../server/deps';
import { ApiError } from '../../server/errors';
import { encodeBase58 } from '../../server/lib/base58';
import { solanaFeePayer } from '../../server/x402/x402-solana';

const withKey = (solanaFeePayerKey: string | null) =>
  ({ config: { x402: { solanaFeePayerKey } } }) as unknown as Pick<Deps, 'config'>;

describe('X402_SOLANA_FEE_PAYER_KEY', () => {
  it('takes a base58 secret key or the Solana CLI keypair file (a JSON byte array)', () => {
    const key = Keypair.generate();
    const address = key.publicKey.toBase58();
    expect(solanaFeePayer(withKey(encodeBase58(key.secretKey))).publicKey.toBase58()).toBe(address);
    expect(solanaFeePayer(withKey(JSON.stringify([...key.secretKey]))).publicKey.toBase58()).toBe(address);
  });

  it('is 503 NOT_CONFIGURED naming the variable when unset', () => {
    expect(() => solanaFeePayer(withKey(null))).toThrow(ApiError);
    expect(() => solanaFeePayer(withKey(null))).toThrow(/X402_SOLANA_FEE_PAYER_KEY/);
  });
});
