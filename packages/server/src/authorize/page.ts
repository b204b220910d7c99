import type { FastifyInstance, HTTPMethods } from 'fastify';
import { allowOnly } from '../http/method-not-allowed.js';
import type { AuthorizePages } from './flow.js';
import { serveSignInChange, type SignInChange } from './sign-in-changes.js';

/** One path of a page and the methods it answers; any other method gets 405 with `Allow`. */
export interface PageRoute {
  readonly path: string;
  readonly methods: readonly HTTPMethods[];
}

/**
 * One entry of the pages table (`browser-pages.ts`): what a page of the authorization flow serves,
 * declared, and the function that serves it. Its routes are checked against the declaration when
 * the server starts: a route served but not declared, or declared but not served, stops the start.
 */
export interface BrowserPage {
  /** The page's name, for the table and the start-up check. */
  readonly name: string;
  readonly routes: readonly PageRoute[];
  /** Registers exactly the routes declared (on the pages' context: form bodies, HTML errors). */
  readonly serve: (app: FastifyInstance, pages: AuthorizePages) => void;
  /**
   * The page's changes to how a user signs in, each a route of its own that `servePages` serves
   * behind the one freshness rule (sign-in-changes.ts); not repeated in `routes`.
   */
  readonly signInChanges?: readonly SignInChange[];
}

/** Every route a page answers: its own and its sign-in changes'. */
function routesOf(page: BrowserPage): readonly PageRoute[] {
  const changes = (page.signInChanges ?? []).map((c) => ({ path: c.path, methods: [c.method] }));
  return [...page.routes, ...changes];
}

/** Serves every page of `table` and answers the other methods of their paths with 405. */
export function servePages(app: FastifyInstance, pages: AuthorizePages, table: readonly BrowserPage[]): void {
  const declared = new Map<string, string>();
  for (const page of table)
    for (const route of routesOf(page))
      for (const method of route.methods) declared.set(`${method} ${route.path}`, page.name);
  const served = new Set<string>();
  let serving: BrowserPage | undefined;
  app.addHook('onRoute', (route) => {
    if (serving === undefined) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const key = `${method} ${route.url}`;
      if (declared.get(key) !== serving.name)
        throw new Error(
          `the page '${serving.name}' serves ${key}, which its entry in the pages table does not declare`,
        );
      served.add(key);
    }
  });
  for (const page of table) {
    serving = page;
    page.serve(app, pages);
    for (const change of page.signInChanges ?? []) serveSignInChange(app, pages, change);
  }
  serving = undefined;
  const missing = [...declared.keys()].filter((key) => !served.has(key));
  if (missing.length > 0) throw new Error(`the pages table declares ${missing.join(', ')}, which no page serves`);
  for (const path of new Set(table.flatMap((page) => routesOf(page).map((route) => route.path)))) {
    const methods = table.flatMap((page) =>
      routesOf(page)
        .filter((r) => r.path === path)
        .flatMap((r) => r.methods),
    );
    allowOnly(app, path, methods);
  }
}
