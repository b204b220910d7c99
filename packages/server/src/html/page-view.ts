import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValue } from '../http/cookies.js';
import type { Languages, PageLocale, PageText } from '../i18n/index.js';
import type { Brand } from './brand.js';

/** The URL prefix of the server's pages (the issuer's path, '' at the root). */
export type BasePath = string;

/** What every page is made with: the languages of its words, and the brand it wears. */
export interface PageSite {
  readonly languages: Languages;
  readonly brand: Brand;
}

/** The cookie that remembers the language a person chose on a page (language-switch.ts). */
export const LOCALE_COOKIE = 'gatehouse_locale';

/**
 * What a page is rendered with: where the server's pages are, the words of its language, and the
 * path of a GET that shows it again, where the language switcher returns.
 */
export interface PageView {
  readonly base: BasePath;
  readonly text: PageText;
  /** The product's name, logo and stylesheet (BRAND_*). */
  readonly brand: Brand;
  /** Under `base`: the GET that shows this page again (the flow's /authorize, the account page…). */
  readonly here: string;
}

/** What a page knows that its language may come from, besides the request's headers. */
export interface LanguageHints {
  /** The authorization request's `ui_locales` (OIDC Core §3.1.2.1). */
  readonly requested?: string | undefined;
  /** The handle of the authorization request the page belongs to (its forms' `request` field). */
  readonly flow?: string | undefined;
  /** The signed-in user's `locale` claim. */
  readonly user?: string | undefined;
  /** The GET that shows the page again; the request's own URL after a GET, else the home page. */
  readonly here?: string;
}

/**
 * The language switcher's cookie: the locale, and, when it was chosen on a page of an authorization
 * request, a digest of that request's handle, so that the choice beats the request's ui_locales
 * there (and only there: elsewhere ui_locales comes first, OIDC Core §3.1.2.1).
 */
export function localeCookieValue(locale: string, flow: string | undefined): string {
  return flow === undefined ? locale : `${locale}.${flowDigest(flow)}`;
}

function flowDigest(flow: string): string {
  return createHash('sha256').update(flow).digest('base64url').slice(0, 22);
}

/** The locale chosen for each request that showed a page: its error page speaks the same language. */
const chosenLocales = new WeakMap<FastifyRequest, PageLocale>();

/** The locale a request's page was shown in, when one was. */
export function localeShownFor(request: FastifyRequest): PageLocale | undefined {
  return chosenLocales.get(request);
}

/** The language of a page for `reply`'s request (i18n/negotiation.ts), remembered for its error page. */
export function chooseLanguage(request: FastifyRequest, languages: Languages, hints: LanguageHints): PageLocale {
  const [chosen, digest] = (cookieValue(request.headers.cookie, LOCALE_COOKIE) ?? '').split('.');
  const locale = languages.choose({
    requested: hints.requested,
    chosen: chosen === '' ? undefined : chosen,
    chosenHere: hints.flow !== undefined && digest !== undefined && digest === flowDigest(hints.flow),
    user: hints.user,
    acceptLanguage: request.headers['accept-language'],
  });
  chosenLocales.set(request, locale);
  return locale;
}

/** The view of a page answering `reply`'s request; the answer says its language (RFC 9110 §8.5). */
export function pageView(
  reply: FastifyReply,
  { languages, brand }: PageSite,
  base: BasePath,
  hints: LanguageHints = {},
): PageView {
  const { request } = reply;
  const locale = chooseLanguage(request, languages, hints);
  reply.header('content-language', locale);
  const here = hints.here ?? (request.method === 'GET' ? request.url : '/');
  return { base, text: languages.text(locale), here, brand };
}
