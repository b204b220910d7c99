import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAUTH_ERRORS, OAUTH_REASONS, PROBLEMS } from '@gatehouse/contract';
import { assertPageHeaders, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

async function get(server: TestServer, path: string, accept = 'text/html'): Promise<PageAnswer> {
  const response = await fetch(`${server.url}${path}`, { headers: { accept }, redirect: 'manual' });
  return {
    status: response.status,
    headers: response.headers,
    html: await response.text(),
    location: response.headers.get('location') ?? undefined,
  };
}

/** The headers of every page (html/responses.ts), and the pages' layout: stylesheet, icon, no script. */
function assertServerPage(page: PageAnswer, where: string): void {
  assertPageHeaders(page);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff', where);
  assert.equal(page.headers.get('referrer-policy'), 'no-referrer', where);
  assert.match(page.html, /<link rel="stylesheet" href="\/assets\/gatehouse.css">/, where);
  assert.match(page.html, /<link rel="icon" href="\/assets\/gatehouse.svg" type="image\/svg\+xml">/, where);
  assert.match(page.html, /<main class="card[ "]/, where);
  assert.doesNotMatch(page.html, /<script|<style|style=/, where);
}

/** The targets of the links of a page, in order. */
const linksOf = (html: string): string[] => [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1] as string);

for (const dialect of DIALECTS) {
  describe(`the error catalog's pages, /problems/ (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    it('GET /problems/ lists every OAuth error, every OAuth reason and every problem of the catalog, each linking to its page', async () => {
      const index = await get(server, '/problems/');
      assert.equal(index.status, 200);
      assertServerPage(index, '/problems/');
      const links = new Set(linksOf(index.html));
      for (const e of Object.values(OAUTH_ERRORS)) assert.ok(links.has(`/problems/${e.page}`), e.error);
      for (const [reason, r] of Object.entries(OAUTH_REASONS))
        assert.ok(links.has(`/problems/${OAUTH_ERRORS[r.error].page}#${reason}`), reason);
      for (const p of Object.values(PROBLEMS)) assert.ok(links.has(`/problems/${p.slug}`), p.code);
      assert.equal((await get(server, '/problems')).html, index.html, '/problems is the same index');
    });

    it("every link of the index is a page in the server's look, with the pages' headers; every reason has its anchor", async () => {
      const index = await get(server, '/problems/');
      const targets = linksOf(index.html).filter((href) => href.startsWith('/problems/'));
      const pages = new Map<string, PageAnswer>();
      for (const href of targets) {
        const [path, anchor] = href.split('#') as [string, string | undefined];
        const page = pages.get(path) ?? (await get(server, path));
        pages.set(path, page);
        assert.equal(page.status, 200, path);
        assertServerPage(page, path);
        assert.match(page.html, /What the client must do/, path);
        assert.ok(page.html.includes(`href="/problems/"`), `${path} links back to the index`);
        if (anchor) assert.ok(page.html.includes(`id="${anchor}"`), `${href}: the reason's line`);
      }
      assert.equal(pages.size, Object.keys(OAUTH_ERRORS).length + Object.keys(PROBLEMS).length);
    });

    it('a page asked for as JSON keeps its JSON form, with nosniff, no caching and Vary: Accept', async () => {
      const page = await get(server, '/problems/invalid-grant', 'application/json');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^application\/json\b/);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.match(page.headers.get('vary') ?? '', /accept/i);
      const body = JSON.parse(page.html) as { code: string; descriptions: { reason: string }[] };
      assert.equal(body.code, 'invalid_grant');
      assert.ok(body.descriptions.some((d) => d.reason === 'refresh_token_revoked'));
    });

    it('an unknown page is the 404 page for a browser and the not-found problem for an API client', async () => {
      const page = await get(server, '/problems/no-such-error');
      assert.equal(page.status, 404);
      assertServerPage(page, '/problems/no-such-error');
      assert.match(page.html, /There is no page at \/problems\/no-such-error\./);
      const problem = await get(server, '/problems/no-such-error', 'application/json');
      assert.equal(problem.status, 404);
      assert.match(problem.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal((JSON.parse(problem.html) as { type: string }).type, '/problems/not-found');
    });

    it('every page is titled "<what it is> · Gatehouse", and the home page "Gatehouse" once', async () => {
      const home = await get(server, '/');
      assertServerPage(home, '/');
      assert.match(home.html, /<title>Gatehouse<\/title>/);
      assert.match((await get(server, '/problems/')).html, /<title>[^<·]+ · Gatehouse<\/title>/);
    });

    it('GET /favicon.ico is the icon of the pages, cached for a long time', async () => {
      for (const path of ['/favicon.ico', '/assets/gatehouse.svg']) {
        const icon = await get(server, path, 'image/*');
        assert.equal(icon.status, 200, path);
        assert.match(icon.headers.get('content-type') ?? '', /^image\/svg\+xml/, path);
        assert.equal(icon.headers.get('x-content-type-options'), 'nosniff', path);
        const maxAge = Number(/max-age=(\d+)/.exec(icon.headers.get('cache-control') ?? '')?.[1]);
        assert.ok(maxAge >= 7 * 24 * 3600, `${path} is cached a week or more`);
        assert.match(icon.html, /^<svg /, path);
      }
    });
  });
}
