/**
 * The languages the pages speak. One catalog file per locale in `catalogs/`, English the source; a
 * locale is a line here and a file there (docs/operating.md, "Languages").
 */
export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ar'] as const;

export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** The locale every message is written in first, and the one a missing translation falls back to. */
export const SOURCE_LOCALE: Locale = 'en';

/**
 * The pseudo-locale of the tests: English with every letter accented and every message wrapped in
 * ⟦ ⟧, so that text that did not come through the catalog stands out (test/page-text.test.ts). A
 * server serves it only when started with `pseudoLocale` (never from the environment).
 */
export const PSEUDO_LOCALE = 'en-XA';

/** A locale a page may be rendered in: a supported one, or the tests' pseudo-locale. */
export type PageLocale = Locale | typeof PSEUDO_LOCALE;

/**
 * Each language by its own name, for the language switcher: a person finds their language whatever
 * the page is in, so these are the same on every page and are not translated.
 */
export const LOCALE_NAMES: { readonly [L in PageLocale]: string } = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
  'en-XA': 'Ƥšéûđö',
};

/** The locales written right to left: their pages carry `dir="rtl"` and the layout mirrors. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar']);

export type Direction = 'ltr' | 'rtl';

export function directionOf(locale: PageLocale): Direction {
  return RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr';
}

export function isLocale(value: string): value is Locale {
  return (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * DEFAULT_LOCALE, checked when the server starts: one of the supported locales, written as listed
 * (`pt-BR`, not `pt_br`), or a clear error naming them.
 */
export function defaultLocaleFrom(value: string | undefined): Locale {
  if (value === undefined || value === '') return SOURCE_LOCALE;
  if (isLocale(value)) return value;
  throw new Error(`DEFAULT_LOCALE is one of ${SUPPORTED_LOCALES.join(', ')}, got ${JSON.stringify(value)}`);
}
