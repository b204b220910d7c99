import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { OAUTH_ERRORS } from '@gatehouse/contract';
import {
  addTestUser,
  assertPageHeaders,
  authorizationQuery,
  callbackParams,
  CALLBACK,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

/** The hidden fields of a page's forms, in order, unescaped. */
function hiddenFields(html: string): [string, string][] {
  const unescape = (text: string): string =>
    text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
    unescape(m[1] as string),
    unescape(m[2] as string),
  ]);
}

/** The CSP directives of a page, by name. */
function cspOf(page: PageAnswer): Map<string, string> {
  const csp = page.headers.get('content-security-policy') ?? '';
  return new Map(
    csp.split(';').map((d) => {
      const [name = '', ...sources] = d.trim().split(/\s+/);
      return [name, sources.join(' ')];
    }),
  );
}

/**
 * A form_post answer (OAuth 2.0 Form Post Response Mode §2): a 200 page whose one form posts exactly
 * `expected` (names, in any order) to the redirect URI, auto-submitted by the one script the CSP
 * allows by its digest, and whose form may lead only to the redirect URI's origin.
 */
function assertFormPost(page: PageAnswer, expected: readonly string[]): Record<string, string> {
  assert.equal(page.status, 200, page.html);
  assert.equal(page.location, undefined, 'no redirect');
  assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
  assert.equal(page.headers.get('cache-control'), 'no-store');
  assert.equal(page.headers.get('x-frame-options'), 'DENY');
  const forms = [...page.html.matchAll(/<form [^>]*>/g)].map((m) => m[0]);
  assert.deepEqual(forms, [`<form id="response" method="post" action="${CALLBACK}" class="stack">`]);
  const fields = hiddenFields(page.html);
  assert.deepEqual(fields.map(([name]) => name).sort(), [...expected].sort());
  const scripts = [...page.html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1] as string);
  assert.equal(scripts.length, 1, 'one inline script');
  assert.match(page.html, /<noscript>[\s\S]*<button type="submit"[^>]*>Continue<\/button><\/noscript>/);
  const csp = cspOf(page);
  const digest = createHash('sha256')
    .update(scripts[0] as string)
    .digest('base64');
  assert.equal(csp.get('script-src'), `'sha256-${digest}'`, 'the script is allowed by its digest alone');
  assert.equal(csp.get('form-action'), new URL(CALLBACK).origin, 'the form posts only to the client');
  assert.equal(csp.get('default-src'), "'none'");
  assert.equal(csp.get('frame-ancestors'), "'none'");
  assert.equal(csp.get('base-uri'), "'none'");
  assert.equal(page.headers.get('content-security-policy')?.includes('unsafe-inline'), false);
  return Object.fromEntries(fields);
}

