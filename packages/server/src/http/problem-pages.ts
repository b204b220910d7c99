import {
  OAUTH_ERRORS,
  OAUTH_REASONS,
  PROBLEMS,
  ProblemError,
  statusOfOAuthReason,
  type OAuthReasonEntry,
} from '@gatehouse/contract';
import type { FastifyInstance } from 'fastify';

/** What a page says: one catalog entry, OAuth error or REST problem. */
interface Page {
  readonly slug: string;
  readonly title: string;
  readonly status: number;
  readonly kind: 'oauth' | 'problem';
  readonly code: string;
  readonly summary: string;
  readonly client_action: string;
  readonly transient: boolean;
  readonly descriptions?: readonly {
    readonly reason: string;
    readonly status: number;
    readonly error_description: string;
  }[];
}

function catalogPages(): Map<string, Page> {
  const pages = new Map<string, Page>();
  for (const e of Object.values(OAUTH_ERRORS)) {
    const descriptions = (Object.entries(OAUTH_REASONS) as [keyof typeof OAUTH_REASONS, OAuthReasonEntry][])
      .filter(([, r]) => r.error === e.error)
      .map(([reason, r]) => ({ reason, status: statusOfOAuthReason(reason), error_description: r.description }));
    pages.set(e.page, {
      slug: e.page,
      title: e.title,
      status: e.status,
      kind: 'oauth',
      code: e.error,
      summary: e.summary,
      client_action: e.clientAction,
      transient: e.transient,
      descriptions,
    });
  }
  for (const p of Object.values(PROBLEMS)) {
    pages.set(p.slug, {
      slug: p.slug,
      title: p.title,
      status: p.status,
      kind: 'problem',
      code: p.code,
      summary: p.summary,
      client_action: p.clientAction,
      transient: p.transient,
    });
  }
  return pages;
}

const escape = (s: string | number): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function renderHtml(page: Page): string {
  const rows = (page.descriptions ?? [])
    .map((d) => `<tr><td><code>${escape(d.error_description)}</code></td><td>${d.status}</td></tr>`)
    .join('');
  const table = rows
    ? `<h2>Descriptions</h2><table><tr><th>error_description</th><th>status</th></tr>${rows}</table>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(page.title)} · Gatehouse</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
code{background:#f1f3f7;padding:0 .25rem;border-radius:3px}table{border-collapse:collapse}td,th{border-bottom:1px solid #dde1e8;padding:.3rem .6rem;text-align:left}
.what{background:#f6f8fb;border-left:4px solid #3056d3;padding:.6rem 1rem}</style></head><body>
<p><code>${escape(page.code)}</code> · HTTP ${page.status} · ${page.transient ? 'transient' : 'permanent'}</p>
<h1>${escape(page.title)}</h1><p>${escape(page.summary)}</p>
<div class="what"><strong>What the client must do.</strong> ${escape(page.client_action)}</div>${table}</body></html>`;
}

/**
 * GET /problems/{slug}: the page every OAuth `error_uri` and problem `type` points to, saying what
 * happened and what the client must do. HTML, or JSON for clients that ask for it.
 */
export function problemPages(app: FastifyInstance): void {
  const pages = catalogPages();
  app.get<{ Params: { slug: string } }>('/problems/:slug', async (request, reply) => {
    const page = pages.get(request.params.slug);
    if (!page) throw new ProblemError('not_found', `There is no problem page '${request.params.slug}'.`);
    reply.header('cache-control', 'public, max-age=3600').header('vary', 'accept');
    const wantsJson = /\bapplication\/(problem\+)?json\b/.test(request.headers.accept ?? '');
    return wantsJson ? reply.send(page) : reply.type('text/html; charset=utf-8').send(renderHtml(page));
  });
}
