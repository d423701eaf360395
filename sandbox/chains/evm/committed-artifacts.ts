import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

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
  evmVersion: 'cancun' | 'paris';
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

export type Compiled = { abi: Abi; bytecode: Hex; solcVersion: string };

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

const require = createRequire(import.meta.url);

/** Compiles one of them now, its imports read from node_modules. */
export function compileCommitted(c: CommittedContract): Compiled {
  const solc = require('solc') as { compile(input: string, opts: unknown): string; version(): string };
  const fileName = path.basename(c.source);
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: fs.readFileSync(c.source, 'utf8') } },
    settings: {
      evmVersion: c.evmVersion,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { [c.contract]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const findImports = (name: string) => {
    try {
      return { contents: fs.readFileSync(require.resolve(name), 'utf8') };
    } catch {
      return { error: `not found: ${name}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`${fileName}: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = output.contracts?.[fileName]?.[c.contract];
  if (!compiled) throw new Error(`${fileName}: solc returned no ${c.contract} contract`);
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}`, solcVersion: solc.version() };
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
