import { OAUTH_ERRORS, PROBLEMS } from '@gatehouse/contract';
import type { Locale } from '../locales.js';
import { ar } from './ar.js';
import type { Catalog, ProblemProse } from './catalog.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { ptBR } from './pt-BR.js';
import { zhCN } from './zh-CN.js';

/** Every locale's catalog file. English is the source: its problems' prose is the contract's own. */
export const CATALOGS: { readonly [L in Locale]: Catalog } = {
  en: { messages: en, problems: {} },
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ja,
  'zh-CN': zhCN,
  ar,
};

/** The English prose of every page of the error catalog, by slug: what the contract says. */
export const ENGLISH_PROBLEM_PROSE: ReadonlyMap<string, ProblemProse> = new Map([
  ...Object.values(OAUTH_ERRORS).map(
    (e) => [e.page, { title: e.title, summary: e.summary, action: e.clientAction }] as const,
  ),
  ...Object.values(PROBLEMS).map(
    (p) => [p.slug, { title: p.title, summary: p.summary, action: p.clientAction }] as const,
  ),
]);

export function englishProblemProse(slug: string): ProblemProse {
  const prose = ENGLISH_PROBLEM_PROSE.get(slug);
  if (prose === undefined) throw new Error(`no page of the error catalog is named '${slug}'`);
  return prose;
}
