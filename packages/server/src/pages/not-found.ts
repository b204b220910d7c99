import { PROBLEMS } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderErrorPage, type BasePath } from '../html/layout.js';
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
export function notFoundPage(base: BasePath, apiPrefix: string | undefined) {
  const inApi = (url: string): boolean =>
    apiPrefix !== undefined &&
    (url === apiPrefix || url.startsWith(`${apiPrefix}/`) || url.startsWith(`${apiPrefix}?`));
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!wantsHtml(request) || inApi(request.url)) return notFoundHandler(request, reply);
    request.server.metrics?.countProblem('not_found');
    const entry = PROBLEMS.not_found;
    const path = request.url.split('?')[0] ?? '';
    return sendPage(
      reply.header('vary', 'accept'),
      404,
      renderErrorPage(base, {
        status: entry.status,
        code: entry.code,
        slug: entry.slug,
        title: 'Page not found',
        summary: entry.summary,
        detail: `There is no page at ${path}.`,
        action: `Check the address, or go to the home page (${base}/) to see what this server offers.`,
      }),
    );
  };
}
