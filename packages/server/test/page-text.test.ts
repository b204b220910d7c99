import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PageBrowser } from './_authorize.js';
import { everyPage, startPagesServer } from './_page-kinds.js';
import { untranslated } from './_page-text.js';
import type { TestServer } from './_server.js';

describe('every page speaks through the message catalog', () => {
  let server: TestServer;
  before(async () => {
    server = await startPagesServer();
  });
  after(() => server.close());

  it('a test page with a literal, an untranslated attribute and a value outside translate="no" is caught', () => {
    const page =
      '<html><head><title>⟦Ŝîĝñ⟧</title></head><body><p>⟦Ĥéĺĺö <b>x</b>⟧</p><p>Sign in</p>' +
      '<input placeholder="Name"><b translate="no">alice</b><img alt=""></body></html>';
    assert.deepEqual(untranslated(page), ['input[…]: Name', 'Sign in']);
  });

  it('every kind of page, in the pseudo-locale, shows no word that bypassed the catalog (text, title, aria-label, placeholder, alt, button values)', async () => {
    const pages = await everyPage({
      server,
      browser: () => {
        const browser = new PageBrowser(server);
        browser.localeCookie = 'gatehouse_locale=en-XA';
        return browser;
      },
      request: {},
    });
    assert.ok(pages.length >= 25, `${pages.length} pages`);
    const failures = pages
      .map(({ kind, page }) => ({
        kind,
        lang: /<html lang="([^"]*)"/.exec(page.html)?.[1],
        words: untranslated(page.html),
      }))
      .filter((p) => p.lang !== 'en-XA' || p.words.length > 0);
    assert.deepEqual(failures, []);
  });
});
