import { OAUTH_ERRORS, OAuthError, PROBLEMS, type ProblemError } from '@gatehouse/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorHandler } from '../http/error-classifier.js';
import { renderErrorPage, type BasePath, type ErrorPage } from './layout.js';
import { localeShownFor, pageView, type LanguageHints, type PageSite, type PageView } from './page-view.js';

// A CSP source expression: an origin, or a bare scheme for private-use redirect URIs (RFC 8252 §7.1).
const SOURCE_EXPRESSION = /^([a-z][a-z0-9+.-]*:\/\/[A-Za-z0-9.[\]:-]+|[a-z][a-z0-9+.-]*:)$/;

/**
 * The CSP source that lets a form on our page end up at the client's redirect URI. Chrome applies
 * `form-action` to every redirect that follows a form submission (CSP3 §6.3.1.1 leaves it open), so
 * the 303 from POST /consent to the client would be blocked under `form-action 'self'` alone.
 */
export function formActionSource(redirectUri: string): string | undefined {
  const url = new URL(redirectUri);
  const source = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return SOURCE_EXPRESSION.test(source) ? source : undefined;
}

/** What a page's Content-Security-Policy lets through, beyond its stylesheet and icon. */
export interface PagePolicy {
  /** The `form-action` sources: where the page's forms (and the redirects after them) may lead. */
  readonly formAction: readonly string[];
  /** The `script-src` sources; none by default, and then no script runs. */
  readonly scripts?: readonly string[];
  /** The `connect-src` sources (what its script may fetch); none by default. */
  readonly connect?: readonly string[];
}

/** Headers of every page: no inline style, no framing (RFC 9700 §4.4.1.9), no caching; no script unless allowed. */
function pageHeaders(reply: FastifyReply, policy: PagePolicy): FastifyReply {
  const scripts = policy.scripts?.length ? `script-src ${policy.scripts.join(' ')}; ` : '';
  const connect = policy.connect?.length ? `connect-src ${policy.connect.join(' ')}; ` : '';
  const csp =
    `default-src 'none'; ${scripts}${connect}style-src 'self'; img-src 'self'; form-action ${policy.formAction.join(' ')}; ` +
    "frame-ancestors 'none'; base-uri 'none'";
  return reply
    .header('content-security-policy', csp)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
}

/** Sends a page; `formTargets` are the CSP sources its forms may lead to besides this server. */
export function sendPage(
  reply: FastifyReply,
  status: number,
  html: string,
  formTargets: readonly (string | undefined)[] = [],
): FastifyReply {
  const formAction = ["'self'", ...formTargets.filter((t): t is string => t !== undefined)];
  return sendPageUnder(reply, status, html, { formAction });
}

/** Sends a page under a policy of its own (the form_post page: one script, one form to the client). */
export function sendPageUnder(reply: FastifyReply, status: number, html: string, policy: PagePolicy): FastifyReply {
  return pageHeaders(reply, policy).code(status).send(html);
}

/**
 * Sends the browser to the client's redirect URI with response parameters appended to its own
 * query, which is kept (RFC 6749 §3.1.2). 302 after a GET; 303 after a POST, so that the browser
 * never re-posts the form to the client (RFC 9700 §4.12).
 */
export function redirectToClient(
  reply: FastifyReply,
  redirectUri: string,
  params: Readonly<Record<string, string | undefined>>,
  status: 302 | 303,
): FastifyReply {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.append(name, value);
  const separator = !redirectUri.includes('?') ? '?' : /[?&]$/.test(redirectUri) ? '' : '&';
  return reply
    .code(status)
    .header('location', `${redirectUri}${separator}${search}`)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send();
}

/** A catalog entry (http/error-classifier.ts), as a page: its code and slug, and the wire's detail. */
function errorPageOf(error: OAuthError | ProblemError): ErrorPage {
  if (error instanceof OAuthError) {
    const e = OAUTH_ERRORS[error.error];
    return { status: error.status, code: e.error, slug: e.page, detail: error.description };
  }
  const p = PROBLEMS[error.code];
  return { status: p.status, code: p.code, slug: p.slug, detail: error.detail };
}

/**
 * What an error page's language may come from beyond the request's headers, when no page of the
 * request chose it before the error (the authorization request's ui_locales, read by its feature).
 */
export type ErrorPageHints = (request: FastifyRequest) => Promise<LanguageHints>;

/** The error handler of the authorization pages: people get a page, not JSON, in the request's language. */
export function htmlErrorHandler(base: BasePath, site: PageSite, hintsOf?: ErrorPageHints) {
  return errorHandler({
    catalog: 'page',
    unexpected: 'unexpected error on an authorization page',
    async render(entry, request, reply) {
      const page = errorPageOf(entry);
      if (page.code === 'service_unavailable') reply.header('retry-after', '1');
      const view = await errorPageView(reply, site, base, hintsOf);
      return sendPage(reply, page.status, renderErrorPage(view, page));
    },
  });
}

/** The view of an error page: in the language its request's page was shown in, or chosen now. */
export async function errorPageView(
  reply: FastifyReply,
  site: PageSite,
  base: BasePath,
  hintsOf?: ErrorPageHints,
): Promise<PageView> {
  const shown = localeShownFor(reply.request);
  if (shown !== undefined) {
    reply.header('content-language', shown);
    const here = reply.request.method === 'GET' ? reply.request.url : '/';
    return { base, text: site.languages.text(shown), here, brand: site.brand };
  }
  const hints = hintsOf === undefined ? {} : await hintsOf(reply.request).catch(() => ({}));
  return pageView(reply, site, base, hints);
}
