import type { FastifyInstance } from 'fastify';
import { demoCallbackPage } from './demo-callback.js';
import type { DemoFlows } from './demo-flows.js';
import { landingPage } from './landing.js';
import { notFoundPage } from './not-found.js';
import { problemPages } from './problem-pages.js';
import type { Brand } from '../html/brand.js';
import type { Languages } from '../i18n/index.js';
import type { SitePages } from './site.js';

export interface BrowserPagesOptions {
  readonly issuer: string;
  /** The languages of the pages (i18n/). */
  readonly languages: Languages;
  /** The product's name, logo and stylesheet (BRAND_*). */
  readonly brand: Brand;
  /** Where the REST API is served (its document is then linked, and its 404s stay problem+json); none when undefined. */
  readonly apiPrefix?: string;
  /** `serve --demo`: the requests it printed, for /demo/callback; that page is served only then. */
  readonly demo?: DemoFlows;
}

/** One entry of the site's pages: its name, and what serves it. */
export interface SitePage {
  readonly name: string;
  readonly serve: (app: FastifyInstance, site: SitePages, options: BrowserPagesOptions) => void;
}

/**
 * What a browser meets outside the authorization flow, one entry per page: the landing page, the
 * 404 page, the error catalog's pages (/problems/), the demo's callback (with `serve --demo` only).
 */
export const SITE_PAGES: readonly SitePage[] = [
  { name: 'landing', serve: (app, site, { issuer, apiPrefix }) => landingPage(app, site, issuer, apiPrefix) },
  { name: 'not-found', serve: (app, site, { apiPrefix }) => app.setNotFoundHandler(notFoundPage(site, apiPrefix)) },
  { name: 'problems', serve: (app, site) => problemPages(app, site) },
  {
    name: 'demo-callback',
    serve: (app, site, { issuer, demo }) => {
      if (demo) demoCallbackPage(app, site, issuer, demo);
    },
  },
];

export function browserPages(app: FastifyInstance, options: BrowserPagesOptions): void {
  const base = new URL(options.issuer).pathname.replace(/\/+$/, '');
  const site: SitePages = { base, languages: options.languages, brand: options.brand };
  for (const page of SITE_PAGES) page.serve(app, site, options);
}
