import path from 'node:path';

/** The repository's root, where the service's processes are started from. */
export const ROOT = path.resolve(import.meta.dirname, '../..');
/** tsx, to run the service (server/main.ts) and the CLI as processes of their own. */
export const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
