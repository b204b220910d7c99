import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorizationQuery, hiddenField, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { everyPage, langOf, pageClients, startPagesServer } from './_page-kinds.js';
import type { TestClient, TestServer } from './_server.js';

/**
 * The language of every page: ui_locales (OIDC Core §3.1.2.1) for the pages of an authorization
 * request, then the language chosen on a page (the gatehouse_locale cookie), then the user's locale
 * claim, then Accept-Language (RFC 9110 §12.5.4), then DEFAULT_LOCALE; `<html lang>` says which.
 */
describe('the language of every page', () => {
  let server: TestServer;
  before(async () => {
    server = await startPagesServer({ defaultLocale: 'ja' });
  });
  after(() => server.close());

  /** Every page, by a browser sending `headers` and `cookie`, with `request` added to authorization requests. */
  async function languagesOf(headers: Record<string, string>, cookie?: string, request: Record<string, string> = {}) {
    const pages = await everyPage({
      server,
      request,
      browser: () => {
        const browser = new PageBrowser(server);
        browser.extraHeaders = headers;
        browser.localeCookie = cookie;
        return browser;
      },
    });
    return pages.map((p) => ({ kind: p.kind, ofRequest: p.ofRequest, lang: langOf(p.page.html) }));
  }

  type Shown = { readonly kind: string; readonly ofRequest: boolean; readonly lang: string | undefined };
  const wrongly = (pages: readonly Shown[], expected: (p: Shown) => string) =>
    pages.filter((p) => p.lang !== expected(p));

  it('every kind of page: DEFAULT_LOCALE, beaten by Accept-Language, beaten by the chosen language, beaten by ui_locales on the pages of its request', async () => {
    const none = await languagesOf({});
    assert.deepEqual(
      wrongly(none, () => 'ja'),
      [],
      'DEFAULT_LOCALE',
    );
    const accepted = await languagesOf({ 'accept-language': 'fr;q=0.4, pt;q=0.9' });
    assert.deepEqual(
      wrongly(accepted, () => 'pt-BR'),
      [],
      'Accept-Language, by q-value and matched',
    );
    const chosen = await languagesOf({ 'accept-language': 'de' }, 'gatehouse_locale=ar');
    assert.deepEqual(
      wrongly(chosen, () => 'ar'),
      [],
      'the chosen language',
    );
    const requested = await languagesOf({ 'accept-language': 'de' }, 'gatehouse_locale=ar', {
      ui_locales: 'xx zh-Hans es',
    });
    assert.deepEqual(
      wrongly(requested, (p) => (p.ofRequest ? 'zh-CN' : 'ar')),
      [],
      'ui_locales, first supported wins',
    );
  });

  it('a right-to-left page says so: dir="rtl" on <html>', async () => {
    const page = await new PageBrowser(server).get('/?x');
    assert.match(page.html, /<html lang="ja" dir="ltr">/);
    const browser = new PageBrowser(server);
    browser.localeCookie = 'gatehouse_locale=ar';
    assert.match((await browser.get('/')).html, /<html lang="ar" dir="rtl">/);
    assert.equal((await browser.get('/')).headers.get('content-language'), 'ar');
  });

  it("the switcher remembers a language in a SameSite=Lax cookie and returns to a path of this server only; chosen on a page of a request, it beats that request's ui_locales, and only that one", async () => {
    const query = authorizationQuery('app', pkce().challenge, { ui_locales: 'de' });
    const browser = new PageBrowser(server);
    const signIn = await browser.authorize(query);
    assert.equal(langOf(signIn.html), 'de');
    const link = /href="(\/language\?lang=fr&#38;return=[^"]+)"/.exec(signIn.html)?.[1]?.replaceAll('&#38;', '&');
    assert.ok(link, 'the sign-in page links to each language');
    const switched = await browser.get(link);
    assert.equal(switched.status, 303);
    assert.equal(switched.location, `/authorize?${query}`);
    assert.match(
      switched.headers.get('set-cookie') ?? '',
      /^gatehouse_locale=fr\.[\w-]+; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
    );
    assert.equal(langOf((await browser.authorize(query)).html), 'fr', 'the choice beats ui_locales on its own request');
    const failed = await browser.login(await browser.authorize(query), 'alice', 'wrong');
    assert.equal(langOf(failed.html), 'fr', 'and on its next pages');
    const other = authorizationQuery('app', pkce().challenge, { ui_locales: 'de', state: 'another' });
    assert.equal(langOf((await browser.authorize(other)).html), 'de', 'another request keeps its ui_locales');
    assert.equal(langOf((await browser.get('/')).html), 'fr', 'elsewhere the choice is remembered');
    for (const away of ['//evil.example/x', '/\\evil.example', 'https://evil.example/'])
      assert.equal((await browser.get(`/language?lang=de&return=${encodeURIComponent(away)}`)).location, '/');
  });

  it('ui_locales of a pushed request (RFC 9126) is kept through the sign-in, its refusal and the consent', async () => {
    const request = new URLSearchParams(authorizationQuery('app', pkce().challenge, { ui_locales: 'es' }));
    const pushed = await server.post('/par', Object.fromEntries(request), { as: pageClients.app as TestClient });
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const browser = new PageBrowser(server);
    const signIn = await browser.authorize(new URLSearchParams({ client_id: 'app', request_uri }).toString());
    assert.equal(langOf(signIn.html), 'es', 'the sign-in page');
    const refused = await browser.login(signIn, 'alice', 'wrong');
    assert.equal(langOf(refused.html), 'es', 'the refused sign-in');
    const forged = await browser.post('/login', {
      request: hiddenField(signIn.html, 'request'),
      username: 'alice',
      password: PASSWORD,
    });
    assert.equal(langOf(forged.html), 'es', 'the error page of a form without its CSRF token');
    const done = await browser.login(refused, 'alice', PASSWORD);
    assert.equal(langOf((await browser.get(done.location as string)).html), 'es', 'the consent page');
  });

  it("the user's locale claim speaks on the pages of a signed-in user without ui_locales or a chosen language, before Accept-Language; userinfo releases it with profile", async () => {
    await server.context.store.updateUserClaims('alice', { locale: 'pt-BR' }, server.clock.now());
    const browser = new PageBrowser(server);
    browser.extraHeaders = { 'accept-language': 'de' };
    const query = authorizationQuery('app', pkce().challenge);
    const done = await browser.login(await browser.authorize(query), 'alice', PASSWORD);
    const consent = await browser.get(done.location as string);
    assert.equal(langOf(consent.html), 'pt-BR');
    const account = await browser.get('/account');
    assert.equal(langOf(account.html), 'pt-BR');
    const saved = await browser.post('/account/language', {
      csrf_token: hiddenField(account.html, 'csrf_token'),
      locale: 'ja',
    });
    assert.equal(saved.location, '/account?done=language');
    assert.equal((await server.context.store.findUser('alice'))?.claims.locale, 'ja');
    assert.equal(langOf((await browser.get('/account')).html), 'ja');
    const tokens = await server.issueGrant(pageClients.app as TestClient, 'alice', ['openid', 'profile']);
    const userinfo = await fetch(`${server.url}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(((await userinfo.json()) as { locale?: string }).locale, 'ja');
    await server.context.store.updateUserClaims('alice', {}, server.clock.now());
  });
});
