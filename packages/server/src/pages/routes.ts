import type { FastifyInstance } from 'fastify';
import { demoCallbackPage } from './demo-callback.js';
import type { DemoFlows } from './demo-flows.js';
import { landingPage } from './landing.js';
import { notFoundPage } from './not-found.js';
import { problemPages } from './problem-pages.js';
import type { Languages } from '../i18n/index.js';
import type { SitePages } from './site.js';

export interface BrowserPagesOptions {
  readonly issuer: string;
  /** The languages of the pages (i18n/). */
  readonly languages: Languages;
  /** Where the REST API is served (its document is then linked, and its 404s stay problem+json); none when undefined. */
  readonly apiPrefix?: string;
  /** `serve --demo`: the requests it printed, for /demo/callback; that page is served only then. */
  readonly demo?: DemoFlows;
}

/**
 * What a browser meets outside the authorization flow: the landing page, the 404 page, the error
 * catalog's pages (/problems/), the demo's callback.
 */
export function browserPages(app: FastifyInstance, options: BrowserPagesOptions): void {
  const { issuer, apiPrefix, demo, languages } = options;
  const site: SitePages = { base: new URL(issuer).pathname.replace(/\/+$/, ''), languages };
  app.setNotFoundHandler(notFoundPage(site, apiPrefix));
  landingPage(app, site, issuer, apiPrefix);
  problemPages(app, site);
  if (demo) demoCallbackPage(app, site, issuer, demo);
}
