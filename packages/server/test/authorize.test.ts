import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OAUTH_ERRORS, type OAuthErrorCode } from '@gatehouse/contract';
import {
  assertPageHeaders,
  authorizationQuery,
  CALLBACK,
  hiddenField,
  PageBrowser,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { ISSUER } from './_oauth-assertions.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`GET /authorize: the authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3) [${dialect}]`, () => {
    let server: TestServer;
    const { challenge } = pkce();

    before(async () => {
      server = await startTestServer({ dialect });
      await server.addClient({
        id: 'app',
        name: 'Contacts Sync',
        public: true,
        redirectUris: [CALLBACK, 'https://app.example/cb?tenant=7'],
      });
      await server.addClient({ id: 'machine', grantTypes: ['client_credentials'], redirectUris: [CALLBACK] });
      await server.addClient({ id: 'evil', name: '<script>alert(1)</script> & "friends"', redirectUris: [CALLBACK] });
    });
    after(() => server.close());

    const authorize = (overrides: Record<string, string | undefined> = {}, clientId = 'app'): Promise<PageAnswer> =>
      new PageBrowser(server).authorize(authorizationQuery(clientId, challenge, overrides));

    /** An untrusted client or redirect URI: an HTML page with status 400, never a redirect. */
    function assertErrorPage(page: PageAnswer, detail: RegExp): void {
      assert.equal(page.status, 400, page.html);
      assert.equal(page.location, undefined, 'not redirected');
      assertPageHeaders(page);
      assert.match(page.html, /<h1>This sign-in link is not valid<\/h1>/);
      assert.match(page.html, /What to do/);
      assert.match(page.html, /invalid_authorization_request/);
      assert.match(page.html, detail);
    }

    /** An error sent back to the client: 302 to the redirect URI with the §4.1.2.1 parameters and `iss`. */
    function assertRedirectError(
      page: PageAnswer,
      error: OAuthErrorCode,
      description: string,
      state: string | null = 'state-123',
    ): void {
      assert.equal(page.status, 302, page.html);
      const params = new URL(page.location as string).searchParams;
      assert.ok(page.location?.startsWith(`${CALLBACK}?`), page.location);
      assert.equal(params.get('error'), error);
      assert.equal(params.get('error_description'), description);
      assert.equal(params.get('error_uri'), `${ISSUER}/problems/${OAUTH_ERRORS[error].page}`);
      assert.equal(params.get('state'), state);
      assert.equal(params.get('iss'), ISSUER);
      assert.equal(params.get('code'), null);
    }

    describe('an unknown client or redirect URI is shown on an error page and never redirected to', () => {
      it('an unknown client_id', async () => {
        assertErrorPage(await authorize({}, 'nobody'), /No client is registered with client_id &#39;nobody&#39;/);
      });

      it('no client_id at all, and a client_id sent twice', async () => {
        assertErrorPage(await authorize({ client_id: undefined }), /no client_id/);
        const page = await new PageBrowser(server).authorize(`${authorizationQuery('app', challenge)}&client_id=app`);
        assertErrorPage(page, /client_id was sent more than once/);
      });

      it('a redirect_uri not registered for the client, even one differing only by a trailing slash or a query', async () => {
        for (const uri of [
          'https://attacker.example/cb',
          `${CALLBACK}/`,
          `${CALLBACK}?x=1`,
          'https://app.example/cb',
        ]) {
          assertErrorPage(await authorize({ redirect_uri: uri }), /is not registered for the client/);
        }
      });

      it('a missing redirect_uri', async () => {
        assertErrorPage(await authorize({ redirect_uri: undefined }), /no redirect_uri/);
      });

      it('an error page escapes what the request carried', async () => {
        const page = await authorize({}, '<img src=x onerror=alert(1)>');
        assert.equal(page.html.includes('<img src=x'), false);
        assert.match(page.html, /&#60;img src=x onerror=alert\(1\)&#62;/);
      });
    });

    describe('other errors go back to the client with error, error_description, error_uri, state and iss (§4.1.2.1, RFC 9207)', () => {
      it('no code_challenge: invalid_request, PKCE is required for every client', async () => {
        assertRedirectError(
          await authorize({ code_challenge: undefined }),
          'invalid_request',
          'code_challenge is required: PKCE with S256 is required for every client',
        );
      });

      it('code_challenge_method plain, or none (which RFC 7636 reads as plain): invalid_request', async () => {
        for (const method of ['plain', undefined, 's256']) {
          assertRedirectError(
            await authorize({ code_challenge_method: method }),
            'invalid_request',
            'code_challenge_method must be S256',
          );
        }
      });

      it('a code_challenge that cannot be an S256 digest: invalid_request', async () => {
        assertRedirectError(
          await authorize({ code_challenge: 'too-short' }),
          'invalid_request',
          'code_challenge must be the 43-character base64url SHA-256 of the code_verifier',
        );
      });

      it('response_type=token: unsupported_response_type; no response_type: invalid_request', async () => {
        assertRedirectError(
          await authorize({ response_type: 'token' }),
          'unsupported_response_type',
          'response_type must be code',
        );
        assertRedirectError(
          await authorize({ response_type: undefined }),
          'invalid_request',
          "missing required parameter 'response_type'",
        );
      });

      it("a scope beyond the client's: invalid_scope", async () => {
        assertRedirectError(
          await authorize({ scope: 'contacts:read admin' }),
          'invalid_scope',
          'requested scope exceeds the scope the client may request',
        );
      });

      it('a client not registered for the code flow: unauthorized_client', async () => {
        assertRedirectError(
          await authorize({}, 'machine'),
          'unauthorized_client',
          'client is not allowed to use the authorization code flow',
        );
      });

      it('a repeated parameter: invalid_request; a repeated state is not echoed', async () => {
        const base = authorizationQuery('app', challenge);
        assertRedirectError(
          await new PageBrowser(server).authorize(`${base}&scope=contacts:read`),
          'invalid_request',
          "parameter 'scope' was sent more than once",
        );
        assertRedirectError(
          await new PageBrowser(server).authorize(`${base}&state=other`),
          'invalid_request',
          "parameter 'state' was sent more than once",
          null,
        );
      });

      it('without state, the error carries none', async () => {
        assertRedirectError(
          await authorize({ state: undefined, response_type: 'token' }),
          'unsupported_response_type',
          'response_type must be code',
          null,
        );
      });

      it('the redirect URI keeps its own query (RFC 6749 §3.1.2)', async () => {
        const page = await authorize({ redirect_uri: 'https://app.example/cb?tenant=7', response_type: 'token' });
        assert.ok(
          page.location?.startsWith('https://app.example/cb?tenant=7&error=unsupported_response_type&'),
          page.location,
        );
      });
    });

    describe('a valid request from a browser without a session', () => {
      it("shows the sign-in page with the client's name, a CSRF token, and a new session cookie", async () => {
        const page = await authorize();
        assert.equal(page.status, 200);
        assertPageHeaders(page);
        assert.match(page.html, /<title>Sign in · Gatehouse<\/title>/);
        assert.match(page.html, /to continue to <strong class="client-name" translate="no">Contacts Sync<\/strong>/);
        assert.match(page.html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
        assert.match(hiddenField(page.html, 'csrf_token'), /^[A-Za-z0-9_-]{43}$/);
        assert.match(hiddenField(page.html, 'request'), /client_id=app/);
        const cookie = page.headers.get('set-cookie') ?? '';
        assert.match(cookie, /^gatehouse_session=[A-Za-z0-9_-]{43}; /);
        assert.match(cookie, /; HttpOnly(;|$)/);
        assert.match(cookie, /; SameSite=Lax(;|$)/);
        assert.match(cookie, /; Path=\/(;|$)/);
        assert.doesNotMatch(cookie, /Secure/, 'no Secure on a plain-http issuer');
      });

      it("lets the sign-in form lead to the client's origin (form-action), and nowhere else", async () => {
        const csp = (await authorize()).headers.get('content-security-policy') ?? '';
        assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:8765;/);
      });

      it("escapes the client's name on the page", async () => {
        const page = await authorize({}, 'evil');
        assert.equal(page.html.includes('<script>'), false);
        assert.match(page.html, /&#60;script&#62;alert\(1\)&#60;\/script&#62; &#38; &#34;friends&#34;/);
      });

      it("uses only the server's own stylesheet and script: no CDN, no inline script, no inline style", async () => {
        const page = await authorize();
        const { html } = page;
        assert.match(html, /<link rel="stylesheet" href="\/assets\/gatehouse.css">/);
        // The one script is the server's passkey asset (the issuer is a name, so passkeys are offered).
        assert.deepEqual(html.match(/<script[^>]*>/g), ['<script src="/assets/passkey.js" defer>']);
        assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
        assert.doesNotMatch(html, /style=|<style|https?:\/\/(?!www\.w3\.org)/);
        const css = await fetch(`${server.url}/assets/gatehouse.css`);
        assert.equal(css.status, 200);
        assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
        assert.doesNotMatch(await css.text(), /@import|url\(/);
      });
    });

    it('methods other than GET and POST (OIDC Core §3.1.2.1) are refused with 405 and Allow, on a page', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const response = await fetch(`${server.url}/authorize`, {
          method,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
        });
        assert.equal(response.status, 405, method);
        assert.deepEqual((response.headers.get('allow') ?? '').split(', ').sort(), ['GET', 'HEAD', 'POST']);
        assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      }
    });

    it('the server metadata names the authorization endpoint and the iss response parameter (RFC 8414, RFC 9207)', async () => {
      const metadata = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >;
      assert.equal(metadata.authorization_endpoint, `${ISSUER}/authorize`);
      assert.equal(metadata.authorization_response_iss_parameter_supported, true);
      assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    });
  });
