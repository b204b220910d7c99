import type { EmailCodes } from './sign-in/steps/index.js';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';
import { FormParams } from '../http/form.js';
import { serveAssets } from '../html/assets.js';
import { BROWSER_PAGES } from './browser-pages.js';
import { errorPageHints, type AccountLinks, type AuthorizePages, type UpstreamDirectory } from './flow.js';
import { serveLanguageSwitch } from '../html/language-switch.js';
import { servePages, type BrowserPage } from './page.js';
import { htmlErrorHandler } from '../html/responses.js';
import { cookiePolicyFor } from '../http/cookies.js';

/** The sign-in and consent forms are small; anything larger is refused before parsing. */
const PAGE_FORM_BODY_LIMIT = 16 * 1024;

/**
 * The authorization pages (the table of `browser-pages.ts`) and their assets, in their own
 * encapsulated context: form bodies only, and errors answered as HTML pages for people.
 */
export async function authorizationPages(
  app: FastifyInstance,
  {
    context,
    upstreams,
    accountLinks,
    emailCodes,
    morePages = [],
  }: {
    context: ServerContext;
    upstreams?: UpstreamDirectory;
    /** Self-service accounts (accounts/, above this folder): the paths the sign-in page links to. */
    accountLinks?: AccountLinks;
    /** The mailed code of the sign-in's e-mail verification (accounts/, EMAIL_VERIFICATION=required). */
    emailCodes?: EmailCodes;
    /** Pages of a feature above this folder served on this context (federation's, from app.ts). */
    morePages?: readonly BrowserPage[];
  },
): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: PAGE_FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, FormParams.parse(body as string));
    },
  );
  const base = new URL(context.issuer).pathname.replace(/\/+$/, '');
  const pages: AuthorizePages = {
    context,
    base,
    cookies: cookiePolicyFor(context.issuer),
    upstreams,
    accountLinks,
    emailCodes,
  };
  app.setErrorHandler(htmlErrorHandler(base, context, errorPageHints(context)));
  serveAssets(app, context.brand);
  serveLanguageSwitch(app, { languages: context.languages, base, cookies: pages.cookies });
  servePages(app, pages, [...BROWSER_PAGES, ...morePages]);
}
