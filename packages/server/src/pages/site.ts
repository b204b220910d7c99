import type { FastifyReply } from 'fastify';
import type { Brand } from '../html/brand.js';
import type { Languages } from '../i18n/index.js';
import { verbatim } from '../html/layout.js';
import { pageView, type BasePath, type LanguageHints, type PageView } from '../html/page-view.js';

/** What the pages outside the authorization flow share: where they are, their languages and brand. */
export interface SitePages {
  readonly base: BasePath;
  readonly languages: Languages;
  readonly brand: Brand;
}

/** The view of one of these pages, in the language the request chooses (html/page-view.ts). */
export function siteView(site: SitePages, reply: FastifyReply, hints: LanguageHints = {}): PageView {
  return pageView(reply, site, site.base, hints);
}

/** Names and values of the wire (parameters, codes, claims), as they are: never translated. */
export function wireValues(rows: readonly (readonly [string, string])[]): string {
  const items = rows.map(([name, value]) => `${verbatim(name, 'dt')}<dd>${verbatim(value, 'code')}</dd>`);
  return `<dl class="values">${items.join('')}</dl>`;
}
