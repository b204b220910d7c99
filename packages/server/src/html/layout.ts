import { englishProblemProse, LOCALE_NAMES, Markup, SUPPORTED_LOCALES, type MessageValues } from '../i18n/index.js';
import { escapeHtml } from '../primitives/html-escape.js';
import { brandAssetUrl, type Brand } from './brand.js';
import { CSRF_FIELD } from './csrf.js';
import { LANGUAGE_PATH } from './language-paths.js';
import type { PageView } from './page-view.js';

/**
 * What every HTML page of the server shares: the layout (its language and direction, the brand, the
 * language switcher), the escaping, the client and user marks, the hidden fields of a form, and the
 * error page. Every word comes from the message catalog (i18n/, through `view.text`); every value
 * that comes from a request, a client or a user goes through `escapeHtml`; the pages carry no inline
 * style and no script (but the form_post page's one, allowed by its digest:
 * `authorization-response.ts`), so the Content-Security-Policy can forbid both. The pages
 * themselves live with their features.
 */

export { escapeHtml };
export type { BasePath, PageView } from './page-view.js';

/** HTML made by a page (escaped already), as a message's value. */
export const markup = (html: string): Markup => new Markup(html);

/** A tag of a message that is a link: `<link>…</link>` with `values: { link: linkTo(href) }`. */
export const linkTo =
  (href: string) =>
  (chunks: string[]): string =>
    `<a href="${escapeHtml(href)}">${chunks.join('')}</a>`;

/** A value shown as it is, never translated (a name, a code): for a message's tag or a page's text. */
export const verbatim = (text: string, tag = 'span', attributes = ''): string =>
  `<${tag}${attributes} translate="no">${escapeHtml(text)}</${tag}>`;

/** A moment as a page says it (`words`, e.g. "3 days ago"), with its exact time for machines. */
export const timeHtml = (seconds: number, words: string): string =>
  `<time datetime="${new Date(seconds * 1000).toISOString()}">${escapeHtml(words)}</time>`;

/** How a page is laid out: `wide` for reference pages (the error catalog), a form's width otherwise. */
export interface LayoutOptions {
  readonly wide?: boolean;
}

/**
 * The language switcher: a link per language, each named in its own language, that sets the
 * `gatehouse_locale` cookie and comes back to `view.here` (language-switch.ts). No script.
 */
function languageSwitcher(view: PageView): string {
  const links = SUPPORTED_LOCALES.map((locale) => {
    const href = `${view.base}${LANGUAGE_PATH}?${new URLSearchParams({ lang: locale, return: view.here })}`;
    const current = locale === view.text.locale ? ' aria-current="true"' : '';
    return `<li><a href="${escapeHtml(href)}" lang="${locale}" hreflang="${locale}" translate="no"${current}>${escapeHtml(LOCALE_NAMES[locale])}</a></li>`;
  });
  return `<nav class="languages" aria-label="${view.text.t('layout.languages')}"><ul>${links.join('')}</ul></nav>`;
}

/**
 * A page: `title` is its own name (HTML, from the catalog), then the product's; undefined for the
 * product's own page (`/`), titled by the product alone.
 */
export function layout(
  view: PageView,
  title: string | undefined,
  content: string,
  options: LayoutOptions = {},
): string {
  const { text, base, brand } = view;
  const product = markup(verbatim(brand.name));
  const fullTitle =
    title === undefined
      ? text.t('layout.product-title', { product: brand.name })
      : text.t('layout.title', { page: markup(title), product: brand.name });
  return `<!doctype html>
<html lang="${text.locale}" dir="${text.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${fullTitle}</title>
<link rel="stylesheet" href="${base}/assets/gatehouse.css">
${brandHead(base, brand)}</head>
<body>
<main class="card${options.wide ? ' card-wide' : ''}">
<header class="brand">${brandMark(base, brand)}${verbatim(brand.name)}</header>
${content}
</main>
<footer class="page-footer"><p>${text.t('layout.footer', { product })}</p>
${languageSwitcher(view)}</footer>
</body>
</html>
`;
}

