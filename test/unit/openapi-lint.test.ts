import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../../server/docs/openapi';

/**
 * The document as the contract generates it now passes both Spectral rulesets of the repository
 * (`npm run lint:api` checks the committed openapi.json the same way): spectral:oas without an
 * error or a warning, the OWASP rules without an error (their overrides, in .spectral-owasp.yaml,
 * name the paths they apply to).
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const spectral = path.join(root, 'node_modules/.bin/spectral');
type Finding = { code: string; severity: number; path: string[]; message: string };

let dir: string;
beforeAll(() => {
  // The rulesets' overrides name `openapi.json` beside them: the same layout as the repository.
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  for (const ruleset of ['.spectral.yaml', '.spectral-owasp.yaml'])
    copyFileSync(path.join(root, ruleset), path.join(dir, ruleset));
  writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(generateOpenApiDocument(), null, 2));
  // `extends` names the OWASP ruleset package: resolved from a node_modules beside the ruleset.
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function lint(ruleset: string): Promise<Finding[]> {
  const out = path.join(dir, `${ruleset}.out.json`);
  await promisify(execFile)(
    spectral,
    [
      'lint',
      'openapi.json',
      '--ruleset',
      ruleset,
      '--format',
      'json',
      '--output',
      out,
      '--fail-severity',
      'hint',
    ],
    { cwd: dir, env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  ).catch((error: { code?: number }) => {
    // Exit code 1: findings (read below); anything else: Spectral itself failed.
    if (error.code !== 1) throw error;
  });
  return JSON.parse(readFileSync(out, 'utf8')) as Finding[];
}

const show = (findings: Finding[]) => findings.map((f) => `${f.code} at ${f.path.join('.')}: ${f.message}`);

describe('openapi.json and the linters', () => {
  it('passes spectral:oas without an error or a warning', async () => {
    const findings = (await lint('.spectral.yaml')).filter((f) => f.severity <= 1);
    expect(show(findings)).toEqual([]);
  }, 60_000);

  it('passes the OWASP API Security ruleset without an error', async () => {
    const findings = (await lint('.spectral-owasp.yaml')).filter((f) => f.severity === 0);
    expect(show(findings)).toEqual([]);
  }, 60_000);
});
