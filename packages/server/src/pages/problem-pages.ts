import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, layout, verbatim, type PageView } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { catalogPages, type ProblemPage } from './problem-catalog.js';
import { siteView, type SitePages } from './site.js';

/** The index of every error; each page links back to it. */
export const PROBLEMS_INDEX_PATH = '/problems/';

function renderReasons(view: PageView, page: ProblemPage): string {
  const reasons = page.descriptions ?? [];
  if (reasons.length === 0) return '';
  const items = reasons
    .map(
      (d) => `<li id="${escapeHtml(d.reason)}">${verbatim(d.error_description, 'code', ' lang="en"')}
<span class="reason-meta" translate="no">${escapeHtml(d.reason)} · HTTP ${d.status}</span></li>`,
    )
    .join('\n');
  return `<h2 class="section-title">${view.text.t('problems.reasons')}</h2>
<ul class="reasons">
${items}
</ul>`;
}

/**
 * A catalog page in the page's language: its prose translated, its code, status and every wire value
 * (a problem's `title`, an OAuth error's `error_description`s) as the wire has them, in English.
 */
function renderProblemPage(view: PageView, page: ProblemPage): string {
  const { base, text } = view;
  const { t } = text;
  const prose = text.problem(page.slug);
  const retry = t(page.transient ? 'problems.transient' : 'problems.permanent');
  const wireTitle =
    page.kind === 'problem' ? `<p class="wire-title">${t('problems.wire-title', { title: page.title })}</p>\n` : '';
  return layout(
    view,
    prose.title,
    `<p class="eyebrow">${verbatim(page.code, 'code')} · ${t('problems.status', { status: page.status })} · ${retry}</p>
<h1>${prose.title}</h1>
${wireTitle}<p class="summary">${prose.summary}</p>
<section class="what-to-do"><h2>${t('problems.client-action')}</h2><p>${prose.action}</p></section>
${renderReasons(view, page)}
<p class="fine-print"><a href="${base}${PROBLEMS_INDEX_PATH}">${t('problems.every-error')}</a> · <a href="${base}/">${t('problems.home')}</a></p>`,
    { wide: true },
  );
}

function indexEntry(view: PageView, page: ProblemPage): string {
  const href = `${view.base}/problems/${escapeHtml(page.slug)}`;
  const reasons = (page.descriptions ?? [])
    .map((d) => `<li><a href="${href}#${escapeHtml(d.reason)}">${verbatim(d.reason, 'code')}</a></li>`)
    .join('');
  return `<li><a href="${href}">${verbatim(page.code, 'code')}</a>
<span class="link-what">${view.text.problem(page.slug).title} · ${view.text.t('problems.status', { status: page.status })}</span>${
    reasons ? `\n<ul class="reason-links">${reasons}</ul>` : ''
  }</li>`;
}

function renderIndex(view: PageView, pages: readonly ProblemPage[]): string {
  const { base, text } = view;
  const { t } = text;
  const list = (kind: ProblemPage['kind']): string =>
    pages
      .filter((p) => p.kind === kind)
      .map((p) => indexEntry(view, p))
      .join('\n');
  return layout(
    view,
    t('problems.index.title'),
    `<h1>${t('problems.index.title')}</h1>
<p class="lead">${t('problems.index.lead')}</p>
<h2 class="section-title">${t('problems.index.oauth')}</h2>
<ul class="links">
${list('oauth')}
</ul>
<h2 class="section-title">${t('problems.index.problems')}</h2>
<ul class="links">
${list('problem')}
</ul>
<p class="fine-print"><a href="${base}/">${t('problems.home')}</a></p>`,
    { wide: true },
  );
}

/** A catalog page as JSON, for clients that ask for it; headers as the pages'. */
function sendJson(reply: FastifyReply, page: ProblemPage): FastifyReply {
  return reply
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(page);
}

/**
 * GET /problems/{slug}: the page every OAuth `error_uri` and problem `type` points to, saying what
 * happened and what the client must do; HTML in the pages' layout, or JSON for clients that ask for
 * it. GET /problems/ (and /problems): every entry of the catalog, linking to its page. An unknown slug is the 404
 * (a page for a browser, else problem+json).
 */
export function problemPages(app: FastifyInstance, site: SitePages): void {
  const pages = catalogPages();
  const bySlug = new Map(pages.map((p) => [p.slug, p]));
  // The index is the same for every visitor in a language: made once per language.
  const indexes = new Map<string, string>();
  for (const path of [PROBLEMS_INDEX_PATH, '/problems'])
    app.get(path, async (_request, reply) => {
      const view = siteView(site, reply, { here: PROBLEMS_INDEX_PATH });
      const index = indexes.get(view.text.locale) ?? renderIndex(view, pages);
      indexes.set(view.text.locale, index);
      return sendPage(reply, 200, index);
    });
  app.get<{ Params: { slug: string } }>('/problems/:slug', async (request, reply) => {
    const page = bySlug.get(request.params.slug);
    if (!page) {
      reply.callNotFound();
      return reply;
    }
    reply.header('vary', 'accept');
    const wantsJson = /\bapplication\/(problem\+)?json\b/.test(request.headers.accept ?? '');
    // The JSON form is the catalog's own words, in English whatever the request's language.
    return wantsJson ? sendJson(reply, page) : sendPage(reply, 200, renderProblemPage(siteView(site, reply), page));
  });
}
