import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { BROWSER_PAGES } from '../src/authorize/browser-pages.js';
import type { AuthorizePages } from '../src/authorize/flow.js';
import { servePages, type BrowserPage } from '../src/authorize/page.js';

const pages = {} as AuthorizePages;

describe('the pages table', () => {
  it('declares each path once, across every page', () => {
    const paths = BROWSER_PAGES.flatMap((page) => page.routes.map((route) => route.path));
    assert.equal(new Set(paths).size, paths.length);
    assert.ok(paths.includes('/login') && paths.includes('/consent') && paths.includes('/account'));
  });

  it('a page that serves a route its entry does not declare stops the start', () => {
    const page: BrowserPage = {
      name: 'stray',
      routes: [{ path: '/stray', methods: ['GET'] }],
      serve: (app) => {
        app.get('/stray', async () => 'ok');
        app.post('/stray', async () => 'ok');
      },
    };
    assert.throws(
      () => servePages(Fastify(), pages, [page]),
      /serves POST \/stray, which its entry .* does not declare/,
    );
  });

  it('a route declared and served by no page stops the start', () => {
    const page: BrowserPage = { name: 'idle', routes: [{ path: '/idle', methods: ['POST'] }], serve: () => undefined };
    assert.throws(() => servePages(Fastify(), pages, [page]), /declares POST \/idle, which no page serves/);
  });

  it('every other method of a declared path is answered 405 with Allow (RFC 9110 §15.5.6)', async () => {
    const app = Fastify();
    const page: BrowserPage = {
      name: 'form',
      routes: [{ path: '/form', methods: ['POST'] }],
      serve: (a) => {
        a.post('/form', async () => 'posted');
      },
    };
    servePages(app, pages, [page]);
    assert.equal((await app.inject({ method: 'POST', url: '/form' })).body, 'posted');
    const refused = await app.inject({ method: 'GET', url: '/form' });
    assert.equal(refused.statusCode, 405);
    assert.equal(refused.headers.allow, 'POST');
    await app.close();
  });
});
