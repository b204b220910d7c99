import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DIALECTS, type Dialect } from './_dialects.js';
import { addTestUser, authorizationQuery, CALLBACK, hiddenField, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import {
  answered,
  assertCatalogAnswer,
  contentTypes,
  delivered,
  delivery,
  formEncode,
  fuzz,
  hostileForm,
  hostileText,
  junkHeaders,
  nearlyRightForm,
  outcomeOf,
  sendRaw,
  type RawAnswer,
  type RawRequest,
  withControlChar,
} from './_fuzz.js';
import { startTestServer, type TestServer } from './_server.js';

/**
 * The authorization pages (GET and POST /authorize, POST /login, POST /consent) under random and
 * hostile input: no 5xx, no crash; every error a catalog page or a redirect carrying a catalog error;
 * no input ever reflected as markup; and no redirect or form post (response_mode=form_post) anywhere
 * but to a redirect URI registered for the client named (RFC 6749 §4.1.2.1) or back to this server. On both dialects: PostgreSQL
 * refuses text that SQLite stores (U+0000), so what reaches the store is fuzzed on each.
 */
for (const dialect of DIALECTS)
  describe(`fuzzing the authorization pages: /authorize, /login, /consent [${dialect}]`, () =>
    fuzzAuthorizationPages(dialect));

function fuzzAuthorizationPages(dialect: Dialect): void {
  const FORM = 'application/x-www-form-urlencoded';
  const ISSUER = 'http://gatehouse.test';
  const KEEP_QUERY = 'https://app.example/cb?keep=1';
  const PRIVATE_USE = 'com.example.app:/oauth';
  /** The redirect URIs each client registered: the only places a redirect may go to, besides this server. */
  const REGISTERED: Readonly<Record<string, readonly string[]>> = {
    'fuzz-app': [CALLBACK, KEEP_QUERY, PRIVATE_USE],
    'fuzz-spa': [CALLBACK],
    'fuzz-service': [CALLBACK],
  };
  // Placeholders in generated forms, replaced per run by the session's values (plain ASCII: form
  // encoding leaves them as they are).
  const CSRF_HERE = 'fuzzCsrfPlaceholder';
  const REQUEST_HERE = 'fuzzRequestPlaceholder';
  const { challenge } = pkce();
  let server: TestServer;
  let signedInCookie: string;

  before(async () => {
    // Trusting X-Forwarded-For lets the fuzzer come from many addresses, past the per-address throttle.
    server = await startTestServer({ dialect, trustProxy: true });
    await server.addClient({
      id: 'fuzz-app',
      name: 'Fuzz <App> "&"',
      redirectUris: [...(REGISTERED['fuzz-app'] as string[])],
    });
    await server.addClient({ id: 'fuzz-spa', public: true, redirectUris: [CALLBACK] });
    await server.addClient({ id: 'fuzz-service', grantTypes: ['client_credentials'], redirectUris: [CALLBACK] });
    await addTestUser(server, 'alice');
  });
  after(() => server.close());

  /** A browser signed in as alice, for the requests that need a signed-in session. */
  async function signIn(): Promise<{ browser: PageBrowser; consentPage: Awaited<ReturnType<PageBrowser['get']>> }> {
    const browser = new PageBrowser(server);
    const page = await browser.authorize(authorizationQuery('fuzz-app', challenge));
    assert.equal((await browser.login(page, 'alice', PASSWORD)).status, 303);
    const consentPage = await browser.authorize(
      authorizationQuery('fuzz-app', challenge, { scope: 'contacts:read contacts:write' }),
    );
    assert.equal(consentPage.status, 200);
    return { browser, consentPage };
  }

  // --- what the fuzzer sends -----------------------------------------------------------------------

  const clientId = fc.oneof(
    fc.constantFrom(
      'fuzz-app',
      'fuzz-app',
      'fuzz-spa',
      'fuzz-service',
      'unknown',
      'FUZZ-APP',
      '__proto__',
      'constructor',
    ),
    withControlChar(fc.constantFrom('fuzz-app', 'fuzz-spa')),
  );
  const AUTHORIZE_FIELDS: Record<string, fc.Arbitrary<string>> = {
    response_type: fc.constantFrom('code', 'code', 'code', 'token', 'code id_token', 'CODE', 'none'),
    client_id: clientId,
    redirect_uri: fc.constantFrom(
      CALLBACK,
      CALLBACK,
      KEEP_QUERY,
      PRIVATE_USE,
      `${CALLBACK}/`,
      CALLBACK.toUpperCase(),
      `${CALLBACK}#x`,
      `${CALLBACK}?x=1`,
      'https://evil.example/callback',
      'javascript:alert(1)',
      '//evil.example',
      'http://127.0.0.1:8765/callback/../evil',
      'http://127.0.0.1:8766/callback',
      'http://localhost:8765/callback',
      'http://127.0.0.2:8765/callback',
    ),
    scope: fc.constantFrom(
      'contacts:read',
      'contacts:read contacts:write',
      'contacts:write',
      'admin',
      'contacts:read\u0000',
      ' ',
      'a"b',
    ),
    state: hostileText,
    code_challenge: fc.constantFrom(challenge, challenge, 'short', `${challenge}x`, '+'.repeat(43), '='.repeat(43)),
    code_challenge_method: fc.constantFrom('S256', 'S256', 'plain', 's256', 'RS256'),
    response_mode: fc.constantFrom('query', 'form_post', 'form_post', 'fragment', 'FORM_POST', 'form_post.jwt'),
  };

  /** The query of an authorization request: valid and near-valid ones, and wholly hostile ones. */
  const authorizeQuery: fc.Arbitrary<Buffer> = fc.oneof(
    { weight: 2, arbitrary: hostileForm(AUTHORIZE_FIELDS) },
    {
      weight: 2,
      arbitrary: nearlyRightForm(Object.fromEntries(new URLSearchParams(authorizationQuery('fuzz-app', challenge)))),
    },
    { weight: 1, arbitrary: fc.record(AUTHORIZE_FIELDS).map((q) => Buffer.from(new URLSearchParams(q).toString())) },
  );

  /** Every redirect goes back to this server, or to a redirect URI registered for the one client named. */
  function assertSafeRedirect(answer: RawAnswer, query: string): void {
    // A form_post answer (a 200 page) posts to its form's action: it must be a registered URI too.
    const action = /<form id="response" method="post" action="([^"]*)"/.exec(answer.text)?.[1];
    if (answer.status !== 302 && answer.status !== 303 && action === undefined) return;
    const posted = action?.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
    // Compared as a redirect would be: the URI followed by where its parameters would start.
    const location =
      posted === undefined ? (answer.headers.location ?? '') : `${posted}${posted.includes('?') ? '&' : '?'}`;
    if (location.startsWith('/authorize?')) return;
    const ids = new URLSearchParams(query).getAll('client_id');
    assert.equal(ids.length, 1, `a redirect only for a request naming one client: ${location}`);
    const registered = Object.hasOwn(REGISTERED, ids[0] as string) ? (REGISTERED[ids[0] as string] ?? []) : [];
    // RFC 8252 §7.3: a registered loopback IP literal URI matches on any port; every other exactly.
    const anyLoopbackPort = (uri: string) => uri.replace(/^http:\/\/(127\.0\.0\.1|\[::1\])(:\d+)?\//, 'http://$1/');
    assert.ok(
      registered.some((uri) =>
        anyLoopbackPort(location).startsWith(anyLoopbackPort(uri.includes('?') ? `${uri}&` : `${uri}?`)),
      ),
      `a redirect to a URI registered for ${ids[0]}: ${location}`,
    );
  }

  function cookieHeader(cookie: string | undefined): Array<[string, string]> {
    return cookie === undefined ? [] : [['cookie', cookie]];
  }

  const hostileCookie = fc.oneof(
    fc.constantFrom(
      'gatehouse_session=',
      'gatehouse_session=__proto__',
      'gatehouse_session=a; gatehouse_session=b',
      `gatehouse_session=${'A'.repeat(43)}`,
      'gatehouse_session',
      '=; ;=;',
    ),
    hostileText.filter((s) => /^[\x20-\x7e]*$/.test(s)).map((s) => `gatehouse_session=${s}`),
  );
  const address = fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `10.0.${a}.${b}`);

  it('GET /authorize with hostile queries and cookies: catalog pages or catalog redirects, only to registered URIs', async (t) => {
    signedInCookie = (await signIn()).browser.cookie as string;
    const cookie = fc.oneof(
      fc.constant(undefined),
      fc.constant(null).map(() => signedInCookie),
      hostileCookie,
    );
    await fuzz(
      t,
      'GET /authorize with hostile queries',
      [
        authorizeQuery,
        cookie,
        junkHeaders,
        fc.constantFrom('GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE'),
      ],
      async (query, sessionCookie, junk, method) => {
        const request: RawRequest = {
          method,
          target: Buffer.concat([Buffer.from('/authorize?'), query]),
          headers: [...cookieHeader(sessionCookie), ...junk],
        };
        const answer = await sendRaw(server.url, request);
        if (!answered(answer, 'whole')) return 'no answer';
        if (method === 'HEAD') {
          assert.ok(answer.status < 500, `no 5xx: ${answer.status}`);
          return outcomeOf(answer);
        }
        assertCatalogAnswer(answer, { kind: 'page', issuer: ISSUER });
        assertSafeRedirect(answer, query.toString('latin1'));
        return outcomeOf(answer);
      },
    );
  });

  it('POST /authorize with hostile forms, queries and content types: catalog pages, redirects only to registered URIs', async (t) => {
    const withQuery = fc.oneof(
      { weight: 4, arbitrary: fc.constant(Buffer.alloc(0)) },
      { weight: 1, arbitrary: authorizeQuery },
    );
    await fuzz(
      t,
      'POST /authorize with hostile forms',
      // The POST reads no session: any cookie, or none, must change nothing.
      [
        authorizeQuery,
        withQuery,
        fc.option(hostileCookie, { nil: undefined }),
        contentTypes([FORM]),
        delivery,
        junkHeaders,
      ],
      async (form, query, sessionCookie, contentType, how, junk) => {
        const headers: Array<[string, string | Buffer]> = [...cookieHeader(sessionCookie), ...junk];
        if (contentType !== undefined) headers.push(['content-type', contentType]);
        const target =
          query.length === 0 ? Buffer.from('/authorize') : Buffer.concat([Buffer.from('/authorize?'), query]);
        const answer = await sendRaw(server.url, { method: 'POST', target, headers, ...delivered(form, how) });
        if (!answered(answer, how)) return 'no answer';
        assertCatalogAnswer(answer, { kind: 'page', issuer: ISSUER });
        // What the server read: the query, and the form when it arrived whole.
        const read = how === 'whole' ? form.toString('latin1') : '';
        const parameters = [query.toString('latin1'), read].filter((p) => p !== '').join('&');
        assertSafeRedirect(answer, parameters);
        return outcomeOf(answer);
      },
    );
  });

  it('POST /login with hostile forms, tokens, cookies and content types: catalog pages, and sign-in only back to /authorize', async (t) => {
    const LOGIN_FIELDS: Record<string, fc.Arbitrary<string>> = {
      csrf_token: fc.constantFrom(CSRF_HERE, CSRF_HERE, CSRF_HERE, CSRF_HERE, 'x'.repeat(43), ''),
      request: fc.oneof(
        { weight: 4, arbitrary: fc.constant(REQUEST_HERE) },
        { weight: 1, arbitrary: authorizeQuery.map((q) => q.toString('latin1')) },
      ),
      username: fc.oneof(
        fc.constantFrom('alice', 'alice', 'alice', ' ALICE ', 'bob', 'alice\u0000', 'a'.repeat(65)),
        withControlChar(fc.constantFrom('alice', 'bob')),
      ),
      password: fc.constantFrom(
        PASSWORD,
        PASSWORD,
        PASSWORD,
        'wrong password',
        '',
        'p'.repeat(2000),
        `${PASSWORD}\u0000`,
      ),
    };
    const withSession = fc.constantFrom('own', 'own', 'own', 'own', 'own', 'none', 'hostile');
    const loginForm = fc.oneof(
      hostileForm(LOGIN_FIELDS),
      nearlyRightForm({ csrf_token: CSRF_HERE, request: REQUEST_HERE, username: 'alice', password: PASSWORD }),
    );
    await fuzz(
      t,
      'POST /login with hostile forms',
      [
        loginForm,
        authorizeQuery,
        withSession,
        hostileCookie,
        contentTypes([FORM]),
        delivery,
        address,
        fc.constantFrom(0, 0, 901),
        junkHeaders,
      ],
      async (form, query, session, badCookie, contentType, how, from, wait, junk) => {
        server.clock.advance(wait);
        // A fresh browser per input: GET /authorize gives it a session and a sign-in page, usually for
        // a valid request (the generated query when it is one).
        const browser = new PageBrowser(server);
        let page = await browser.authorize(query.toString('latin1'));
        // (A 200 may be a form_post answer to the client rather than the sign-in page.)
        if (!page.html.includes('action="/login"'))
          page = await browser.authorize(authorizationQuery('fuzz-app', challenge));
        const body = fill(form, hiddenField(page.html, 'csrf_token'), hiddenField(page.html, 'request'));
        const cookie = session === 'own' ? browser.cookie : session === 'hostile' ? badCookie : undefined;
        const headers: Array<[string, string | Buffer]> = [...cookieHeader(cookie), ['x-forwarded-for', from], ...junk];
        if (contentType !== undefined) headers.push(['content-type', contentType]);
        const answer = await sendRaw(server.url, {
          method: 'POST',
          target: '/login',
          headers,
          ...delivered(body, how),
        });
        if (!answered(answer, how)) return 'no answer';
        assertCatalogAnswer(answer, { kind: 'page', issuer: ISSUER });
        assertSafeRedirect(answer, requestOf(body) ?? '');
        return outcomeOf(answer);
      },
    );
  });

  it('POST /consent with hostile forms from a signed-in browser: catalog pages, codes and errors only to registered URIs', async (t) => {
    const { browser, consentPage } = await signIn();
    const csrf = hiddenField(consentPage.html, 'csrf_token');
    const request = hiddenField(consentPage.html, 'request');
    const CONSENT_FIELDS: Record<string, fc.Arbitrary<string>> = {
      csrf_token: fc.constantFrom(CSRF_HERE, CSRF_HERE, CSRF_HERE, 'x'.repeat(43)),
      request: fc.oneof(
        { weight: 3, arbitrary: fc.constant(REQUEST_HERE) },
        { weight: 2, arbitrary: authorizeQuery.map((q) => q.toString('latin1')) },
      ),
      decision: fc.constantFrom('allow', 'allow', 'deny', 'ALLOW', '', 'allow '),
    };
    const withSession = fc.constantFrom('own', 'own', 'own', 'own', 'own', 'none', 'hostile');
    const consentForm = fc.oneof(
      hostileForm(CONSENT_FIELDS),
      nearlyRightForm({ csrf_token: CSRF_HERE, request: REQUEST_HERE, decision: 'allow' }),
    );
    await fuzz(
      t,
      'POST /consent with hostile forms',
      [consentForm, withSession, hostileCookie, contentTypes([FORM]), delivery, junkHeaders],
      async (form, session, badCookie, contentType, how, junk) => {
        const body = fill(form, csrf, request);
        const cookie = session === 'own' ? browser.cookie : session === 'hostile' ? badCookie : undefined;
        const headers: Array<[string, string | Buffer]> = [...cookieHeader(cookie), ...junk];
        if (contentType !== undefined) headers.push(['content-type', contentType]);
        const answer = await sendRaw(server.url, {
          method: 'POST',
          target: '/consent',
          headers,
          ...delivered(body, how),
        });
        if (!answered(answer, how)) return 'no answer';
        assertCatalogAnswer(answer, { kind: 'page', issuer: ISSUER });
        assertSafeRedirect(answer, requestOf(body) ?? '');
        return outcomeOf(answer);
      },
    );
  });

  it('malformed HTTP on the pages (methods, raw bytes in the target, lying lengths, huge queries) gets catalog answers', async (t) => {
    const target = fc
      .tuple(
        fc.constantFrom('/authorize', '/login', '/consent', '/assets/gatehouse.css', '/problems/invalid-request'),
        fc.oneof(
          fc.constantFrom(
            '',
            '?',
            '?%',
            '?%FF%FE',
            '?client_id=%ED%A0%80',
            '/',
            '%2F',
            '/%FF',
            '/%ZZ',
            '?state=' + 'x'.repeat(20_000),
          ),
          fc
            .uint8Array({ minLength: 1, maxLength: 8 })
            .map((bytes) => Buffer.concat([Buffer.from('?x='), Buffer.from(bytes)]).toString('latin1')),
        ),
      )
      .map(([path, suffix]) => Buffer.from(`${path}${suffix}`, 'latin1'));
    await fuzz(
      t,
      'malformed HTTP on the pages',
      [
        fc.constantFrom('GET', 'POST', 'POST', 'PATCH', 'OPTIONS', 'FOO', 'get'),
        target,
        hostileForm({ a: hostileText }),
        delivery,
        junkHeaders,
      ],
      async (method, path, body, how, junk) => {
        const answer = await sendRaw(server.url, {
          method,
          target: path,
          headers: [['content-type', FORM], ...junk],
          ...delivered(body, how),
        });
        if (!answered(answer, how)) return 'no answer';
        assertCatalogAnswer(answer, { kind: ['page', 'problem'], issuer: ISSUER });
        return outcomeOf(answer);
      },
    );
  });

  /** Puts the session's CSRF token and request where the generated form has placeholders. */
  function fill(form: Buffer, csrf: string, request: string): Buffer {
    return Buffer.from(
      form.toString('latin1').replaceAll(CSRF_HERE, formEncode(csrf)).replaceAll(REQUEST_HERE, formEncode(request)),
      'latin1',
    );
  }

  /** The authorization request a form carries, as the server reads it; undefined when not one. */
  function requestOf(body: Buffer): string | undefined {
    const values = new URLSearchParams(body.toString('utf8')).getAll('request');
    return values.length === 1 ? values[0] : undefined;
  }
}
