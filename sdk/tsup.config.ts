import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', payer: 'src/payer.ts', refunds: 'src/refunds.ts' },
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  // One copy of the shared modules (errors, http) per format, also in CJS, so `instanceof` holds
  // between the two entries.
  splitting: true,
  clean: true,
  treeshake: true,
  removeNodeProtocol: false,
  // The contract (../contract, relative imports) is bundled; these stay dependencies.
  external: ['@ts-rest/core', 'zod', '@solana/web3.js', 'viem', 'node:crypto'],
});
