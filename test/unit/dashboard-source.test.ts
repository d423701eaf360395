import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What the dashboard's source must never do, read from the source itself: markup from strings
 * (merchant and payer text is always React text), secrets in browser storage, requests around the
 * contract's typed client, inline styles (the CSP allows none).
 */
const SRC = path.resolve(import.meta.dirname, '../../dashboard/src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
const all = files(SRC).map((f) => ({ file: path.relative(SRC, f), text: readFileSync(f, 'utf8') }));
const sources = all.filter(({ file }) => /\.(ts|tsx)$/.test(file));

/** The most lines a file of dashboard/src may have: past it, split it by what its parts do. */
const MAX_LINES = 400;
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('dashboard source', () => {
  it('never turns a string into markup', () => {
    for (const { file, text } of sources) {
      expect(text, file).not.toMatch(
        /dangerouslySetInnerHTML|\.innerHTML|outerHTML|insertAdjacentHTML|document\.write/,
      );
    }
  });

  it('keeps only the language choice in browser storage (no secret, no token)', () => {
    const users = sources.filter(({ text }) => /localStorage|sessionStorage|document\.cookie/.test(text));
    expect(users.map((u) => u.file)).toEqual([path.join('i18n', 'index.tsx')]);
    expect(users[0]!.text).not.toMatch(/sessionStorage|document\.cookie/);
  });

  it('talks to the API only through the typed client in api.ts', () => {
    for (const { file, text } of sources) {
      if (file === 'api.ts') continue;
      expect(text, file).not.toMatch(/\bfetch\(|XMLHttpRequest|new WebSocket|EventSource/);
    }
    expect(sources.find((s) => s.file === 'api.ts')!.text).toContain('initClient(contract');
  });

  it('sets no inline style (the CSP has no unsafe-inline for styles)', () => {
    for (const { file, text } of sources) expect(text, file).not.toMatch(/\bstyle=\{/);
  });

  it(`keeps every file under ${MAX_LINES} lines, the message catalogues too (split by pages)`, () => {
    const long = all
      .filter(({ text }) => lineCount(text) > MAX_LINES)
      .map(({ file, text }) => `${file}: ${lineCount(text)} lines`);
    expect(long).toEqual([]);
  });

  it('has no page import another page: what pages share lives in components/ or lib/', () => {
    const pages = sources.filter(({ file }) => file.startsWith(`pages${path.sep}`));
    expect(pages.length).toBeGreaterThan(5);
    for (const { file, text } of pages) {
      const imported = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g)].map(
        (m) => m[1] ?? m[2]!,
      );
      const pagesImported = imported.filter(
        (spec) =>
          spec.startsWith('.') &&
          path
            .resolve(path.dirname(path.join(SRC, file)), spec)
            .startsWith(path.join(SRC, 'pages') + path.sep),
      );
      expect(pagesImported, file).toEqual([]);
    }
  });

  it('has every message in every language', async () => {
    const { en } = await import('../../dashboard/src/i18n/en');
    const { ptBR } = await import('../../dashboard/src/i18n/pt-BR');
    const { es } = await import('../../dashboard/src/i18n/es');
    for (const messages of [ptBR, es]) {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(messages)) {
        const wanted = (en[key as keyof typeof en].match(/\{\w+\}/g) ?? []).sort();
        expect((text.match(/\{\w+\}/g) ?? []).sort(), key).toEqual(wanted);
      }
    }
  });
});
