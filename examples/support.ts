/** What the examples share: reading their settings and saying what the API refused. */
import { StablepayError } from '@stablepay/sdk';

/** An environment variable the example cannot run without. */
export function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

/** Says what the API refused (status, code, each bad field) and exits 1; anything else is thrown on. */
export function exitOnApiError(error: unknown): never {
  if (error instanceof StablepayError) {
    console.error(`${error.status ?? 'no response'} ${error.code}: ${error.message}`);
    for (const d of error.details ?? []) console.error(`  ${d.path}: ${d.message}`);
    process.exit(1);
  }
  throw error;
}
