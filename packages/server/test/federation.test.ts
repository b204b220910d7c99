import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { addDomain, changeOrganization, createOrganization } from '../src/organizations/index.js';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { putProvider } from '../src/federation/providers.js';
import { KeyEncryption } from '../src/oauth/keys/key-sealing.js';
import { digestOf } from '../src/primitives/secrets.js';
import { addUser } from '../src/users/users.js';
import {
  authorizationQuery,
  CALLBACK,
  callbackParams,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';
import { startUpstreamStub, type StubUser, type UpstreamStub } from './_upstream-stub.js';
import { SoftAuthenticator } from './_webauthn.js';

/** The WebAuthn request options a page rendered in its passkey form's `data-options`. */
function passkeyOptionsOf(html: string): {
  challenge: string;
  userVerification?: string;
  allowCredentials?: { id: string }[];
} {
  const match = /data-options="([^"]*)"/.exec(html);
  assert.ok(match, 'the page has a passkey form');
  return JSON.parse((match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
}

const ANN: StubUser = {
  sub: 'upstream-ann',
  claims: { email: 'ann@corp.example', email_verified: true, name: 'Ann Upstream', amr: ['pwd', 'mfa'] },
};

for (const dialect of DIALECTS)
  describe(`federation: sign in through an upstream OpenID Provider [${dialect}]`, () => {
    let server: TestServer;
    let upstream: UpstreamStub;
    let rp: TestClient;

    before(async () => {
      server = await startTestServer({ dialect });
      upstream = await startUpstreamStub();
      await server.addClient({
        id: 'payroll',
        name: 'Payroll',
        redirectUris: [CALLBACK],
        scope: ['openid'],
        secondFactor: 'required',
      });
      rp = await server.addClient({
        id: 'rp',
        name: 'Relying Party',
        redirectUris: [CALLBACK],
        scope: ['openid', 'profile', 'email', 'contacts:read'],
      });
      const now = server.clock.now();
      await putProvider(
        server.context.store,
        {
          id: 'corp',
          issuer: upstream.issuer,
          client_id: upstream.clientId,
          client_secret: upstream.clientSecret,
          display_name: 'Corp SSO',
          domains: ['corp.example'],
          end_session: true,
        },
        now,
        undefined,
      );
      // The same upstream under a policy that trusts its email_verified for corp.example, and makes no users.
      await putProvider(
        server.context.store,
        {
          id: 'trusting',
          issuer: upstream.issuer,
          client_id: upstream.clientId,
          client_secret: upstream.clientSecret,
          trust_email_verified_domains: ['corp.example'],
          provision: false,
        },
        now,
        undefined,
      );
      await addUser(server.context.store, 'dave', PASSWORD, now, { email: 'dave@corp.example' });
      // Nothing listens on port 9 of loopback: the discovery of this provider fails at once.
      await putProvider(
        server.context.store,
        { id: 'down', issuer: 'http://127.0.0.1:9', client_id: 'x', client_secret: 'y', display_name: 'Down' },
        now,
        undefined,
      );
      await addUser(server.context.store, 'carol', PASSWORD, now, { email: 'carol@corp.example' });
    });
    after(async () => {
      await server.close();
      await upstream.close();
    });

    const query = (challenge: string, extra: Record<string, string> = {}) =>
      authorizationQuery('rp', challenge, { scope: 'openid profile contacts:read', nonce: 'n-1', ...extra });

    /** The sign-in page, then its federation form posted with `form`: the answer (a redirect upstream). */
    async function start(
      browser: PageBrowser,
      challenge: string,
      form: Record<string, string>,
      extra: Record<string, string> = {},
    ): Promise<PageAnswer> {
      const page = await browser.authorize(query(challenge, extra));
      assert.equal(page.status, 200);
      return browser.post('/federation/start', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        ...form,
      });
    }

    /** Signs in through the upstream as `user` and returns the page the callback answered. */
    async function throughUpstream(
      browser: PageBrowser,
      challenge: string,
      user: StubUser,
      extra: Record<string, string> = {},
    ): Promise<PageAnswer> {
      const started = await start(browser, challenge, { provider: 'corp' }, extra);
      assert.equal(started.status, 303, started.html);
      return browser.get(`/federation/callback?${upstream.approve(new URL(started.location as string), user)}`);
    }

    /** From the page after the callback: consent, then the code exchanged; the ID token's claims. */
    async function tokensAfter(browser: PageBrowser, answer: PageAnswer, verifier: string) {
      assert.equal(answer.status, 200, /Details<\/strong>[^<]*/.exec(answer.html)?.[0] ?? answer.html.slice(0, 400));
      let page = await browser.get(continueLink(answer));
      if (page.status === 200) page = await browser.consent(page, 'allow');
      const { code } = callbackParams(page.location);
      const response = await server.post(
        '/token',
        { grant_type: 'authorization_code', code: code as string, redirect_uri: CALLBACK, code_verifier: verifier },
        { as: rp },
      );
      assert.equal(response.status, 200);
      return decodeJwt(((await response.json()) as { id_token: string }).id_token);
    }

    /** The link of the page that moves on from a federated sign-in to the authorization request. */
    function continueLink(answer: PageAnswer): string {
      const match = /id="continue" href="([^"]+)"/.exec(answer.html);
      assert.ok(match, 'the continue page');
      return (match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
    }

    /** Signs `username` in with the password and enrols a software passkey from the account page. */
    async function enrolPasskey(username: string): Promise<SoftAuthenticator> {
      const browser = new PageBrowser(server);
      const signedIn = await browser.login(await browser.authorize(query(pkce().challenge)), username, PASSWORD);
      assert.equal(signedIn.status, 303);
      const account = await browser.get('/account');
      const authenticator = new SoftAuthenticator('gatehouse.test', 'http://gatehouse.test');
      const enrolled = await browser.post('/account/passkeys', {
        csrf_token: hiddenField(account.html, 'csrf_token'),
        credential: authenticator.create(passkeyOptionsOf(account.html)),
        name: 'Key',
      });
      assert.equal(enrolled.status, 303, enrolled.html);
      return authenticator;
    }

    async function auditReasons(): Promise<string[]> {
      const events = await server.context.store.listAuditEvents({ event: 'federation_refused', limit: 100 });
      return events.map((e) => e.reason ?? '');
    }

    it('the sign-in page offers each upstream provider and an e-mail field for home-realm discovery', async () => {
      const page = await new PageBrowser(server).authorize(query(pkce().challenge));
      assert.match(page.html, /action="\/federation\/start"/);
      assert.match(page.html, /Sign in with Corp SSO/);
      assert.match(page.html, /name="email"/);
    });

    it('a first upstream sign-in provisions a local user: the ID token names its local sub (not the upstream one) with amr fed and the upstream amr, the same sub on the next sign-in', async () => {
      const browser = new PageBrowser(server);
      const one = pkce();
      const idToken = await tokensAfter(browser, await throughUpstream(browser, one.challenge, ANN), one.verifier);
      const user = (await server.context.store.listUsers()).find((u) => u.claims.email === 'ann@corp.example');
      assert.ok(user, 'a user was provisioned');
      assert.equal(user.claims.name, 'Ann Upstream');
      assert.equal(idToken.sub, user.subject);
      assert.notEqual(idToken.sub, ANN.sub);
      assert.deepEqual(idToken.amr, ['fed', 'pwd', 'mfa']);
      const again = new PageBrowser(server);
      const two = pkce();
      const second = await tokensAfter(again, await throughUpstream(again, two.challenge, ANN), two.verifier);
      assert.equal(second.sub, idToken.sub);
      assert.equal(
        (await server.context.store.listUsers()).filter((u) => u.claims.email === 'ann@corp.example').length,
        1,
      );
    });

    it('prompt=login and max_age: the callback moves on by the continue page as always, not by a redirect to the client (CSP3 §6.3.1.1 form-action), and the upstream sign-in answers the request once (OIDC Core §3.1.2.1)', async () => {
      const extras: Record<string, string>[] = [{ prompt: 'login' }, { max_age: '0' }];
      for (const extra of extras) {
        const browser = new PageBrowser(server);
        const { challenge, verifier } = pkce();
        const answer = await throughUpstream(browser, challenge, ANN, extra);
        assert.equal(answer.status, 200, `${JSON.stringify(extra)}: the continue page, not ${answer.location}`);
        const link = continueLink(answer);
        assert.match(link, /^\/federation\/continue\?/);
        const idToken = await tokensAfter(browser, answer, verifier);
        assert.equal(idToken.auth_time, server.clock.now());
        assert.deepEqual(idToken.amr, ['fed', 'pwd', 'mfa']);
        // Once: the same link again goes to GET /authorize, which decides (prompt=login asks again).
        const again = await browser.get(link);
        assert.equal(again.status, 302);
        assert.match(again.location ?? '', /^\/authorize\?/);
      }
    });

    it('after an upstream sign-in, a client requiring a second factor still asks the local one (step-up, here its enrolment) unless the upstream amr says mfa (RFC 8176 §2, docs/federation.md)', async () => {
      /** Through the upstream to Payroll (second_factor required): the page GET /authorize answers. */
      async function toPayroll(user: StubUser, acrValues?: string): Promise<PageAnswer> {
        const browser = new PageBrowser(server);
        const params = { scope: 'openid', nonce: 'n-2', ...(acrValues ? { acr_values: acrValues } : {}) };
        const page = await browser.authorize(authorizationQuery('payroll', pkce().challenge, params));
        const started = await browser.post('/federation/start', {
          csrf_token: hiddenField(page.html, 'csrf_token'),
          request: hiddenField(page.html, 'request'),
          provider: 'corp',
        });
        assert.equal(started.status, 303, started.html);
        const back = await browser.get(
          `/federation/callback?${upstream.approve(new URL(started.location as string), user)}`,
        );
        return browser.get(continueLink(back));
      }
      const ben: StubUser = {
        sub: 'upstream-ben',
        claims: { email: 'ben@corp.example', email_verified: true, amr: ['pwd'] },
      };
      const single = await toPayroll(ben);
      assert.equal(single.status, 200);
      assert.match(
        single.html,
        /<h1>Set up two-step verification<\/h1>/,
        'fed + pwd is one factor: the local one is due',
      );
      const multi = await toPayroll(ANN);
      assert.doesNotMatch(multi.html, /two-step verification/i, 'the upstream did mfa: no local factor asked');
      assert.ok(multi.status === 302 || /Allow/.test(multi.html), 'on to consent or the client');
    });

    it('the upstream acr is kept on the session beside its amr; an acr the operator maps as multi-factor (mfa_acr_values) counts as mfa, another does not (OIDC Core §2, RFC 8176 §2)', async () => {
      await putProvider(
        server.context.store,
        {
          id: 'corp-acr',
          issuer: upstream.issuer,
          client_id: upstream.clientId,
          client_secret: upstream.clientSecret,
          mfa_acr_values: ['urn:corp:acr:mfa'],
        },
        server.clock.now(),
        undefined,
      );
      /** Through the provider corp-acr to `client`: the browser and the page GET /authorize answers next. */
      async function through(client: string, user: StubUser, challenge: string) {
        const browser = new PageBrowser(server);
        const params = { scope: 'openid', nonce: 'n-3' };
        const page = await browser.authorize(authorizationQuery(client, challenge, params));
        const started = await browser.post('/federation/start', {
          csrf_token: hiddenField(page.html, 'csrf_token'),
          request: hiddenField(page.html, 'request'),
          provider: 'corp-acr',
        });
        assert.equal(started.status, 303, started.html);
        const back = await browser.get(
          `/federation/callback?${upstream.approve(new URL(started.location as string), user)}`,
        );
        return { browser, back };
      }
      const eve = (acr: string): StubUser => ({
        sub: 'upstream-eve',
        claims: { email: 'eve@corp.example', email_verified: true, amr: ['pwd'], acr },
      });
      const single = await through('payroll', eve('urn:corp:acr:password'), pkce().challenge);
      const stored = await server.context.store.findBrowserSession(
        digestOf((single.browser.cookie as string).split('=')[1] as string),
        server.clock.now(),
      );
      assert.deepEqual(
        stored?.methods?.map((m) => [m.method, m.acr]),
        [
          ['fed', 'urn:corp:acr:password'],
          ['pwd', undefined],
        ],
        'the upstream acr is stored with the sign-in, not mapped: no mfa',
      );
      const due = await single.browser.get(continueLink(single.back));
      assert.match(due.html, /<h1>Set up two-step verification<\/h1>/, 'an unmapped acr is one factor');
      const multi = await through('payroll', eve('urn:corp:acr:mfa'), pkce().challenge);
      const next = await multi.browser.get(continueLink(multi.back));
      assert.doesNotMatch(next.html, /two-step verification/i, 'a mapped acr counts as mfa: no local factor asked');
      assert.ok(next.status === 302 || /Allow/.test(next.html), 'on to consent or the client');
      const { challenge, verifier } = pkce();
      const toRp = await through('rp', eve('urn:corp:acr:mfa'), challenge);
      const idToken = await tokensAfter(toRp.browser, toRp.back, verifier);
      assert.deepEqual(idToken.amr, ['fed', 'pwd', 'mfa']);
      assert.equal(idToken.acr, 'mfa');
    });

    it('home-realm discovery: an e-mail of a provider’s domain goes straight to it, with login_hint; another domain is federation_no_provider', async () => {
      const browser = new PageBrowser(server);
      const started = await start(browser, pkce().challenge, { email: 'ann@corp.example' });
      assert.equal(started.status, 303);
      const url = new URL(started.location as string);
      assert.equal(url.origin, upstream.issuer);
      assert.equal(url.searchParams.get('login_hint'), 'ann@corp.example');
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(url.searchParams.get('nonce'));
      const unknown = await start(new PageBrowser(server), pkce().challenge, { email: 'ann@elsewhere.example' });
      assert.equal(unknown.status, 404);
      assert.match(unknown.html, /federation_no_provider/);
    });

    it("home-realm discovery by organization: an e-mail of an organization's verified domain goes to the organization's upstream", async () => {
      const { audit } = server.context;
      const now = server.clock.now();
      await createOrganization(audit, { slug: 'initech' }, now, CLI_ACTOR);
      await addDomain(audit, 'initech', 'initech.example', false, now, CLI_ACTOR);
      await changeOrganization(audit, 'initech', { policy: { upstream: 'trusting' } }, now, CLI_ACTOR);
      const unverified = await start(new PageBrowser(server), pkce().challenge, { email: 'ann@initech.example' });
      assert.equal(unverified.status, 404, 'an unverified domain sends nobody anywhere');
      await addDomain(audit, 'initech', 'initech.example', true, now, CLI_ACTOR);
      const started = await start(new PageBrowser(server), pkce().challenge, { email: 'ann@initech.example' });
      assert.equal(started.status, 303, started.html);
      const url = new URL(started.location as string);
      assert.equal(url.origin, upstream.issuer);
      assert.equal(url.searchParams.get('login_hint'), 'ann@initech.example');
    });

    it('an upstream identity whose e-mail is an existing account’s is linked only after that account’s password: a wrong one links nothing', async () => {
      const carol: StubUser = { sub: 'upstream-carol', claims: { email: 'carol@corp.example', email_verified: true } };
      const browser = new PageBrowser(server);
      const { challenge, verifier } = pkce();
      const linkPage = await throughUpstream(browser, challenge, carol);
      assert.equal(linkPage.status, 200);
      assert.match(linkPage.html, /Link your account/);
      const form = {
        csrf_token: hiddenField(linkPage.html, 'csrf_token'),
        request: hiddenField(linkPage.html, 'request'),
      };
      const wrong = await browser.post('/federation/link', { ...form, password: 'not the password' });
      assert.equal(wrong.status, 401);
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-carol'), undefined);
      const right = await browser.post('/federation/link', { ...form, password: PASSWORD });
      const idToken = await tokensAfter(browser, right, verifier);
      const local = await server.context.store.findUser('carol');
      assert.equal(idToken.sub, local?.subject);
      assert.equal(
        (await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-carol'))?.username,
        'carol',
      );
    });

    it('the link page names no local username, not even by its initial, before or after a wrong password: it says only that an account uses the address (docs/federation.md)', async () => {
      const now = server.clock.now();
      await addUser(server.context.store, 'kestrel-77', PASSWORD, now, { email: 'morgan@corp.example' });
      await enrolPasskey('kestrel-77');
      // The upstream merely claims the address: email_verified false, as anyone's upstream account may.
      const morgan: StubUser = {
        sub: 'upstream-morgan',
        claims: { email: 'morgan@corp.example', email_verified: false },
      };
      const browser = new PageBrowser(server);
      const linkPage = await throughUpstream(browser, pkce().challenge, morgan);
      assert.equal(linkPage.status, 200);
      assert.match(linkPage.html, /An account here already uses the e-mail address/);
      assert.match(linkPage.html, /Use a passkey of that account/);
      const wrong = await browser.post('/federation/link', {
        csrf_token: hiddenField(linkPage.html, 'csrf_token'),
        request: hiddenField(linkPage.html, 'request'),
        password: 'not the password',
      });
      assert.equal(wrong.status, 401);
      for (const page of [linkPage, wrong]) {
        assert.doesNotMatch(page.html, /kestrel/i, 'the username is not on the page');
        assert.doesNotMatch(page.html, /class="mark mark-user"[^>]*>K</, 'nor its initial as an avatar');
      }
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-morgan'), undefined);
    });

    it('an existing account is proved by a passkey of its own too, with user verification (WebAuthn §7.2 steps 5, 17): another user’s passkey or one without user verification links nothing and is audited; its own links', async () => {
      const now = server.clock.now();
      // The e-mail in another case: users are found by e-mail compared lowercased.
      await addUser(server.context.store, 'heidi', PASSWORD, now, { email: 'Heidi@Corp.example' });
      await addUser(server.context.store, 'ivan', PASSWORD, now, { email: 'ivan@elsewhere.example' });
      const heidiKey = await enrolPasskey('heidi');
      const ivanKey = await enrolPasskey('ivan');
      const browser = new PageBrowser(server);
      const { challenge, verifier } = pkce();
      const heidi: StubUser = { sub: 'upstream-heidi', claims: { email: 'heidi@corp.example', email_verified: true } };
      const linkPage = await throughUpstream(browser, challenge, heidi);
      assert.match(linkPage.html, /Link your account/);
      assert.match(linkPage.html, /src="\/assets\/passkey\.js"/);
      const options = passkeyOptionsOf(linkPage.html);
      assert.deepEqual(
        options.allowCredentials?.map((c) => c.id),
        [heidiKey.credentialId],
        'only heidi’s passkeys are offered',
      );
      assert.equal(options.userVerification, 'required');
      const withPasskey = (page: PageAnswer, credential: string) =>
        browser.post('/federation/link', {
          csrf_token: hiddenField(page.html, 'csrf_token'),
          request: hiddenField(page.html, 'request'),
          method: 'passkey',
          credential,
        });
      const others = await withPasskey(linkPage, ivanKey.get(options));
      assert.equal(others.status, 401);
      assert.match(others.html, /That passkey did not work/);
      const unverified = await withPasskey(
        others,
        heidiKey.get(passkeyOptionsOf(others.html), { userVerified: false }),
      );
      assert.equal(unverified.status, 401);
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-heidi'), undefined);
      const failures = await server.context.store.listAuditEvents({ event: 'login_failed', limit: 100 });
      assert.deepEqual(
        failures
          .filter((e) => e.subject === 'heidi')
          .map((e) => e.reason)
          .sort(),
        ['passkey_invalid', 'passkey_unknown'],
      );
      const right = await withPasskey(unverified, heidiKey.get(passkeyOptionsOf(unverified.html)));
      const idToken = await tokensAfter(browser, right, verifier);
      assert.equal(idToken.sub, (await server.context.store.findUser('heidi'))?.subject);
      assert.deepEqual((idToken.amr as string[]).slice(0, 3), ['hwk', 'user', 'fed']);
      assert.equal(
        (await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-heidi'))?.username,
        'heidi',
      );
      const [linked] = await server.context.store.listAuditEvents({ event: 'federated_identity_linked', limit: 1 });
      assert.equal(linked?.reason, 'corp: passkey proved');
    });

    it('a provider trusted for a domain links an existing account by a verified e-mail without its password, but never an unverified one; without provisioning, an unknown person is federation_no_account', async () => {
      const via = async (user: StubUser) => {
        const browser = new PageBrowser(server);
        const started = await start(browser, pkce().challenge, { provider: 'trusting' });
        return browser.get(`/federation/callback?${upstream.approve(new URL(started.location as string), user)}`);
      };
      const unverified = await via({
        sub: 'dave-unverified',
        claims: { email: 'dave@corp.example', email_verified: false },
      });
      assert.match(unverified.html, /Link your account/);
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'dave-unverified'), undefined);
      const verified = await via({
        sub: 'dave-verified',
        claims: { email: 'dave@corp.example', email_verified: true },
      });
      assert.equal(verified.status, 200);
      assert.match(verified.html, /id="continue"/);
      assert.equal(
        (await server.context.store.findFederatedIdentity(upstream.issuer, 'dave-verified'))?.username,
        'dave',
      );
      const stranger = await via({ sub: 'nobody', claims: { email: 'nobody@corp.example', email_verified: true } });
      assert.equal(stranger.status, 403);
      assert.match(stranger.html, /federation_no_account/);
    });

    it('the account page lists linked providers; unlinking the only way to sign in is refused, unlinking beside a password works', async () => {
      // carol (linked above) has a password: she may unlink.
      const carolBrowser = new PageBrowser(server);
      const { challenge } = pkce();
      const page = await carolBrowser.authorize(query(challenge));
      const signedIn = await carolBrowser.login(page, 'carol', PASSWORD);
      assert.equal(signedIn.status, 303);
      const account = await carolBrowser.get('/account');
      assert.match(account.html, /Identity providers you sign in with/);
      assert.match(account.html, /Corp SSO/);
      const unlinked = await carolBrowser.post('/account/unlink', {
        csrf_token: hiddenField(account.html, 'csrf_token'),
        issuer: upstream.issuer,
        subject: 'upstream-carol',
      });
      assert.equal(unlinked.status, 303);
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-carol'), undefined);
      // ann was provisioned: the upstream is her only way in.
      const annBrowser = new PageBrowser(server);
      const signedInAnn = await throughUpstream(annBrowser, pkce().challenge, ANN);
      assert.equal(signedInAnn.status, 200);
      const annAccount = await annBrowser.get('/account');
      const refused = await annBrowser.post('/account/unlink', {
        csrf_token: hiddenField(annAccount.html, 'csrf_token'),
        issuer: upstream.issuer,
        subject: ANN.sub,
      });
      assert.equal(refused.status, 409);
      assert.match(refused.html, /federation_unlink_refused/);
      assert.ok(await server.context.store.findFederatedIdentity(upstream.issuer, ANN.sub));
    });

    it('a forged state, a replayed state and a state from another browser are refused with federation_state_invalid and audited (RFC 6749 §10.12)', async () => {
      const forged = await new PageBrowser(server).get(
        `/federation/callback?code=x&state=forged&iss=${encodeURIComponent(upstream.issuer)}`,
      );
      assert.equal(forged.status, 400);
      assert.match(forged.html, /federation_state_invalid/);
      const browser = new PageBrowser(server);
      const started = await start(browser, pkce().challenge, { provider: 'corp' });
      const callback = upstream.approve(new URL(started.location as string), ANN);
      const stranger = new PageBrowser(server);
      await stranger.authorize(query(pkce().challenge));
      assert.equal((await stranger.get(`/federation/callback?${callback}`)).status, 400);
      // Taken by the stranger's attempt: the rightful browser's callback is now a replay.
      assert.equal((await browser.get(`/federation/callback?${callback}`)).status, 400);
      const other = new PageBrowser(server);
      const second = await start(other, pkce().challenge, { provider: 'corp' });
      const once = upstream.approve(new URL(second.location as string), ANN);
      assert.equal((await other.get(`/federation/callback?${once}`)).status, 200);
      const replay = await other.get(`/federation/callback?${once}`);
      assert.equal(replay.status, 400);
      const reasons = await auditReasons();
      assert.ok(reasons.some((r) => r.includes('unknown, used or expired state')));
      assert.ok(reasons.some((r) => r.includes('another browser session')));
    });

    for (const [mode, why] of [
      ['alg_none', 'an unsigned ID token (alg none)'],
      ['wrong_key', 'an ID token signed by a key not in the upstream JWKS'],
      ['wrong_aud', 'an ID token for another audience'],
      ['wrong_iss', 'an ID token of another issuer'],
      ['wrong_nonce', 'an ID token with another nonce'],
      ['expired', 'an expired ID token'],
    ] as const)
      it(`${why} is refused with upstream_token_invalid and audited (OIDC Core §3.1.3.7)`, async () => {
        upstream.mode = mode;
        try {
          const before = (await auditReasons()).length;
          const answer = await throughUpstream(new PageBrowser(server), pkce().challenge, {
            sub: `hostile-${mode}`,
            claims: { email: `${mode}@corp.example` },
          });
          assert.equal(answer.status, 400, answer.html.slice(0, 300));
          assert.match(answer.html, /upstream_token_invalid/);
          assert.equal((await auditReasons()).length, before + 1);
          assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, `hostile-${mode}`), undefined);
        } finally {
          upstream.mode = 'good';
        }
      });

    it('a callback naming another issuer is refused (RFC 9207 §2.4)', async () => {
      const browser = new PageBrowser(server);
      const started = await start(browser, pkce().challenge, { provider: 'corp' });
      const callback = new URLSearchParams(upstream.approve(new URL(started.location as string), ANN));
      callback.set('iss', 'https://evil.example');
      const answer = await browser.get(`/federation/callback?${callback}`);
      assert.equal(answer.status, 400);
      assert.match(answer.html, /upstream_token_invalid/);
    });

    it('the upstream’s access_denied and login_required are the catalog’s upstream_access_denied and upstream_login_required', async () => {
      for (const [error, status, code] of [
        ['access_denied', 403, 'upstream_access_denied'],
        ['login_required', 401, 'upstream_login_required'],
      ] as const) {
        const browser = new PageBrowser(server);
        const started = await start(browser, pkce().challenge, { provider: 'corp' });
        const answer = await browser.get(
          `/federation/callback?${upstream.deny(new URL(started.location as string), error)}`,
        );
        assert.equal(answer.status, status);
        assert.match(answer.html, new RegExp(code));
      }
    });

    it('an upstream that is down is the upstream_unavailable page with Retry-After and a Try again link, never a 500', async () => {
      const answer = await start(new PageBrowser(server), pkce().challenge, { provider: 'down' });
      assert.equal(answer.status, 503);
      assert.match(answer.html, /upstream_unavailable/);
      assert.match(answer.html, /Try again/);
      assert.ok(answer.headers.get('retry-after'));
    });

    it('signing out of a session that came from an upstream with end_session ends it there too, then shows the signed-out page (RP-Initiated Logout 1.0 §2)', async () => {
      const browser = new PageBrowser(server);
      const signedIn = await throughUpstream(browser, pkce().challenge, ANN);
      assert.equal(signedIn.status, 200);
      const confirm = await browser.get('/logout');
      const out = await browser.post('/logout', {
        csrf_token: hiddenField(confirm.html, 'csrf_token'),
        request: hiddenField(confirm.html, 'request'),
      });
      assert.equal(out.status, 303);
      const upstreamLogout = new URL(out.location as string);
      assert.equal(`${upstreamLogout.origin}${upstreamLogout.pathname}`, `${upstream.issuer}/logout`);
      assert.equal(
        upstreamLogout.searchParams.get('post_logout_redirect_uri'),
        'http://gatehouse.test/federation/signed-out',
      );
      assert.ok(upstreamLogout.searchParams.get('id_token_hint'));
      const back = await browser.get(`/federation/signed-out?state=${upstreamLogout.searchParams.get('state') ?? ''}`);
      assert.equal(back.status, 200);
      assert.match(back.html, /You are signed out/);
      // The session here is gone: the account page asks to sign in.
      assert.match(
        (await browser.get('/account')).html,
        /<h1>Sign in<\/h1>/,
        'signed out: the account page asks to sign in',
      );
    });

    it('an upstream client secret is sealed at rest under KEY_ENCRYPTION_KEY, bound to its provider', async () => {
      const encryption = KeyEncryption.fromSecret('k'.repeat(40));
      const sealed = await putProvider(
        server.context.store,
        { id: 'sealed', issuer: 'https://sealed.example', client_id: 'c', client_secret: 'the-upstream-secret' },
        server.clock.now(),
        encryption,
      );
      assert.equal(sealed.clientSecret, 'the-upstream-secret');
      const row = await server.context.store.findUpstreamProvider('sealed');
      assert.ok(row && !row.credential.includes('the-upstream-secret'));
      assert.match(row.credential, /A256GCM/);
      await server.context.store.removeUpstreamProvider('sealed');
    });
  });
