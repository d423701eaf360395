import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type EvmVersion } from './compile-token';

/**
 * Contracts whose compiled artifact is committed next to their source, because they import
 * OpenZeppelin (5.7.0) and compiling them with solc-js (0.8.37) takes seconds: the local chains'
 * EIP-3009 USDC, and the payout batch contract the product ships for merchants to deploy. Run
 * `npx tsx sandbox/chains/evm/committed-artifacts.ts` after changing a source;
 * test/unit/committed-artifacts.test.ts recompiles each and fails when the two differ.
 */

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export type CommittedContract = {
  contract: string;
  source: string;
  artifact: string;
  /** 'cancun' runs on Hardhat's default hardfork; OpenZeppelin 5.7 uses mcopy. */
  evmVersion: EvmVersion;
};

export const COMMITTED_CONTRACTS: readonly CommittedContract[] = [
  {
    contract: 'UsdcToken',
    source: here('./UsdcToken.sol'),
    artifact: here('./UsdcToken.json'),
    evmVersion: 'cancun',
  },
  {
    contract: 'PayoutBatch',
    source: here('../../../server/chains/evm/payout-batch/PayoutBatch.sol'),
    artifact: here('../../../server/chains/evm/payout-batch/PayoutBatch.json'),
    evmVersion: 'cancun',
  },
];

export type Compiled = ReturnType<typeof compile>;

const require = createRequire(import.meta.url);

/** Compiles one of them now, its imports read from node_modules. */
export function compileCommitted(c: CommittedContract): Compiled {
  return compile({
    fileName: path.basename(c.source),
    source: fs.readFileSync(c.source, 'utf8'),
    contract: c.contract,
    evmVersion: c.evmVersion,
    findImports: (name) => {
      try {
        return { contents: fs.readFileSync(require.resolve(name), 'utf8') };
      } catch {
        return { error: `not found: ${name}` };
      }
    },
  });
}

/** The artifact file's text for a compilation (stable: the test compares it byte for byte). */
export const artifactText = (contract: string, a: Compiled) =>
  `${JSON.stringify({ contract, solc: a.solcVersion, abi: a.abi, bytecode: a.bytecode }, null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const c of COMMITTED_CONTRACTS) {
    fs.writeFileSync(c.artifact, artifactText(c.contract, compileCommitted(c)));
    console.log(`wrote ${path.relative(process.cwd(), c.artifact)}`);
  }
}
