import { CSRF_FIELD } from './csrf.js';

/**
 * What every HTML page of the server shares: the layout, the escaping, the client and user marks,
 * the hidden fields of a form, and the error page. Every value that comes from a request, a client
 * or a user goes through `escapeHtml`; the pages carry no inline style and no script (but the
 * form_post page's one, allowed by its digest: `authorization-response.ts`), so the
 * Content-Security-Policy can forbid both. The pages themselves live with their features.
 */

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The URL prefix of the server's pages (the issuer's path, '' at the root). */
export type BasePath = string;

// The mark of the product: SVG presentation attributes, which a CSP without 'unsafe-inline' allows.
const LOGO =
  '<svg class="logo" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path fill="currentColor" d="M12 2 4 5.5v5.6c0 4.9 3.4 9.5 8 10.9 4.6-1.4 8-6 8-10.9V5.5L12 2Zm0 4.2a3 3 0 0 1 3 3V11h.6c.5 0 .9.4.9.9v4.2c0 .5-.4.9-.9.9H8.4a.9.9 0 0 1-.9-.9v-4.2c0-.5.4-.9.9-.9H9V9.2a3 3 0 0 1 3-3Zm0 1.6c-.8 0-1.4.6-1.4 1.4V11h2.8V9.2c0-.8-.6-1.4-1.4-1.4Z"/></svg>';

/** How a page is laid out: `wide` for reference pages (the error catalog), a form's width otherwise. */
export interface LayoutOptions {
  readonly wide?: boolean;
}

/** The product's name: the brand of every page, and the end of every page's title. */
const PRODUCT = 'Gatehouse';

/** A page's title: what it is, then the product; the product's own page (`/`) is the product alone. */
function pageTitle(title: string): string {
  return title === PRODUCT ? PRODUCT : `${title} · ${PRODUCT}`;
}

export function layout(base: BasePath, title: string, content: string, options: LayoutOptions = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(pageTitle(title))}</title>
<link rel="stylesheet" href="${base}/assets/gatehouse.css">
<link rel="icon" href="${base}/assets/gatehouse.svg" type="image/svg+xml">
</head>
<body>
<main class="card${options.wide ? ' card-wide' : ''}">
<header class="brand">${LOGO}<span>${PRODUCT}</span></header>
${content}
</main>
<footer class="page-footer">Protected by ${PRODUCT} · OAuth 2.0 authorization server</footer>
</body>
</html>
`;
}

/** A round badge with the first letter of a name, standing in for the client's logo. */
export function monogram(name: string, kind: 'client' | 'user'): string {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  return `<span class="mark mark-${kind}" aria-hidden="true">${escapeHtml(letter)}</span>`;
}

export function hiddenFields(csrfToken: string, query: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="request" value="${escapeHtml(query)}">`;
}

export interface ErrorPage {
  readonly status: number;
  /** The catalog code and its page slug. */
  readonly code: string;
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  readonly detail?: string;
  readonly action: string;
  /** Where a "Try again" link leads, for a transient failure (an upstream outage); none when absent. */
  readonly retry?: string;
}

export function renderErrorPage(base: BasePath, page: ErrorPage): string {
  const detail =
    page.detail && page.detail !== page.summary
      ? `<p class="detail"><strong>Details</strong> ${escapeHtml(page.detail)}</p>\n`
      : '';
  return layout(
    base,
    page.title,
    `<div class="parties"><span class="mark mark-error" aria-hidden="true">!</span></div>
<h1>${escapeHtml(page.title)}</h1>
<p class="summary">${escapeHtml(page.summary)}</p>
${detail}
<section class="what-to-do"><h2>What to do</h2><p>${escapeHtml(page.action)}</p></section>
${page.retry === undefined ? '' : `<p><a class="button primary" href="${escapeHtml(page.retry)}">Try again</a></p>\n`}<p class="fine-print">Error <code>${escapeHtml(page.code)}</code> · HTTP ${page.status} · <a href="${base}/problems/${escapeHtml(page.slug)}">About this error</a></p>`,
  );
}
