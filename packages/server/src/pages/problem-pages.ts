import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml, layout, type BasePath } from '../html/layout.js';
import { sendPage } from '../html/responses.js';
import { catalogPages, type ProblemPage } from './problem-catalog.js';

/** The index of every error; each page links back to it. */
export const PROBLEMS_INDEX_PATH = '/problems/';

function renderReasons(page: ProblemPage): string {
  const reasons = page.descriptions ?? [];
  if (reasons.length === 0) return '';
  const items = reasons
    .map(
      (d) => `<li id="${escapeHtml(d.reason)}"><code>${escapeHtml(d.error_description)}</code>
<span class="reason-meta">${escapeHtml(d.reason)} · HTTP ${d.status}</span></li>`,
    )
    .join('\n');
  return `<h2 class="section-title">The error_description for each reason</h2>
<ul class="reasons">
${items}
</ul>`;
}

function renderProblemPage(base: BasePath, page: ProblemPage): string {
  const retry = page.transient ? 'transient: the same request may succeed later' : 'permanent: retrying fails again';
  return layout(
    base,
    page.title,
    `<p class="eyebrow"><code>${escapeHtml(page.code)}</code> · HTTP ${page.status} · ${retry}</p>
<h1>${escapeHtml(page.title)}</h1>
<p class="summary">${escapeHtml(page.summary)}</p>
<section class="what-to-do"><h2>What the client must do</h2><p>${escapeHtml(page.client_action)}</p></section>
${renderReasons(page)}
<p class="fine-print"><a href="${base}${PROBLEMS_INDEX_PATH}">Every error</a> · <a href="${base}/">Home</a></p>`,
    { wide: true },
  );
}

function indexEntry(base: BasePath, page: ProblemPage): string {
  const href = `${base}/problems/${escapeHtml(page.slug)}`;
  const reasons = (page.descriptions ?? [])
    .map((d) => `<li><a href="${href}#${escapeHtml(d.reason)}"><code>${escapeHtml(d.reason)}</code></a></li>`)
    .join('');
  return `<li><a href="${href}"><code>${escapeHtml(page.code)}</code></a>
<span class="link-what">${escapeHtml(page.title)} · HTTP ${page.status}</span>${
    reasons ? `\n<ul class="reason-links">${reasons}</ul>` : ''
  }</li>`;
}

function renderIndex(base: BasePath, pages: readonly ProblemPage[]): string {
  const list = (kind: ProblemPage['kind']): string =>
    pages
      .filter((p) => p.kind === kind)
      .map((p) => indexEntry(base, p))
      .join('\n');
  return layout(
    base,
    'Errors',
    `<h1>Errors</h1>
<p class="lead">Every error this server answers, with what the client must do. An OAuth error names its page in
<code>error_uri</code>; a problem (RFC 9457) in <code>type</code>.</p>
<h2 class="section-title">OAuth 2.0 errors, with their reasons</h2>
<ul class="links">
${list('oauth')}
</ul>
<h2 class="section-title">Problems (application/problem+json)</h2>
<ul class="links">
${list('problem')}
</ul>
<p class="fine-print"><a href="${base}/">Home</a></p>`,
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
export function problemPages(app: FastifyInstance, base: BasePath): void {
  const pages = catalogPages();
  const bySlug = new Map(pages.map((p) => [p.slug, p]));
  const index = renderIndex(base, pages);
  for (const path of [PROBLEMS_INDEX_PATH, '/problems'])
    app.get(path, async (_request, reply) => sendPage(reply, 200, index));
  app.get<{ Params: { slug: string } }>('/problems/:slug', async (request, reply) => {
    const page = bySlug.get(request.params.slug);
    if (!page) {
      reply.callNotFound();
      return reply;
    }
    reply.header('vary', 'accept');
    const wantsJson = /\bapplication\/(problem\+)?json\b/.test(request.headers.accept ?? '');
    return wantsJson ? sendJson(reply, page) : sendPage(reply, 200, renderProblemPage(base, page));
  });
}
