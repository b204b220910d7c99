import type { FastifyInstance } from 'fastify';
import { demoCallbackPage } from './demo-callback.js';
import type { DemoFlows } from './demo-flows.js';
import { landingPage } from './landing.js';
import { notFoundPage } from './not-found.js';
import { problemPages } from './problem-pages.js';

export interface BrowserPagesOptions {
  readonly issuer: string;
  /** Where the REST API is served (its document is then linked, and its 404s stay problem+json); none when undefined. */
  readonly apiPrefix?: string;
  /** `serve --demo`: the requests it printed, for /demo/callback; that page is served only then. */
  readonly demo?: DemoFlows;
}

/**
 * What a browser meets outside the authorization flow: the landing page, the 404 page, the error
 * catalog's pages (/problems/), the demo's callback.
 */
export function browserPages(app: FastifyInstance, { issuer, apiPrefix, demo }: BrowserPagesOptions): void {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  app.setNotFoundHandler(notFoundPage(base, apiPrefix));
  landingPage(app, base, issuer, apiPrefix);
  problemPages(app, base);
  if (demo) demoCallbackPage(app, base, issuer, demo);
}