/** The brand's stylesheet after the pages' own, and its icon (html/assets.ts serves both). */
function brandHead(base: string, brand: Brand): string {
  const stylesheet =
    brand.stylesheet === undefined
      ? ''
      : `<link rel="stylesheet" href="${escapeHtml(brandAssetUrl(base, 'stylesheet', brand.stylesheet))}">\n`;
  const icon =
    brand.favicon === undefined
      ? `<link rel="icon" href="${base}/assets/gatehouse.svg" type="image/svg+xml">`
      : `<link rel="icon" href="${escapeHtml(brandAssetUrl(base, 'favicon', brand.favicon))}" type="${brand.favicon.type}">`;
  return `${stylesheet}${icon}\n`;
}

/** The logo beside the product's name: the brand's image (its name follows, so it says nothing itself). */
function brandMark(base: string, brand: Brand): string {
  if (brand.logo === undefined) return brand.logoHtml;
  return `<img class="brand-logo" src="${escapeHtml(brandAssetUrl(base, 'logo', brand.logo))}" alt="" height="28">`;
}

/** A round badge with the first letter of a name, standing in for the client's logo. */
export function monogram(name: string, kind: 'client' | 'user'): string {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  return `<span class="mark mark-${kind}" aria-hidden="true" translate="no">${escapeHtml(letter)}</span>`;
}

export function hiddenFields(csrfToken: string, query: string): string {
  return `<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="request" value="${escapeHtml(query)}">`;
}

/** A refusal shown above a form: the catalog entry's title in the page's language, and what to do. */
export interface Alert {
  /** The error catalog's page slug of the refusal (its title is the alert's). */
  readonly slug: string;
  readonly text: AlertText;
  /** A heading narrower than the catalog title, where the page asked for less (a password only). */
  readonly heading?: AlertText;
}

/** What an alert says under its title: a message of the catalog and its values. */
export interface AlertText {
  readonly id: Parameters<PageView['text']['t']>[0];
  readonly values?: MessageValues;
}

export function alertHtml(view: PageView, alert: Alert | undefined): string {
  if (alert === undefined) return '';
  const { t, problem } = view.text;
  const heading = alert.heading ? t(alert.heading.id, alert.heading.values) : problem(alert.slug).title;
  return `<div class="alert" role="alert"><strong>${heading}</strong> ${t(alert.text.id, alert.text.values)}</div>\n`;
}

/** An error page: a catalog entry in the page's language, and the wire's English detail as sent. */
export interface ErrorPage {
  readonly status: number;
  /** The catalog code and its page slug. */
  readonly code: string;
  readonly slug: string;
  /** HTML; the catalog entry's title in the page's language unless given. */
  readonly title?: string;
  /** The request's detail, as the wire says it (in English): shown as it was sent. */
  readonly detail?: string;
  /** HTML instead of the catalog's summary and action (the HTML 404). */
  readonly summary?: string;
  readonly action?: string;
  /** Where a "Try again" link leads, for a transient failure (an upstream outage); none when absent. */
  readonly retry?: string;
}

export function renderErrorPage(view: PageView, page: ErrorPage): string {
  const { base, text } = view;
  const prose = text.problem(page.slug);
  const title = page.title ?? prose.title;
  const detail =
    page.detail && page.detail !== englishProblemProse(page.slug).summary
      ? `<p class="detail"><strong>${text.t('error.details')}</strong> ${verbatim(page.detail, 'span', ' lang="en"')}</p>\n`
      : '';
  const retry =
    page.retry === undefined
      ? ''
      : `<p><a class="button primary" href="${escapeHtml(page.retry)}">${text.t('error.try-again')}</a></p>\n`;
  const about = { error: page.code, status: page.status, link: linkTo(`${base}/problems/${page.slug}`) };
  return layout(
    view,
    title,
    `<div class="parties"><span class="mark mark-error" aria-hidden="true">!</span></div>
<h1>${title}</h1>
<p class="summary">${page.summary ?? prose.summary}</p>
${detail}
<section class="what-to-do"><h2>${text.t('error.what-to-do')}</h2><p>${page.action ?? prose.action}</p></section>
${retry}<p class="fine-print">${text.t('error.fine-print', about)}</p>`,
  );
}
