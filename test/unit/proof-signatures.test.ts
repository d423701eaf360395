import { Keypair } from '@solana/web3.js';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { claimProofMessage, refundAddressProofMessage } from '../../contract';
import { normalizeEvmSignature, verifyEvmMessage } from '../../server/chains/evm/verify-message';
import { normalizeSolanaSignature, verifySolanaMessage } from '../../server/chains/solana/verify-message';
import { decodeBase58, encodeBase58 } from '../../server/lib/base58';
import { signSolanaMessage } from '../../sandbox/chains/solana/sign-message';

const solanaSign = signSolanaMessage;

describe('proof messages', () => {
  it('name the order and the transaction, or the refund and the address, exactly as sent', () => {
    expect(claimProofMessage('RefKey111', '0xABCdef')).toBe('stablepay claim RefKey111 0xABCdef');
    expect(refundAddressProofMessage('rf_1', 'So1anaAddr')).toBe('stablepay refund rf_1 So1anaAddr');
  });
});

describe('EVM EIP-191 signatures', () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const other = privateKeyToAccount(generatePrivateKey());
  const message = claimProofMessage('Ref1', '0x' + 'ab'.repeat(32));

  it('accept the sender signing the exact message, whatever the address case', async () => {
    const signature = await account.signMessage({ message });
    expect(await verifyEvmMessage(message, signature, account.address)).toBe(true);
    expect(await verifyEvmMessage(message, signature, account.address.toLowerCase())).toBe(true);
    expect(
      await verifyEvmMessage(message, signature.toUpperCase().replace('0X', '0x'), account.address),
    ).toBe(true);
  });

  it('refuse another signer, another message and a tampered signature', async () => {
    const signature = await account.signMessage({ message });
    expect(await verifyEvmMessage(message, await other.signMessage({ message }), account.address)).toBe(
      false,
    );
    expect(await verifyEvmMessage(message, signature, other.address)).toBe(false);
    expect(
      await verifyEvmMessage(claimProofMessage('Ref2', '0x' + 'ab'.repeat(32)), signature, account.address),
    ).toBe(false);
    const flipped = signature.slice(0, 10) + (signature[10] === '0' ? '1' : '0') + signature.slice(11);
    expect(await verifyEvmMessage(message, flipped, account.address)).toBe(false);
  });

  it('refuse malformed signatures and addresses without throwing', async () => {
    const signature = await account.signMessage({ message });
    expect(normalizeEvmSignature(signature)).toBe(signature.toLowerCase());
    for (const bad of [
      '',
      '0x',
      signature.slice(0, -2),
      signature + '00',
      'zz' + signature.slice(2),
      '0x' + '00'.repeat(65),
    ])
      expect(await verifyEvmMessage(message, bad, account.address)).toBe(false);
    expect(await verifyEvmMessage(message, signature, 'not an address')).toBe(false);
    expect(normalizeEvmSignature('0x1234')).toBeNull();
  });
});

describe('Solana ed25519 signatures', () => {
  const keypair = Keypair.generate();
  const other = Keypair.generate();
  const message = refundAddressProofMessage('rf_abc', other.publicKey.toBase58());

  it('accept the key signing the exact message bytes', () => {
    const signature = solanaSign(keypair, message);
    expect(normalizeSolanaSignature(signature)).toBe(signature);
    expect(verifySolanaMessage(message, signature, keypair.publicKey.toBase58())).toBe(true);
  });

  it('refuse another signer, another message and a tampered signature', () => {
    const signature = solanaSign(keypair, message);
    expect(verifySolanaMessage(message, solanaSign(other, message), keypair.publicKey.toBase58())).toBe(
      false,
    );
    expect(verifySolanaMessage(message, signature, other.publicKey.toBase58())).toBe(false);
    expect(verifySolanaMessage(message + ' ', signature, keypair.publicKey.toBase58())).toBe(false);
    const bytes = decodeBase58(signature)!;
    bytes[5] = bytes[5]! ^ 1;
    expect(verifySolanaMessage(message, encodeBase58(bytes), keypair.publicKey.toBase58())).toBe(false);
  });

  it('refuse malformed signatures and keys without throwing', () => {
    const signature = solanaSign(keypair, message);
    for (const bad of ['', '0OIl', signature.slice(0, 20), signature + signature, 'x'.repeat(200)])
      expect(verifySolanaMessage(message, bad, keypair.publicKey.toBase58())).toBe(false);
    expect(verifySolanaMessage(message, signature, 'short')).toBe(false);
    expect(verifySolanaMessage(message, signature, '1'.repeat(44))).toBe(false);
  });
});
