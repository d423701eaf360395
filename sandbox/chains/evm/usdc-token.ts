import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';
import type { TokenArtifact } from './compile-token';

/**
 * UsdcToken.sol: the EIP-3009 USDC of the local EVM chains (x402's `exact` scheme on EVM settles
 * with transferWithAuthorization). It imports OpenZeppelin 5.7.0, so it is compiled with solc-js
 * 0.8.37 by `npx tsx sandbox/chains/evm/usdc-token.ts` into UsdcToken.json, which is committed:
 * the chains deploy the committed artifact, and test/unit/usdc-token.test.ts recompiles the source
 * and fails when the two differ.
 */

const SOURCE = fileURLToPath(new URL('./UsdcToken.sol', import.meta.url));
export const USDC_TOKEN_ARTIFACT_PATH = fileURLToPath(new URL('./UsdcToken.json', import.meta.url));
/** The EIP-712 version Circle's USDC uses: the x402 client signs with the name and version read from the token. */
export const USDC_EIP712_VERSION = '2';

const require = createRequire(import.meta.url);

/** The committed artifact (ABI and creation bytecode). */
export function usdcTokenArtifact(): TokenArtifact {
  const stored = JSON.parse(fs.readFileSync(USDC_TOKEN_ARTIFACT_PATH, 'utf8')) as {
    abi: Abi;
    bytecode: Hex;
  };
  return { abi: stored.abi, bytecode: stored.bytecode };
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

/** Compiles UsdcToken.sol now (a few seconds: OpenZeppelin's sources come along). */
export function compileUsdcToken(): TokenArtifact & { solcVersion: string } {
  const solc = require('solc') as { compile(input: string, opts: unknown): string; version(): string };
  const input = {
    language: 'Solidity',
    sources: { 'UsdcToken.sol': { content: fs.readFileSync(SOURCE, 'utf8') } },
    settings: {
      // 'cancun' runs on Hardhat's default hardfork; OpenZeppelin 5.7 uses mcopy.
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { UsdcToken: ['abi', 'evm.bytecode.object'] } },
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
  if (errors.length) throw new Error(`UsdcToken.sol: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const compiled = output.contracts?.['UsdcToken.sol']?.UsdcToken;
  if (!compiled) throw new Error('UsdcToken.sol: solc returned no UsdcToken contract');
  return { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}`, solcVersion: solc.version() };
}

/** The artifact file's text for a compilation (stable: the test compares it byte for byte). */
export const artifactText = (a: ReturnType<typeof compileUsdcToken>) =>
  `${JSON.stringify({ contract: 'UsdcToken', solc: a.solcVersion, abi: a.abi, bytecode: a.bytecode }, null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(USDC_TOKEN_ARTIFACT_PATH, artifactText(compileUsdcToken()));
  console.log(`wrote ${path.relative(process.cwd(), USDC_TOKEN_ARTIFACT_PATH)}`);
}
