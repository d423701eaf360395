/**
 * What belongs to one test file, though modules are shared: npm test runs its files without
 * isolation (vitest.config.ts), so a worker imports the server once for all the files it runs.
 * The setup file (test/support/each-file.ts) empties this before each file.
 */
export const fileScope: { database?: Promise<string> } = {};

export function forgetFileScope() {
  delete fileScope.database;
}
