import { ar } from './ar.js';
import { de } from './de.js';
import { en, type Catalog, type MessageId } from './en.js';
import { es } from './es.js';
import { formatMessage, type MessageValues } from './format.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { ptBR } from './pt-BR.js';
import { zhCN } from './zh-CN.js';

export type { MessageId } from './en.js';

/** The console's locales: the server's pages' eight (server/src/i18n/locales.ts). */
export const CATALOGS: Readonly<Record<string, Catalog>> = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ja,
  'zh-CN': zhCN,
  ar,
};

export type Translate = (id: MessageId, values?: MessageValues) => string;

export interface ConsoleText {
  readonly locale: string;
  readonly dir: 'ltr' | 'rtl';
  readonly t: Translate;
}

/**
 * The locale of the browser's first preferred language the console speaks (exact, then by
 * language: `pt` is pt-BR, `zh` zh-CN), English otherwise.
 */
export function chooseLocale(preferred: readonly string[]): string {
  const locales = Object.keys(CATALOGS);
  for (const tag of preferred) {
    const exact = locales.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact !== undefined) return exact;
    const language = tag.split('-')[0]?.toLowerCase();
    const same = locales.find((l) => l.split('-')[0]?.toLowerCase() === language);
    if (same !== undefined) return same;
  }
  return 'en';
}

export function consoleText(locale: string): ConsoleText {
  const catalog = CATALOGS[locale] ?? en;
  return {
    locale,
    dir: locale === 'ar' ? 'rtl' : 'ltr',
    t: (id, values) => formatMessage(catalog[id] ?? en[id], locale, values),
  };
}