for (const dialect of DIALECTS)
  describe(`POST /authorize (OIDC Core §3.1.2.1) and response_mode=form_post [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app', name: 'Contacts Sync', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server);
    });
    after(() => server.close());

    /** POST /authorize with the request as its form body (and `query` in the URL, if any). */
    const postAuthorize = (browser: PageBrowser, form: string, query = ''): Promise<PageAnswer> =>
      browser.postBody(`/authorize${query === '' ? '' : `?${query}`}`, form);

    const exchange = (code: string, verifier: string): Promise<Response> =>
      server.post(
        '/token',
        { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
        { as: app },
      );

    /** Signs in on a sign-in page and follows the 303 back to /authorize. */
    async function signIn(browser: PageBrowser, page: PageAnswer): Promise<PageAnswer> {
      const signedIn = await browser.login(page, 'alice', PASSWORD);
      assert.equal(signedIn.status, 303, signedIn.html);
      return browser.get(signedIn.location as string);
    }

    /** A browser where alice is signed in and the client holds a grant of hers: consent is remembered. */
    async function signedInWithConsent(): Promise<PageBrowser> {
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const page = await signIn(browser, await browser.authorize(authorizationQuery('app', challenge)));
      const answer = page.status === 200 ? await browser.consent(page, 'allow') : page;
      assert.equal((await exchange(callbackParams(answer.location).code as string, verifier)).status, 200);
      return browser;
    }

    /** Revokes alice's grants, so that consent is asked again. */
    async function forgetConsent(): Promise<void> {
      // Grants name their user by its subject (one subject per user).
      const alice = await server.context.store.findUser('alice');
      assert.ok(alice, 'alice is a user');
      for (const grant of await server.context.store.listLiveGrants('app', alice.subject, server.clock.now()))
        await server.context.store.revokeGrant(grant.id, 'revoked_by_admin', server.clock.now());
    }

    /**
     * A valid POST continues as GET /authorize with the same parameters (303): the top-level GET
     * carries the SameSite=Lax session cookie that the client's cross-site POST does not.
     */
    async function followToGet(browser: PageBrowser, answer: PageAnswer, query: string): Promise<PageAnswer> {
      assert.equal(answer.status, 303, answer.html);
      assert.equal(answer.location, `/authorize?${new URLSearchParams(query)}`);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      return browser.get(answer.location);
    }

    describe('POST /authorize answers as GET does, reading the parameters from the form', () => {
      it('a valid request continues as GET with the same parameters, which shows the sign-in page', async () => {
        const { challenge } = pkce();
        const query = authorizationQuery('app', challenge);
        const viaGet = await new PageBrowser(server).authorize(query);
        const browser = new PageBrowser(server);
        const posted = await postAuthorize(browser, query);
        assert.equal(posted.headers.get('set-cookie'), null, 'the POST starts no session');
        const page = await followToGet(browser, posted, query);
        assert.equal(page.status, 200, page.html);
        assertPageHeaders(page);
        assert.match(page.html, /action="\/login"/);
        assert.equal(hiddenField(page.html, 'request'), hiddenField(viaGet.html, 'request'));
      });

      it('the flow it starts ends in a code (sign-in, consent) that exchanges for tokens', async () => {
        await forgetConsent();
        const { verifier, challenge } = pkce();
        const query = authorizationQuery('app', challenge);
        const browser = new PageBrowser(server);
        const consent = await signIn(browser, await followToGet(browser, await postAuthorize(browser, query), query));
        assert.equal(consent.status, 200, consent.html);
        assert.match(consent.html, /action="\/consent"/);
        const params = callbackParams((await browser.consent(consent, 'allow')).location);
        assert.equal(params.state, 'state-123');
        assert.equal(params.iss, ISSUER);
        assert.equal((await exchange(params.code as string, verifier)).status, 200);
      });

      it('a signed-in user with consent remembered gets the code, prompt=none included, without a page', async () => {
        const browser = await signedInWithConsent();
        for (const prompt of [undefined, 'none']) {
          const query = authorizationQuery('app', pkce().challenge, { prompt });
          const answer = await followToGet(browser, await postAuthorize(browser, query), query);
          assert.equal(answer.status, 302, answer.html);
          assert.ok(callbackParams(answer.location).code, prompt);
        }
      });

      it('a POST carries no CSRF token: it is the client cross-site form that starts the flow', async () => {
        const query = authorizationQuery('app', pkce().challenge);
        const headers = { origin: 'https://app.example', 'sec-fetch-site': 'cross-site' };
        const answer = await new PageBrowser(server).postBody('/authorize', query, undefined, headers);
        assert.equal(answer.status, 303, answer.html);
        assert.equal(answer.location, `/authorize?${new URLSearchParams(query)}`);
      });

      it('parameters may be split between the URL and the form', async () => {
        const query = authorizationQuery('app', pkce().challenge);
        const form = new URLSearchParams(query);
        form.delete('client_id');
        const answer = await postAuthorize(new PageBrowser(server), form.toString(), 'client_id=app');
        assert.equal(answer.status, 303, answer.html);
        assert.deepEqual(
          [...new URLSearchParams((answer.location as string).split('?')[1])].sort(),
          [...new URLSearchParams(query)].sort(),
        );
      });
    });

    describe('errors of a POST are those of a GET', () => {
      /** The untrusted-request page: 400, never a redirect (RFC 6749 §4.1.2.1). */
      function assertErrorPage(page: PageAnswer, detail: RegExp): void {
        assert.equal(page.status, 400, page.html);
        assert.equal(page.location, undefined, 'not redirected');
        assertPageHeaders(page);
        assert.match(page.html, /invalid_authorization_request/);
        assert.match(page.html, detail);
      }

      it('no client_id, an unknown one, or a redirect_uri not registered: an error page, never redirected', async () => {
        const { challenge } = pkce();
        const browser = new PageBrowser(server);
        assertErrorPage(
          await postAuthorize(browser, authorizationQuery('app', challenge, { client_id: undefined })),
          /no client_id/,
        );
        assertErrorPage(
          await postAuthorize(browser, authorizationQuery('nobody', challenge)),
          /No client is registered/,
        );
        for (const responseMode of [undefined, 'form_post']) {
          const form = authorizationQuery('app', challenge, {
            redirect_uri: 'https://attacker.example/cb',
            response_mode: responseMode,
          });
          assertErrorPage(await postAuthorize(browser, form), /is not registered for the client/);
        }
      });

      it('a parameter both in the URL and in the form is sent twice (RFC 6749 §3.1): a page for client_id, a redirect for state', async () => {
        const { challenge } = pkce();
        const form = authorizationQuery('app', challenge);
        const browser = new PageBrowser(server);
        assertErrorPage(await postAuthorize(browser, form, 'client_id=app'), /client_id was sent more than once/);
        const answer = await postAuthorize(browser, form, 'state=other');
        assert.equal(answer.status, 303, answer.html);
        const params = callbackParams(answer.location);
        assert.equal(params.error, 'invalid_request');
        assert.equal(params.error_description, "parameter 'state' was sent more than once");
      });

      it('any other error goes back to the client, by 303, with error_uri and iss (RFC 6749 §4.1.2.1, RFC 9207)', async () => {
        const answer = await postAuthorize(
          new PageBrowser(server),
          authorizationQuery('app', pkce().challenge, { response_type: 'token' }),
        );
        assert.equal(answer.status, 303, answer.html);
        const params = callbackParams(answer.location);
        assert.equal(params.error, 'unsupported_response_type');
        assert.equal(params.error_uri, `${ISSUER}/problems/${OAUTH_ERRORS.unsupported_response_type.page}`);
        assert.equal(params.state, 'state-123');
        assert.equal(params.iss, ISSUER);
      });

      it('a body that is not a form is a 415 page, one over 16 KiB a 413 page: HTML for a browser', async () => {
        const browser = new PageBrowser(server);
        const json = await browser.postBody('/authorize', '{"client_id":"app"}', 'application/json');
        assert.equal(json.status, 415, json.html);
        assert.match(json.headers.get('content-type') ?? '', /^text\/html\b/);
        const large = await postAuthorize(
          browser,
          `${authorizationQuery('app', pkce().challenge)}&x=${'a'.repeat(17_000)}`,
        );
        assert.equal(large.status, 413, large.html);
        assert.match(large.headers.get('content-type') ?? '', /^text\/html\b/);
      });
    });

    describe('response_mode=form_post (OAuth 2.0 Form Post Response Mode §2)', () => {
      it('the code comes as a form posted to the redirect URI: exactly code, state and iss', async () => {
        await forgetConsent();
        const { verifier, challenge } = pkce();
        const browser = new PageBrowser(server);
        const query = authorizationQuery('app', challenge, { response_mode: 'form_post' });
        const consent = await signIn(browser, await browser.authorize(query));
        const params = assertFormPost(await browser.consent(consent, 'allow'), ['code', 'state', 'iss']);
        assert.equal(params.state, 'state-123');
        assert.equal(params.iss, ISSUER);
        assert.equal((await exchange(params.code as string, verifier)).status, 200);
      });

      it('with consent remembered, GET and POST /authorize answer the form at once', async () => {
        const browser = await signedInWithConsent();
        const query = authorizationQuery('app', pkce().challenge, { response_mode: 'form_post' });
        assertFormPost(await browser.authorize(query), ['code', 'state', 'iss']);
        assertFormPost(await followToGet(browser, await postAuthorize(browser, query), query), [
          'code',
          'state',
          'iss',
        ]);
      });

      it('errors are form-posted too: a request refused at POST, prompt=none without a session, a denial', async () => {
        const { challenge } = pkce();
        const errorFields = ['error', 'error_description', 'error_uri', 'state', 'iss'];
        // Refused at the POST itself: the form comes in answer to it.
        const refused = assertFormPost(
          await postAuthorize(
            new PageBrowser(server),
            authorizationQuery('app', challenge, { response_mode: 'form_post', code_challenge: undefined }),
          ),
          errorFields,
        );
        assert.equal(refused.error, 'invalid_request');
        assert.equal(refused.iss, ISSUER);
        const none = assertFormPost(
          await new PageBrowser(server).authorize(
            authorizationQuery('app', challenge, { response_mode: 'form_post', prompt: 'none' }),
          ),
          errorFields,
        );
        assert.equal(none.error, 'login_required');
        await forgetConsent();
        const browser = new PageBrowser(server);
        const consent = await signIn(
          browser,
          await browser.authorize(authorizationQuery('app', challenge, { response_mode: 'form_post' })),
        );
        const denied = assertFormPost(await browser.consent(consent, 'deny'), errorFields);
        assert.equal(denied.error, 'access_denied');
      });

      it('the values are HTML-escaped and reach the client as sent', async () => {
        const state = '"><script>alert(1)</script>&amp;\'';
        const page = await new PageBrowser(server).authorize(
          authorizationQuery('app', pkce().challenge, { response_mode: 'form_post', response_type: undefined, state }),
        );
        const params = assertFormPost(page, ['error', 'error_description', 'error_uri', 'state', 'iss']);
        assert.equal(params.state, state);
        assert.equal(page.html.includes('<script>alert(1)'), false);
      });

      it('response_mode=query is the default, named or not', async () => {
        const answer = await new PageBrowser(server).authorize(
          authorizationQuery('app', pkce().challenge, { response_mode: 'query', prompt: 'none' }),
        );
        assert.equal(answer.status, 302);
        assert.equal(callbackParams(answer.location).error, 'login_required');
      });

      it('an unknown or repeated response_mode is invalid_request at the redirect URI, in the default query mode', async () => {
        const { challenge } = pkce();
        for (const mode of ['fragment', 'query.jwt', 'form_post.jwt', 'FORM_POST']) {
          const answer = await new PageBrowser(server).authorize(
            authorizationQuery('app', challenge, { response_mode: mode }),
          );
          assert.equal(answer.status, 302, `${mode}: ${answer.html}`);
          const params = callbackParams(answer.location);
          assert.equal(params.error, 'invalid_request');
          assert.equal(params.error_description, 'response_mode must be query or form_post');
          assert.equal(params.state, 'state-123');
          assert.equal(params.code, undefined);
        }
        const twice = `${authorizationQuery('app', challenge, { response_mode: 'form_post' })}&response_mode=form_post`;
        const answer = await new PageBrowser(server).authorize(twice);
        assert.equal(answer.status, 302);
        assert.equal(
          callbackParams(answer.location).error_description,
          "parameter 'response_mode' was sent more than once",
        );
      });
    });

    it('both metadata documents list the response modes query and form_post (RFC 8414 §2, OIDC Discovery §3)', async () => {
      for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
        const metadata = (await (await fetch(`${server.url}${path}`)).json()) as Record<string, unknown>;
        assert.deepEqual(metadata.response_modes_supported, ['query', 'form_post'], path);
        assert.equal(metadata.authorization_endpoint, `${ISSUER}/authorize`);
      }
    });
  });
