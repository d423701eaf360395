export const PAGE_LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** One of the page's languages for a tag like `pt`, `pt-PT`, `es-419`, `EN-us`; null when none fits. */
function match(tag: string): PageLanguage | null {
  const primary = tag.trim().toLowerCase().split('-')[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'es') return 'es';
  if (primary === 'en') return 'en';
  return null;
}

/**
 * The page's language: `?lang=` when it names one, else the best of Accept-Language by its
 * q-values (ties keep the header's order), else English.
 */
export function pageLanguage(lang: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  const asked = lang ? match(lang) : null;
  if (asked) return asked;
  const ranked = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => Number.isFinite(l.q) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const found = match(tag);
    if (found) return found;
  }
  return 'en';
}
