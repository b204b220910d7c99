import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { describeScope } from '../src/authorize/consent.js';
import { Languages } from '../src/i18n/index.js';
import {
  addTestUser,
  assertPageHeaders,
  authorizationQuery,
  CALLBACK,
  callbackParams,
  obtainCode,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { assertOAuthError, assertOkJson, ISSUER } from './_oauth-assertions.js';
import { DIALECTS } from './_dialects.js';
import { configFromEnv } from '../src/config.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`consent, the authorization code, and the grant made from it [${dialect}]`, () => {
    let server: TestServer;
    let app: TestClient;
    let confidential: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      app = await server.addClient({ id: 'app', name: 'Contacts Sync', public: true, redirectUris: [CALLBACK] });
      confidential = await server.addClient({ id: 'backend', name: 'Contacts Backend', redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
    });
    after(() => server.close());
    beforeEach(() => server.clock.advance(3600));

    /** A signed-in browser on the consent page of a fresh request. */
    async function consentPage(
      clientId = 'app',
      overrides: Record<string, string | undefined> = {},
    ): Promise<{ browser: PageBrowser; page: PageAnswer; verifier: string }> {
      const { verifier, challenge } = pkce();
      const browser = new PageBrowser(server);
      const query = authorizationQuery(clientId, challenge, overrides);
      const signedIn = await browser.login(await browser.authorize(query), 'alice', PASSWORD);
      const page = await browser.get(signedIn.location as string);
      return { browser, page, verifier };
    }

    const exchange = (client: TestClient, code: string, verifier: string): Promise<Response> =>
      server.post(
        '/token',
        { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
        { as: client },
      );

    /** Alice's subject: her grants name her by it (RFC 9068 §2.2), not by her username. */
    const alice = async (): Promise<string> => (await server.context.store.findUser('alice'))?.subject as string;

    /** Revokes every grant alice holds, as an operator would. */
    async function revokeAll(): Promise<void> {
      for (const client of ['app', 'backend']) {
        for (const grant of await server.context.store.listLiveGrants(client, await alice(), server.clock.now())) {
          await server.context.store.revokeGrant(grant.id, 'revoked_by_admin', server.clock.now());
        }
      }
    }
    beforeEach(revokeAll);

    it('the consent page names the client and the requested scopes in plain words', async () => {
      const { page } = await consentPage('app', { scope: 'contacts:read contacts:write' });
      assert.equal(page.status, 200);
      assertPageHeaders(page);
      assert.match(
        page.html,
        /<h1><strong class="client-name" translate="no">Contacts Sync<\/strong> wants to access your account<\/h1>/,
      );
      assert.match(page.html, /Signed in as <strong>alice<\/strong>/);
      assert.match(page.html, /See your contacts<\/span><code class="scope-name" translate="no">contacts:read/);
      assert.match(
        page.html,
        /Create, change and delete your contacts<\/span><code class="scope-name" translate="no">contacts:write/,
      );
      assert.match(
        page.html,
        /<button type="submit" name="decision" value="deny" class="button secondary">Deny<\/button>/,
      );
      assert.match(
        page.html,
        /<button type="submit" name="decision" value="allow" class="button primary">Allow<\/button>/,
      );
    });

    it('scopes read as plain words: collections of the API by pattern, OpenID Connect scopes by their claims, anything else by its name', () => {
      const english = new Languages().text('en');
      assert.equal(describeScope(english, 'contacts:read'), 'See your contacts');
      assert.equal(describeScope(english, 'line_items:write'), 'Create, change and delete your line items');
      assert.equal(describeScope(english, 'openid'), 'Sign you in with your account');
      assert.equal(describeScope(english, 'email'), 'See your email address and whether it is verified');
      assert.equal(describeScope(english, 'billing'), 'billing');
    });

    it('Allow answers the client with 303: a code, the state and iss; the code gives tokens at /token, and refresh works', async () => {
      const { browser, page, verifier } = await consentPage();
      const answer = await browser.consent(page, 'allow');
      assert.equal(answer.status, 303);
      const params = callbackParams(answer.location);
      assert.deepEqual(Object.keys(params).sort(), ['code', 'iss', 'state']);
      assert.equal(params.state, 'state-123');
      assert.equal(params.iss, ISSUER);
      const tokens = await assertOkJson(await exchange(app, params.code as string, verifier));
      assert.equal(tokens.scope, 'contacts:read');
      assert.equal((await refresh(server, app, tokens.refresh_token as string)).status, 200);
    });

    it('a confidential client exchanges its code with its secret', async () => {
      const { browser, page, verifier } = await consentPage('backend');
      const params = callbackParams((await browser.consent(page, 'allow')).location);
      await assertOkJson(await exchange(confidential, params.code as string, verifier));
    });

    it('Deny answers the client with error=access_denied, the state and iss, and no code', async () => {
      const { browser, page } = await consentPage();
      const answer = await browser.consent(page, 'deny');
      assert.equal(answer.status, 303);
      const params = callbackParams(answer.location);
      assert.equal(params.error, 'access_denied');
      assert.equal(params.error_description, 'the user denied the authorization request');
      assert.equal(params.error_uri, `${ISSUER}/problems/access-denied`);
      assert.equal(params.state, 'state-123');
      assert.equal(params.iss, ISSUER);
      assert.equal(params.code, undefined);
    });

    it('consent without the CSRF token, or with a wrong one, is refused with 403 and nothing is granted', async () => {
      const { browser, page } = await consentPage();
      for (const csrf_token of [undefined, 'A'.repeat(43)]) {
        const answer = await browser.consent(page, 'allow', { csrf_token });
        assert.equal(answer.status, 403);
        assert.equal(answer.location, undefined);
        assert.match(answer.html, /csrf_token_invalid/);
      }
      const again = await browser.authorize(authorizationQuery('app', pkce().challenge));
      assert.equal(again.status, 200, 'consent is still asked: nothing was remembered');
    });

    it('a request tampered in the consent form is checked again: an unregistered redirect_uri gets the error page, no code', async () => {
      const { browser, page } = await consentPage();
      const answer = await browser.consent(page, 'allow', {
        request: authorizationQuery('app', pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }),
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.location, undefined);
    });

    describe('consent is remembered per grant', () => {
      it('a second flow with a live grant covering the scope skips the page: 302 with a code at once', async () => {
        const browser = new PageBrowser(server);
        const first = pkce();
        const params = await obtainCode(browser, authorizationQuery('app', first.challenge));
        await assertOkJson(await exchange(app, params.code as string, first.verifier));
        const second = pkce();
        const answer = await browser.authorize(authorizationQuery('app', second.challenge, { state: 'again' }));
        assert.equal(answer.status, 302);
        const again = callbackParams(answer.location);
        assert.equal(again.state, 'again');
        await assertOkJson(await exchange(app, again.code as string, second.verifier));
      });

      it("a wider scope than the grant's is asked again", async () => {
        const browser = new PageBrowser(server);
        const first = pkce();
        const params = await obtainCode(browser, authorizationQuery('app', first.challenge));
        await assertOkJson(await exchange(app, params.code as string, first.verifier));
        const wider = await browser.authorize(
          authorizationQuery('app', pkce().challenge, { scope: 'contacts:read contacts:write' }),
        );
        assert.equal(wider.status, 200);
        assert.match(wider.html, /action="\/consent"/);
      });

      it('after the grant is revoked (RFC 7009), consent is asked again', async () => {
        const browser = new PageBrowser(server);
        const first = pkce();
        const params = await obtainCode(browser, authorizationQuery('app', first.challenge));
        const tokens = await assertOkJson(await exchange(app, params.code as string, first.verifier));
        assert.equal(
          (await server.post('/revoke', { token: tokens.refresh_token as string }, { as: app })).status,
          200,
        );
        const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
        assert.equal(page.status, 200);
        assert.match(page.html, /action="\/consent"/);
      });

      it('a code not yet exchanged is no consent to remember', async () => {
        const browser = new PageBrowser(server);
        await obtainCode(browser, authorizationQuery('app', pkce().challenge));
        assert.equal((await browser.authorize(authorizationQuery('app', pkce().challenge))).status, 200);
      });
    });

    describe('the code is single use and bound to its PKCE challenge (RFC 6749 §4.1.2, RFC 7636 §4.6)', () => {
      it('a code used twice is refused with invalid_grant, and the grant issued from it is revoked', async () => {
        const { verifier, challenge } = pkce();
        const params = await obtainCode(new PageBrowser(server), authorizationQuery('app', challenge));
        const tokens = await assertOkJson(await exchange(app, params.code as string, verifier));
        await assertOAuthError(await exchange(app, params.code as string, verifier), {
          error: 'invalid_grant',
          description: 'authorization code has already been used',
        });
        const refused = await server.post(
          '/token',
          { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
          { as: app },
        );
        await assertOAuthError(refused, { error: 'invalid_grant', description: 'refresh token has been revoked' });
      });

      it('a wrong code_verifier is refused with invalid_grant and nothing is granted', async () => {
        const { challenge } = pkce();
        const params = await obtainCode(new PageBrowser(server), authorizationQuery('app', challenge));
        await assertOAuthError(await exchange(app, params.code as string, pkce().verifier), {
          error: 'invalid_grant',
          description: 'code_verifier does not match the code_challenge',
        });
        assert.deepEqual(await server.context.store.listLiveGrants('app', await alice(), server.clock.now()), []);
      });

      it('a code is bound to its client: another client cannot exchange it', async () => {
        const { verifier, challenge } = pkce();
        const params = await obtainCode(new PageBrowser(server), authorizationQuery('app', challenge));
        await assertOAuthError(await exchange(confidential, params.code as string, verifier), {
          error: 'invalid_grant',
          description: 'authorization code was issued to another client',
        });
      });

      it('a code lives 60 seconds', async () => {
        const { verifier, challenge } = pkce();
        const params = await obtainCode(new PageBrowser(server), authorizationQuery('app', challenge));
        server.clock.advance(60);
        await assertOAuthError(await exchange(app, params.code as string, verifier), {
          error: 'invalid_grant',
          description: 'authorization code has expired',
        });
      });
    });
  });

describe('AUTHORIZATION_CODE_TTL', () => {
  it('how long a code lives: whole seconds from 1 to 600 (RFC 6749 §4.1.2: at most 10 minutes), 60 when unset; anything else stops the server from starting', () => {
    assert.equal(configFromEnv({}).authorizationCodeTtl, 60);
    assert.equal(configFromEnv({ AUTHORIZATION_CODE_TTL: '300' }).authorizationCodeTtl, 300);
    assert.equal(configFromEnv({ AUTHORIZATION_CODE_TTL: '600' }).authorizationCodeTtl, 600);
    for (const value of ['0', '601', '60s', '1.5', '-1', ' 60'])
      assert.throws(
        () => configFromEnv({ AUTHORIZATION_CODE_TTL: value }),
        /AUTHORIZATION_CODE_TTL must be whole seconds from 1 to 600/,
        value,
      );
  });
});
