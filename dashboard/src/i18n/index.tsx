import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, type MessageKey } from './en';
import { es } from './es';
import { ptBR } from './pt-BR';

export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  'pt-BR': 'Português (Brasil)',
  es: 'Español',
};
const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, 'pt-BR': ptBR, es };

/** Only the language choice is kept in the browser: no secret ever is. */
const STORAGE_KEY = 'stablepay.dashboard.lang';

/** The first of the browser's languages the dashboard speaks (pt → pt-BR, es-* → es), else English. */
export function pickLocale(wanted: readonly string[]): Locale {
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('pt')) return 'pt-BR';
    if (lower.startsWith('es')) return 'es';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function initialLocale(): Locale {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && (LOCALES as readonly string[]).includes(saved)) return saved as Locale;
  } catch {
    // storage may be off: the browser's language then
  }
  return pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

type I18n = { locale: Locale; setLocale: (locale: Locale) => void; t: Translate };
const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // not kept: fine
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const t = useCallback<Translate>(
    (key, vars) => {
      const text = MESSAGES[locale][key] ?? en[key];
      return vars
        ? text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all))
        : text;
    },
    [locale],
  );
  const value = useMemo(() => ({ locale, setLocale, t }), [locale, setLocale, t]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

export type { MessageKey };
