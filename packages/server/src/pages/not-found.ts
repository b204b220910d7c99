import { PROBLEMS } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { linkTo, renderErrorPage } from '../html/layout.js';
import { siteView, type SitePages } from './site.js';
import { sendPage } from '../html/responses.js';
import { notFoundHandler } from '../http/problems.js';

/**
 * Whether the caller is a browser: its Accept lists text/html and no JSON. API clients (JSON,
 * `*\/*`, or no Accept at all) keep the problem+json answer.
 */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\btext\/html\b/.test(accept) && !/\bapplication\/(problem\+)?json\b/.test(accept);
}

/**
 * The 404 of a path no route has: the catalog's `not_found`, as a page for a browser, else as
 * problem+json. Under the REST API's prefix it is always problem+json: the API answers in one language.
 */
export function notFoundPage(site: SitePages, apiPrefix: string | undefined) {
  const inApi = (url: string): boolean =>
    apiPrefix !== undefined &&
    (url === apiPrefix || url.startsWith(`${apiPrefix}/`) || url.startsWith(`${apiPrefix}?`));
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!wantsHtml(request) || inApi(request.url)) return notFoundHandler(request, reply);
    request.server.metrics?.countProblem('not_found');
    const entry = PROBLEMS.not_found;
    const path = request.url.split('?')[0] ?? '';
    const view = siteView(site, reply);
    const { t } = view.text;
    return sendPage(
      reply.header('vary', 'accept'),
      404,
      renderErrorPage(view, {
        status: entry.status,
        code: entry.code,
        slug: entry.slug,
        title: t('error.not-found.title'),
        summary: t('error.not-found.detail', { path }),
        action: t('error.not-found.action', { link: linkTo(`${site.base}/`) }),
      }),
    );
  };
}
