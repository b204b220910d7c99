/**
 * An organization's `sign_in_methods` (docs/organizations.md): a sign-in for the organization whose
 * first factor (a password, a passwordless passkey, an upstream provider) the policy does not allow
 * is refused on the catalog's localized page `organization-sign-in-method` (403), never sent to the
 * client; a federated one counts only through the organization's own upstream when it names one.
 * The sign-in page of a request naming the organization offers only the ways allowed, and is the
 * refusal at once when it could offer none. The rule as a function, then at /authorize on both dialects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { putProvider } from '../src/federation/providers.js';
import {
  addDomain,
  allowsSignIn,
  changeOrganization,
  createOrganization,
  DEFAULT_POLICY,
  putMember,
  type OrganizationPolicy,
} from '../src/organizations/index.js';
import {
  addTestUser,
  authorizationQuery,
  callbackParams,
  hiddenField,
  PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';
import { startUpstreamStub, type StubUser, type UpstreamStub } from './_upstream-stub.js';

const policy = (change: Partial<OrganizationPolicy>): OrganizationPolicy => ({ ...DEFAULT_POLICY, ...change });
const at = 1;

describe('which sign-ins an organization allows (sign_in_methods)', () => {
  it('the first factor decides: a password, a passwordless passkey (hwk or swk, RFC 8176 §2), an upstream provider', () => {
    const passkeys = policy({ sign_in_methods: ['passkey'] });
    assert.equal(allowsSignIn(passkeys, [{ method: 'hwk' }, { method: 'user' }]), true);
    assert.equal(allowsSignIn(passkeys, [{ method: 'swk' }, { method: 'user' }]), true);
    assert.equal(allowsSignIn(passkeys, [{ method: 'pwd' }]), false);
    assert.equal(
      allowsSignIn(passkeys, [{ method: 'pwd' }, { method: 'hwk' }]),
      false,
      'a passkey as the second factor after a password is still a password sign-in',
    );
    assert.equal(allowsSignIn(passkeys, []), false, 'a session that recorded nothing is allowed nowhere');
    const passwords = policy({ sign_in_methods: ['password'] });
    assert.equal(allowsSignIn(passwords, [{ method: 'pwd' }, { method: 'otp' }]), true);
    assert.equal(allowsSignIn(passwords, [{ method: 'fed', upstream: 'corp' }]), false);
  });

  it("a federated sign-in counts through the organization's own upstream when the policy names one, through any otherwise", () => {
    const anyUpstream = policy({ sign_in_methods: ['federation'] });
    assert.equal(allowsSignIn(anyUpstream, [{ method: 'fed', upstream: 'elsewhere' }, { method: 'pwd' }]), true);
    const ownUpstream = policy({ sign_in_methods: ['federation'], upstream: 'corp' });
    assert.equal(allowsSignIn(ownUpstream, [{ method: 'fed', upstream: 'corp' }, { method: 'pwd' }]), true);
    assert.equal(allowsSignIn(ownUpstream, [{ method: 'fed', upstream: 'elsewhere' }]), false);
    assert.equal(allowsSignIn(ownUpstream, [{ method: 'fed' }]), false, 'an upstream not recorded is not its own');
  });

  it('every method is allowed by default', () => {
    for (const methods of [[{ method: 'pwd' }], [{ method: 'hwk' }], [{ method: 'fed', upstream: 'x' }]])
      assert.equal(
        allowsSignIn(
          DEFAULT_POLICY,
          methods.map((m) => ({ ...m, at })),
        ),
        true,
      );
  });
});

const ANN: StubUser = {
  sub: 'upstream-ann',
  claims: { email: 'ann@corp.example', email_verified: true, name: 'Ann Upstream', amr: ['pwd'] },
};

for (const dialect of DIALECTS)
  describe(`organization sign-in methods at /authorize [${dialect}]`, () => {
    let server: TestServer;
    let upstream: UpstreamStub;

    before(async () => {
      server = await startTestServer({ dialect });
      upstream = await startUpstreamStub();
      await server.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'], scope: ['openid'] });
      const { store, audit } = server.context;
      const now = server.clock.now();
      for (const id of ['corp', 'other'])
        await putProvider(
          store,
          { id, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret },
          now,
          undefined,
        );
      await addTestUser(server, 'alice');
      await createOrganization(audit, { slug: 'acme', name: 'Acme', roles: ['member'] }, now, CLI_ACTOR);
      await addDomain(audit, 'acme', 'corp.example', true, now, CLI_ACTOR);
      const acmePolicy = { sign_in_methods: ['federation'], upstream: 'corp', default_role: 'member' };
      await changeOrganization(audit, 'acme', { policy: acmePolicy }, now, CLI_ACTOR);
      await putMember(audit, 'acme', 'alice', ['member'], now, CLI_ACTOR);
    });
    after(async () => {
      await server.close();
      await upstream.close();
    });

    const query = (extra: Record<string, string> = {}) =>
      authorizationQuery('app', pkce().challenge, { scope: 'openid', organization: 'acme', ...extra });

    /** Signs in through upstream `provider` as ann, then follows the continue link: the next page. */
    async function throughUpstream(browser: PageBrowser, provider: string): Promise<PageAnswer> {
      const page = await browser.authorize(query());
      const started = await browser.post('/federation/start', {
        csrf_token: hiddenField(page.html, 'csrf_token'),
        request: hiddenField(page.html, 'request'),
        provider,
      });
      assert.equal(started.status, 303, started.html);
      const back = await browser.get(`/federation/callback?${upstream.approve(new URL(started.location!), ANN)}`);
      assert.equal(back.status, 200, back.html.slice(0, 400));
      const link = /id="continue" href="([^"]+)"/.exec(back.html)?.[1] ?? '';
      return browser.get(link.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
    }

    it('a password sign-in for an organization allowing only its identity provider is the localized catalog page, never sent to the client', async () => {
      for (const [locale, title] of [
        ['en', 'Your organization asks you to sign in another way'],
        ['de', 'Ihre Organisation verlangt eine andere Anmeldung'],
        ['ja', '組織は別の方法でのサインインを求めています'],
      ] as const) {
        const browser = new PageBrowser(server);
        const signIn = await browser.authorize(query({ ui_locales: locale }));
        const signedIn = await browser.login(signIn, 'alice', PASSWORD);
        const refused = await browser.get(signedIn.location!);
        assert.equal(refused.status, 403);
        assert.equal(refused.location, undefined, 'never sent to the client');
        assert.match(refused.html, /organization-sign-in-method/);
        assert.ok(refused.html.includes(title), `the ${locale} title`);
        assert.match(refused.html, /Acme allows signing in with the identity provider &#39;corp&#39; only/);
      }
    });

    it("the sign-in page offers only the ways the organization's policy allows, and is the refusal at once when it could offer none", async () => {
      const { audit } = server.context;
      const set = (change: Record<string, unknown>) =>
        changeOrganization(audit, 'acme', { policy: change }, server.clock.now(), CLI_ACTOR);
      const page = async (extra: Record<string, string> = {}) => new PageBrowser(server).authorize(query(extra));
      const providers = (html: string) => [...html.matchAll(/name="provider" value="([^"]+)"/g)].map((m) => m[1]);

      // Its own upstream only: no password form, no other provider.
      const federated = await page();
      assert.equal(federated.status, 200, federated.html.slice(0, 400));
      assert.doesNotMatch(federated.html, /name="password"/);
      assert.doesNotMatch(federated.html, /Forgot your password/);
      assert.deepEqual(providers(federated.html), ['corp']);

      // Any upstream: every provider, still no password.
      await set({ sign_in_methods: ['federation'], upstream: '' });
      assert.deepEqual(providers((await page()).html).sort(), ['corp', 'other']);

      // Passwords only: the form, no provider.
      await set({ sign_in_methods: ['password'] });
      const passwords = await page();
      assert.match(passwords.html, /name="password"/);
      assert.deepEqual(providers(passwords.html), []);
      assert.doesNotMatch(passwords.html, /federation\/start/);

      // Passkeys only: the passkey form alone.
      await set({ sign_in_methods: ['passkey'] });
      const passkeys = await page();
      assert.equal(passkeys.status, 200, passkeys.html.slice(0, 400));
      assert.match(passkeys.html, /id="passkey-form"/);
      assert.doesNotMatch(passkeys.html, /name="password"/);
      assert.deepEqual(providers(passkeys.html), []);
      // Passwords and federation: no passkey form.
      await set({ sign_in_methods: ['password', 'federation'], upstream: 'corp' });
      const noPasskey = await page();
      assert.doesNotMatch(noPasskey.html, /id="passkey-form"/);
      assert.match(noPasskey.html, /name="password"/);
      assert.deepEqual(providers(noPasskey.html), ['corp']);

      // No organization named, or one the store does not know: every way (the consent step refuses the latter).
      const plain = new PageBrowser(server);
      const all = await plain.authorize(authorizationQuery('app', pkce().challenge, { scope: 'openid' }));
      assert.match(all.html, /name="password"/);
      assert.deepEqual(providers(all.html).sort(), ['corp', 'other']);
      const unknown = await page({ organization: 'nowhere' });
      assert.match(unknown.html, /name="password"/);

      await set({ sign_in_methods: ['federation'], upstream: 'corp' });
    });

    it('passkeys only, on a server that offers none (its issuer is no WebAuthn RP ID): nothing to show, so the localized refusal at once, never sent to the client', async () => {
      const bare = await startTestServer({ dialect, reachableIssuer: true });
      try {
        await bare.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'], scope: ['openid'] });
        const now = bare.clock.now();
        await createOrganization(bare.context.audit, { slug: 'acme', name: 'Acme', roles: [] }, now, CLI_ACTOR);
        const policy = { sign_in_methods: ['passkey'] };
        await changeOrganization(bare.context.audit, 'acme', { policy }, now, CLI_ACTOR);
        for (const [locale, title] of [
          ['en', 'Your organization asks you to sign in another way'],
          ['de', 'Ihre Organisation verlangt eine andere Anmeldung'],
        ] as const) {
          const refused = await new PageBrowser(bare).authorize(query({ ui_locales: locale }));
          assert.equal(refused.status, 403, refused.html.slice(0, 400));
          assert.equal(refused.location, undefined, 'never sent to the client');
          assert.match(refused.html, /organization-sign-in-method/);
          assert.ok(refused.html.includes(title), `the ${locale} title`);
          assert.match(refused.html, /Acme allows signing in with a passkey only/);
        }
        // Once passwords are allowed too, the page is the password form.
        await changeOrganization(
          bare.context.audit,
          'acme',
          { policy: { sign_in_methods: ['passkey', 'password'] } },
          bare.clock.now(),
          CLI_ACTOR,
        );
        const form = await new PageBrowser(bare).authorize(query());
        assert.equal(form.status, 200);
        assert.match(form.html, /name="password"/);
        assert.doesNotMatch(form.html, /id="passkey-form"/);
      } finally {
        await bare.close();
      }
    });

    it("a sign-in through the organization's upstream is allowed (and joins by the verified domain); through another upstream it is refused", async () => {
      const own = await throughUpstream(new PageBrowser(server), 'corp');
      assert.equal(own.status, 200, own.html.slice(0, 400));
      assert.match(own.html, /For the organization Acme/, 'the consent page');
      const other = await throughUpstream(new PageBrowser(server), 'other');
      assert.equal(other.status, 403);
      assert.match(other.html, /organization-sign-in-method/);
    });

    it('once the policy allows passwords, the same password sign-in gets its code; without the organization nothing is asked', async () => {
      const { audit } = server.context;
      const policy = { sign_in_methods: ['password', 'federation'] };
      await changeOrganization(audit, 'acme', { policy }, server.clock.now(), CLI_ACTOR);
      const browser = new PageBrowser(server);
      const signedIn = await browser.login(await browser.authorize(query()), 'alice', PASSWORD);
      const consent = await browser.get(signedIn.location!);
      assert.equal(consent.status, 200);
      assert.ok(callbackParams((await browser.consent(consent, 'allow')).location).code);
      await changeOrganization(
        audit,
        'acme',
        { policy: { sign_in_methods: ['passkey'] } },
        server.clock.now(),
        CLI_ACTOR,
      );
      const plain = new PageBrowser(server);
      const without = authorizationQuery('app', pkce().challenge, { scope: 'openid' });
      const page = await plain.get((await plain.login(await plain.authorize(without), 'alice', PASSWORD)).location!);
      assert.equal(page.status, 200, 'a sign-in for no organization is not the policy’s');
    });
  });
