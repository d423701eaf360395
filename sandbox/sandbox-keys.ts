import fs from 'node:fs';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { decodeBase58, encodeBase58 } from '../server/lib/base58';

/** The sandbox merchant's wallet keys: one Solana key, one EVM key for every EVM network. */
export type SandboxKeys = { solana: Keypair; evm: Hex };

const FILE = 'sandbox-keys.json';

/**
 * Kept in DATA_DIR, so that the merchant's wallets (stored in its database) stay the ones the
 * sandbox holds the keys of when it starts again on the same directory, although its chains start
 * afresh. Local test keys: made up at the first start, never meant for a real network.
 */
export function loadSandboxKeys(dataDir: string): SandboxKeys {
  const file = path.join(dataDir, FILE);
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { solana: string; evm: Hex };
    return { solana: Keypair.fromSecretKey(decodeBase58(saved.solana)!), evm: saved.evm };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = { solana: Keypair.generate(), evm: generatePrivateKey() };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ solana: encodeBase58(keys.solana.secretKey), evm: keys.evm }), {
    mode: 0o600,
  });
  return keys;
}
