import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { CLI_ACTOR } from '../src/audit/audit.js';
import {
  addDomain,
  changeOrganization,
  createOrganization,
  putMember,
  removeMember,
} from '../src/organizations/index.js';
import {
  addTestUser,
  authorizationQuery,
  callbackParams,
  CALLBACK,
  hiddenField,
  obtainCode,
  PageBrowser,
  PASSWORD,
  pkce,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { refresh, startTestServer, type TestClient, type TestServer } from './_server.js';

const SCOPE = 'openid organization contacts:read';
const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const BILLING = 'https://billing.example';

/**
 * Organizations at /authorize and in tokens (docs/organizations.md): the `organization` parameter,
 * the chooser, JIT membership by a verified e-mail domain, the organization's second-factor policy,
 * `org_id`/`org_name`/`org_roles` in the access and ID tokens and at every refresh, and the removal
 * of a member revoking its grants for the organization.
 */
describe('organizations at /authorize and in tokens', () => {
  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let server: TestServer;
      let app: TestClient;
      /** A client of its own for the pushed requests, so that no consent of app's is remembered for it. */
      let portal: TestClient;
      let agent: TestClient;
      let acme: string;

      /** RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.5): `client` redeems `code`; the tokens answered. */
      async function redeem(client: TestClient, code: string | undefined, verifier: string) {
        assert.ok(code, 'a code');
        const response = await server.post(
          '/token',
          { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier },
          { as: client },
        );
        const body = (await response.json()) as Record<string, string>;
        assert.equal(response.status, 200, JSON.stringify(body));
        return body;
      }

      async function tokensFor(query: string, verifier: string, username: string, browser = new PageBrowser(server)) {
        const params = await obtainCode(browser, query, username);
        assert.ok(params.code, JSON.stringify(params));
        return redeem(app, params.code, verifier);
      }

      /** The organization claims userinfo answers to `accessToken`. */
      async function userinfo(accessToken: string): Promise<Record<string, unknown>> {
        const response = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
        const body = (await response.json()) as Record<string, unknown>;
        assert.equal(response.status, 200, JSON.stringify(body));
        return Object.fromEntries(Object.entries(body).filter(([name]) => name.startsWith('org_')));
      }

      before(async () => {
        server = await startTestServer({ dialect });
        app = await server.addClient({
          id: 'app',
          redirectUris: [CALLBACK],
          scope: ['openid', 'organization', 'contacts:read'],
        });
        portal = await server.addClient({
          id: 'portal',
          redirectUris: [CALLBACK],
          scope: ['openid', 'organization', 'contacts:read'],
        });
        agent = await server.addClient({
          id: 'agent',
          grantTypes: [EXCHANGE, 'refresh_token'],
          exchangeAudiences: [BILLING],
          exchangeSubjectAudiences: [ISSUER],
          exchangeRefreshTokens: true,
        });
        const { store, audit } = server.context;
        const now = server.clock.now();
        for (const name of ['alice', 'carol', 'mallory', 'oscar']) await addTestUser(server, name);
        await store.updateUserClaims('carol', { email: 'carol@acme.example', email_verified: true }, now);
        await store.updateUserClaims('mallory', { email: 'mallory@acme.example', email_verified: false }, now);
        acme = (
          await createOrganization(audit, { slug: 'acme', name: 'Acme', roles: ['admin', 'member'] }, now, CLI_ACTOR)
        ).id;
        await createOrganization(audit, { slug: 'globex', name: 'Globex', roles: ['viewer'] }, now, CLI_ACTOR);
        await changeOrganization(audit, 'acme', { policy: { default_role: 'member' } }, now, CLI_ACTOR);
        await addDomain(audit, 'acme', 'acme.example', true, now, CLI_ACTOR);
        await putMember(audit, 'acme', 'alice', ['admin'], now, CLI_ACTOR);
        await putMember(audit, 'globex', 'alice', ['viewer'], now, CLI_ACTOR);
      });
      after(() => server.close());

      it('organization=acme with the organization scope: the access token, the ID token, userinfo and every refresh carry org_id, org_name and org_roles; a role change shows at the next refresh', async () => {
        const { verifier, challenge } = pkce();
        const query = authorizationQuery('app', challenge, { scope: SCOPE, organization: 'acme' });
        const browser = new PageBrowser(server);
        const signIn = await browser.authorize(query);
        const signedIn = await browser.login(signIn, 'alice', PASSWORD);
        const consent = await browser.get(signedIn.location as string);
        assert.equal(consent.status, 200);
        assert.match(consent.html, /For the organization Acme/, 'the consent page names the organization');
        const params = callbackParams((await browser.consent(consent, 'allow')).location);
        const tokens = await redeem(app, params.code, verifier);
        for (const jwt of [tokens.access_token, tokens.id_token]) {
          const claims = decodeJwt(jwt as string);
          assert.equal(claims.org_id, acme);
          assert.equal(claims.org_name, 'Acme');
          assert.deepEqual(claims.org_roles, ['admin']);
        }
        assert.deepEqual(await userinfo(tokens.access_token as string), {
          org_id: acme,
          org_name: 'Acme',
          org_roles: ['admin'],
        });
        await putMember(server.context.audit, 'acme', 'alice', ['member'], server.clock.now(), CLI_ACTOR);
        assert.deepEqual((await userinfo(tokens.access_token as string)).org_roles, ['member'], 'read now');
        const refreshed = await refresh(server, app, tokens.refresh_token as string);
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
        const claims = decodeJwt(refreshed.body.access_token as string);
        assert.equal(claims.org_id, acme, 'the grant keeps its organization');
        assert.deepEqual(claims.org_roles, ['member'], 'the roles as they are now');
        assert.deepEqual(decodeJwt(refreshed.body.id_token as string).org_roles, ['member']);
      });

      it('organization=acme without the organization scope (OIDC Core §5.4): only the access token, which the APIs read, carries the organization; the ID token and userinfo do not', async () => {
        const { verifier, challenge } = pkce();
        const query = authorizationQuery('app', challenge, { scope: 'openid contacts:read', organization: 'acme' });
        const tokens = await tokensFor(query, verifier, 'alice');
        assert.equal(decodeJwt(tokens.access_token as string).org_id, acme);
        const idToken = decodeJwt(tokens.id_token as string);
        for (const claim of ['org_id', 'org_name', 'org_roles']) assert.equal(idToken[claim], undefined, claim);
        assert.deepEqual(await userinfo(tokens.access_token as string), {});
        const refreshed = await refresh(server, app, tokens.refresh_token as string);
        assert.equal(decodeJwt(refreshed.body.id_token as string).org_id, undefined, 'nor at a refresh');
      });

      it('RFC 9126: a pushed request with the organization scope shows the chooser, and the organization chosen is the one of the code, the consent and the tokens', async () => {
        const { verifier, challenge } = pkce();
        const pushed = await server.post(
          '/par',
          Object.fromEntries(new URLSearchParams(authorizationQuery('portal', challenge, { scope: SCOPE }))),
          { as: portal },
        );
        const { request_uri } = (await pushed.json()) as { request_uri: string };
        assert.equal(pushed.status, 201);
        const browser = new PageBrowser(server);
        const signIn = await browser.authorize(new URLSearchParams({ client_id: 'portal', request_uri }).toString());
        const chooser = await browser.get((await browser.login(signIn, 'alice', PASSWORD)).location as string);
        assert.match(chooser.html, /Choose an organization/);
        const globex = [...chooser.html.matchAll(/<li><a class="button secondary" href="([^"]*)"/g)]
          .map((m) => (m[1] as string).replaceAll('&#38;', '&'))
          .find((link) => link.endsWith('organization=globex')) as string;
        const consent = await browser.get(globex);
        assert.equal(consent.status, 200);
        assert.match(consent.html, /For the organization Globex/);
        const params = callbackParams((await browser.consent(consent, 'allow')).location);
        const tokens = await redeem(portal, params.code, verifier);
        assert.equal(decodeJwt(tokens.access_token as string).org_name, 'Globex');
        assert.deepEqual(decodeJwt(tokens.id_token as string).org_roles, ['viewer']);
      });

      it('RFC 9126 §4: an organization beside a pushed request that asked for none (no organization scope) is ignored, and one beside a pushed organization does not replace it', async () => {
        const push = async (extra: Record<string, string>) => {
          const query = authorizationQuery('portal', pkce().challenge, extra);
          const pushed = await server.post('/par', Object.fromEntries(new URLSearchParams(query)), { as: portal });
          return ((await pushed.json()) as { request_uri: string }).request_uri;
        };
        const browser = new PageBrowser(server);
        await obtainCode(browser, authorizationQuery('app', pkce().challenge, { scope: 'openid' }), 'alice');
        const plain = await push({ scope: 'openid' });
        const outer = (uri: string) =>
          new URLSearchParams({ client_id: 'portal', request_uri: uri, organization: 'globex' });
        const noOrganization = await browser.authorize(outer(plain).toString());
        assert.equal(noOrganization.status, 200);
        assert.doesNotMatch(noOrganization.html, /For the organization/);
        const forAcme = await push({ scope: 'openid', organization: 'acme' });
        const acmeConsent = await browser.authorize(outer(forAcme).toString());
        assert.match(acmeConsent.html, /For the organization Acme/);
      });

      it('the OpenID Provider metadata names the organization scope and claims', async () => {
        const metadata = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
          string,
          string[]
        >;
        assert.ok(metadata.scopes_supported?.includes('organization'));
        for (const claim of ['org_id', 'org_name', 'org_roles']) assert.ok(metadata.claims_supported?.includes(claim));
      });

      it('RFC 8693: an exchanged token keeps its subject token’s organization, at its refreshes too, and never gains one', async () => {
        const exchange = async (subjectToken: string, extra: Record<string, string> = {}) => {
          const response = await server.post(
            '/token',
            {
              grant_type: EXCHANGE,
              subject_token: subjectToken,
              subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
              audience: BILLING,
              ...extra,
            },
            { as: agent },
          );
          const body = (await response.json()) as Record<string, string>;
          assert.equal(response.status, 200, JSON.stringify(body));
          return body;
        };
        const first = pkce();
        const forAcme = await tokensFor(
          authorizationQuery('app', first.challenge, { scope: 'openid contacts:read', organization: 'acme' }),
          first.verifier,
          'alice',
        );
        const exchanged = await exchange(forAcme.access_token as string, {
          requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token',
        });
        const claims = decodeJwt(exchanged.access_token as string);
        assert.equal(claims.org_id, acme);
        assert.equal(claims.aud, BILLING);
        assert.ok(exchanged.refresh_token);
        const refreshed = await refresh(server, agent, exchanged.refresh_token);
        assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
        assert.equal(decodeJwt(refreshed.body.access_token as string).org_id, acme, 'the child grant keeps it');
        const second = pkce();
        const forNone = await tokensFor(
          authorizationQuery('app', second.challenge, { scope: 'contacts:read' }),
          second.verifier,
          'alice',
        );
        const plain = await exchange(forNone.access_token as string, { organization: 'acme' });
        assert.equal(decodeJwt(plain.access_token as string).org_id, undefined, 'no organization is gained');
      });

      it('without organization, a token for no organization; a request for an organization the user is not in is a catalog error page', async () => {
        const { verifier, challenge } = pkce();
        const none = await tokensFor(authorizationQuery('app', challenge, { scope: 'openid' }), verifier, 'oscar');
        assert.equal(decodeJwt(none.access_token as string).org_id, undefined);
        const browser = new PageBrowser(server);
        for (const organization of ['acme', 'no-such-organization']) {
          await obtainCode(browser, authorizationQuery('app', pkce().challenge, { scope: 'openid' }), 'oscar');
          const refused = await browser.authorize(authorizationQuery('app', pkce().challenge, { organization }));
          assert.equal(refused.status, 403);
          assert.match(refused.html, /organization-not-member/);
          assert.equal(refused.location, undefined, 'never sent to the client');
        }
      });

      it('scope organization: a user of two organizations chooses on a page, and the tokens are for the one chosen', async () => {
        const { verifier, challenge } = pkce();
        const query = authorizationQuery('app', challenge, { scope: SCOPE });
        const browser = new PageBrowser(server);
        const signIn = await browser.authorize(query);
        const signedIn = await browser.login(signIn, 'alice', PASSWORD);
        const chooser = await browser.get(signedIn.location as string);
        assert.equal(chooser.status, 200);
        assert.match(chooser.html, /Choose an organization/);
        const links = [...chooser.html.matchAll(/<li><a class="button secondary" href="([^"]*)"/g)].map((m) =>
          (m[1] as string).replaceAll('&#38;', '&'),
        );
        assert.equal(links.length, 2);
        const globex = links.find((l) => l.endsWith('organization=globex')) as string;
        const consent = await browser.get(globex);
        assert.match(consent.html, /For the organization Globex/);
        const params = callbackParams((await browser.consent(consent, 'allow')).location);
        const response = await server.post(
          '/token',
          {
            grant_type: 'authorization_code',
            code: params.code as string,
            redirect_uri: CALLBACK,
            code_verifier: verifier,
          },
          { as: app },
        );
        const tokens = (await response.json()) as Record<string, string>;
        assert.equal(decodeJwt(tokens.id_token as string).org_name, 'Globex');
        assert.deepEqual(decodeJwt(tokens.access_token as string).org_roles, ['viewer']);
        // prompt=none cannot show the chooser (OIDC Core §3.1.2.6).
        const silent = await browser.authorize(
          authorizationQuery('app', pkce().challenge, { scope: SCOPE, prompt: 'none' }),
        );
        assert.equal(callbackParams(silent.location).error, 'interaction_required');
      });

      it('JIT membership: a verified address of a verified domain joins at sign-in with the default role; an unverified one never does', async () => {
        const { verifier, challenge } = pkce();
        const carol = await tokensFor(authorizationQuery('app', challenge, { scope: SCOPE }), verifier, 'carol');
        const claims = decodeJwt(carol.access_token as string);
        assert.equal(claims.org_id, acme, 'the only organization, joined at sign-in');
        assert.deepEqual(claims.org_roles, ['member']);
        const second = pkce();
        const mallory = await tokensFor(
          authorizationQuery('app', second.challenge, { scope: SCOPE }),
          second.verifier,
          'mallory',
        );
        assert.equal(decodeJwt(mallory.access_token as string).org_id, undefined);
        const subject = (await server.context.store.findUser('mallory'))?.subject as string;
        assert.equal(await server.context.store.findOrganizationMember(acme, subject), undefined);
      });

      it("removing a member revokes the member's grants for the organization, and only those", async () => {
        const first = pkce();
        const forAcme = await tokensFor(
          authorizationQuery('app', first.challenge, { scope: 'openid', organization: 'acme' }),
          first.verifier,
          'carol',
        );
        const second = pkce();
        const forNone = await tokensFor(
          authorizationQuery('app', second.challenge, { scope: 'openid', prompt: 'consent' }),
          second.verifier,
          'carol',
        );
        await removeMember(server.context.audit, 'acme', 'carol', server.clock.now(), CLI_ACTOR);
        const refused = await refresh(server, app, forAcme.refresh_token as string);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error, 'invalid_grant');
        assert.equal(refused.body.error_description, 'refresh token has been revoked');
        const kept = await refresh(server, app, forNone.refresh_token as string);
        assert.equal(kept.status, 200, 'a grant for no organization stays');
      });

      it('an organization requiring a second factor asks one at sign-in for it, even where the client does not', async () => {
        await changeOrganization(
          server.context.audit,
          'globex',
          { policy: { second_factor: 'required' } },
          server.clock.now(),
          CLI_ACTOR,
        );
        const browser = new PageBrowser(server);
        const query = authorizationQuery('app', pkce().challenge, { scope: 'openid', organization: 'globex' });
        const signIn = await browser.authorize(query);
        const signedIn = await browser.login(signIn, 'alice', PASSWORD);
        const next = await browser.get(signedIn.location as string);
        assert.equal(next.status, 200);
        assert.equal(
          hiddenField(next.html, 'method'),
          'otp_enrolment',
          'the enrolment of a second factor, not the consent',
        );
        // For acme (no such policy), the same session goes on to the consent page.
        const acmePage = await browser.authorize(
          authorizationQuery('app', pkce().challenge, { scope: 'openid', organization: 'acme' }),
        );
        assert.ok(callbackParams(acmePage.location).code, 'its consent remembered, a code at once');
      });
    });
});
