import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';

/**
 * TestToken.sol compiled with solc-js (bundled compiler: nothing is downloaded). Compiling takes
 * 1-2 s, so the artifact is cached under node_modules/.cache, keyed by the source, the solc version
 * and the settings; the compiler is loaded only on a cache miss.
 */

export type TokenArtifact = { abi: Abi; bytecode: Hex };

const SOURCE_PATH = fileURLToPath(new URL('./TestToken.sol', import.meta.url));
const CACHE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/stablepay-evm/', import.meta.url));
// 'paris' (no PUSH0) runs on Hardhat's default hardfork and on older nodes alike.
const SETTINGS = {
  evmVersion: 'paris',
  optimizer: { enabled: true, runs: 200 },
  outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
};

const require = createRequire(import.meta.url);
let loaded: TokenArtifact | undefined;

export function testTokenArtifact(): TokenArtifact {
  if (loaded) return loaded;
  const source = fs.readFileSync(SOURCE_PATH, 'utf8');
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const key = createHash('sha256')
    .update(JSON.stringify({ source, solcVersion, SETTINGS }))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = path.join(CACHE_DIR, `TestToken-${key}.json`);
  try {
    return (loaded = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as TokenArtifact);
  } catch {
    // Not cached yet (or unreadable): compile below.
  }
  loaded = compile(source);
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  // Write then rename: parallel test files may compile at once, and readers never see half a file.
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(loaded));
  fs.renameSync(tmp, cacheFile);
  return loaded;
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

function compile(source: string): TokenArtifact {
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`TestToken.sol: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contract = output.contracts?.['TestToken.sol']?.TestToken;
  if (!contract) throw new Error('TestToken.sol: solc returned no TestToken contract');
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
