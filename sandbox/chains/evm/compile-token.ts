import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

/**
 * Solidity sources of the local chains (TestToken.sol here, the TRON chain's TronUsdt.sol) compiled
 * with solc-js (bundled compiler: nothing is downloaded). Compiling takes 1-2 s, so each artifact is
 * cached under node_modules/.cache, keyed by the source, the solc version and the settings; the
 * compiler is loaded only on a cache miss.
 */

export type TokenArtifact = { abi: Abi; bytecode: Hex };

const CACHE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/stablepay-evm/', import.meta.url));
const settings = (contract: string, evmVersion: EvmVersion) => ({
  evmVersion,
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { [contract]: ['abi', 'evm.bytecode.object'] } },
});
/** 'paris' (no PUSH0) runs on Hardhat's default hardfork and on older nodes alike. */
const LOCAL_EVM_VERSION = 'paris';
export type EvmVersion = 'paris' | 'cancun';

const require = createRequire(import.meta.url);
const loaded = new Map<string, TokenArtifact>();

/** TestToken.sol: the ERC-20 stand-in of the EVM chains. */
export const testTokenArtifact = (): TokenArtifact =>
  compiledContract(fileURLToPath(new URL('./TestToken.sol', import.meta.url)), 'TestToken');

/** `contract` of the Solidity file at `sourcePath` (one file, no imports), from the cache when it can. */
export function compiledContract(sourcePath: string, contract: string): TokenArtifact {
  const known = loaded.get(`${sourcePath}:${contract}`);
  if (known) return known;
  const source = fs.readFileSync(sourcePath, 'utf8');
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify({ source, solcVersion, settings: settings(contract, LOCAL_EVM_VERSION) }))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.join(CACHE_DIR, `${contract}-${key}.json`);
  let artifact: TokenArtifact;
  try {
    artifact = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as TokenArtifact;
  } catch {
    // Not cached yet (or unreadable): compile it.
    const { abi, bytecode } = compile({
      fileName: path.basename(sourcePath),
      source,
      contract,
      evmVersion: LOCAL_EVM_VERSION,
    });
    artifact = { abi, bytecode };
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Write then rename: parallel test files may compile at once, and readers never see half a file.
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(artifact));
    fs.renameSync(tmp, cacheFile);
  }
  loaded.set(`${sourcePath}:${contract}`, artifact);
  return artifact;
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

/**
 * One contract of one Solidity source, compiled by solc-js now; `findImports` reads what it
 * imports (OpenZeppelin's sources from node_modules), none without.
 */
export function compile(input: {
  fileName: string;
  source: string;
  contract: string;
  evmVersion: EvmVersion;
  findImports?: (name: string) => { contents: string } | { error: string };
}): TokenArtifact & { solcVersion: string } {
  const solc = require('solc') as { compile(input: string, opts?: unknown): string; version(): string };
  const { fileName, contract } = input;
  const request = {
    language: 'Solidity',
    sources: { [fileName]: { content: input.source } },
    settings: settings(contract, input.evmVersion),
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(request), input.findImports ? { import: input.findImports } : undefined),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`${fileName}: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = output.contracts?.[fileName]?.[contract];
  if (!compiled) throw new Error(`${fileName}: solc returned no ${contract} contract`);
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}`, solcVersion: solc.version() };
}
