import type { FastifyInstance } from 'fastify';
import { setCookie, type CookiePolicy } from '../http/cookies.js';
import type { Languages } from '../i18n/index.js';
import { LANGUAGE_PATH } from './language-paths.js';
import { LOCALE_COOKIE, localeCookieValue, type BasePath } from './page-view.js';

/** A language chosen on a page is remembered for a year. */
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The path of the authorization endpoint, whose query is the handle of a flow's pages. */
const AUTHORIZE_PREFIX = '/authorize?';

/**
 * A path of this server to come back to: one slash then anything but a second slash or a backslash
 * (`//host` and `/\host` are other origins to a browser), no control character. Else the home page.
 */
function returnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || /^\/[/\\]/.test(value)) return '/';
  return [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ? '/' : value;
}

/**
 * GET /language?lang=…&return=…: the language switcher of every page (html/layout.ts). It remembers
 * the language in the `gatehouse_locale` cookie (SameSite=Lax, HttpOnly) and sends the browser back
 * to the page (303), which then speaks it. A GET, like Keycloak's `kc_locale`: it acts for nobody and
 * changes only the language of one's own pages, so it needs no CSRF token and works without script;
 * it leads only to a path of this server. Chosen on a page of an authorization request, the choice
 * beats the request's ui_locales for that request (page-view.ts).
 */
export function serveLanguageSwitch(
  app: FastifyInstance,
  { languages, base, cookies }: { languages: Languages; base: BasePath; cookies: CookiePolicy },
): void {
  app.get<{ Querystring: Record<string, unknown> }>(LANGUAGE_PATH, async (request, reply) => {
    const back = returnPath(request.query.return);
    const lang = request.query.lang;
    const locale = typeof lang === 'string' ? languages.offered.find((l) => l === lang) : undefined;
    if (locale !== undefined) {
      const flow = back.startsWith(AUTHORIZE_PREFIX) ? back.slice(AUTHORIZE_PREFIX.length) : undefined;
      reply.header(
        'set-cookie',
        setCookie(LOCALE_COOKIE, localeCookieValue(locale, flow), LOCALE_COOKIE_MAX_AGE, cookies),
      );
    }
    return reply.code(303).header('location', `${base}${back}`).header('cache-control', 'no-store').send();
  });
}
