import assert from 'node:assert/strict';
import { totpCode } from '../src/factors/totp.js';
import { BROWSER_PAGES } from '../src/authorize/browser-pages.js';
import { ACCOUNT_PAGES } from '../src/accounts/index.js';
import { digestOf } from '../src/primitives/secrets.js';
import { newOpaqueSecret } from '../src/primitives/random.js';
import { addUser } from '../src/users/users.js';
import { federationPage } from '../src/federation/routes.js';
import { SITE_PAGES } from '../src/pages/routes.js';
import { DEMO_PUBLIC_CLIENT_ID, DemoFlows } from '../src/pages/demo-flows.js';
import { enrolmentSecret } from './_factors.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { setUserPassword } from '../src/users/user-administration.js';
import type { AccountSettings } from '../src/context.js';
import { changeOrganization, createOrganization, putMember } from '../src/organizations/index.js';
import { putProvider } from '../src/federation/providers.js';
import { DEMO_CALLBACK_PATH } from '../src/pages/demo-callback.js';
import { startUpstreamStub, type StubUser, type UpstreamStub } from './_upstream-stub.js';
import { startTestServer, type TestClient, type TestServer, type TestServerOptions } from './_server.js';
import { assertOkJson } from './_oauth-assertions.js';
import {
  addTestUser,
  authorizationQuery,
  CALLBACK,
  hiddenField,
  type PageBrowser,
  PASSWORD,
  pkce,
  type PageAnswer,
} from './_authorize.js';

/**
 * Every kind of page a person sees, reached over HTTP as a browser reaches it, one scenario per
 * entry of the pages' tables (the authorization pages, federation's, the site's), so that a page
 * added to a table without a scenario here fails the tests that walk them (page-text.test.ts,
 * page-languages.test.ts).
 */

/** A page as shown, and whether it belongs to an authorization request (its ui_locales then count). */
export interface ShownPage {
  readonly kind: string;
  readonly page: PageAnswer;
  readonly ofRequest: boolean;
}

/** What a scenario is given: the server, a browser that asks for a language as the caller set up, and the request's extra parameters. */
export interface Visit {
  readonly server: TestServer;
  readonly browser: () => PageBrowser;
  /** Added to every authorization request (e.g. `ui_locales`). */
  readonly request: Readonly<Record<string, string>>;
}

export const PAGE_TABLE_NAMES: readonly string[] = [
  ...BROWSER_PAGES.map((p) => p.name),
  federationPage(undefined).name,
  ...ACCOUNT_PAGES.map((p) => p.name),
  ...SITE_PAGES.map((p) => p.name),
];

export const DEMO_FLOWS = new DemoFlows();

/** The device client, as /device_authorization takes it. */
let tv: TestClient;
/** The upstream OpenID Provider of the federation scenario (the provider `corp`). */
let upstream: UpstreamStub;
/** A local account whose e-mail an upstream identity also claims: the link page asks for its password. */
const LINKED_EMAIL = 'linda@corp.example';
/** The web client of the scenarios (its secret for /par and grants). */
export const pageClients: { app?: TestClient } = {};

/** The server every scenario runs on: a client of each kind, the demo flows, and the pseudo-locale. */
export async function startPagesServer(
  options: { defaultLocale?: 'ja'; branding?: TestServerOptions['branding'] } = {},
): Promise<TestServer> {
  // The issuer is the listening URL: the demo client's redirect URI is on it, loopback http.
  const server = await startTestServer({
    pseudoLocale: true,
    demo: DEMO_FLOWS,
    reachableIssuer: true,
    signUp: { mode: 'open', domains: ['example.com'] },
    ...options,
  });
  pageClients.app = await server.addClient({
    id: 'app',
    name: 'Contacts Sync',
    redirectUris: [CALLBACK],
    scope: ['openid', 'profile', 'organization', 'contacts:read', 'contacts:write'],
  });
  // RFC 7591 §2: the sign-in and consent pages show the client's links, each with its host.
  await server.context.store.saveClientPresentation('app', {
    names: { de: 'Kontakte-Abgleich' },
    clientUri: 'https://contacts.example/',
    policyUri: 'https://contacts.example/privacy',
    tosUri: 'https://contacts.example/terms',
  });
  await server.addClient({ id: 'strict', name: 'Payroll', secondFactor: 'required', redirectUris: [CALLBACK] });
  tv = await server.addClient({
    id: 'tv',
    name: 'Living Room TV',
    public: true,
    grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'],
  });
  await addTestUser(server, 'alice');
  // alice is a member of two organizations: the chooser, and a consent page for one of them.
  const { audit } = server.context;
  for (const slug of ['acme', 'globex']) {
    await createOrganization(audit, { slug, name: `${slug} Inc.` }, server.clock.now(), CLI_ACTOR);
    await putMember(audit, slug, 'alice', [], server.clock.now(), CLI_ACTOR);
  }
  // `serve --demo`'s public client, its redirect URI on the issuer: the demo's signed-in page.
  await server.addClient({
    id: DEMO_PUBLIC_CLIENT_ID,
    name: 'Demo',
    public: true,
    redirectUris: [`${server.context.issuer}${DEMO_CALLBACK_PATH}`],
    scope: ['openid', 'profile', 'email'],
  });
  // An upstream provider: the link page (an identity claiming a local account's e-mail) and the continue page.
  upstream = await startUpstreamStub();
  await putProvider(
    server.context.store,
    {
      id: 'corp',
      issuer: upstream.issuer,
      client_id: upstream.clientId,
      client_secret: upstream.clientSecret,
      display_name: 'Corp SSO',
      domains: ['corp.example'],
    },
    server.clock.now(),
    undefined,
  );
  await addUser(server.context.store, 'linda', PASSWORD, server.clock.now(), { email: LINKED_EMAIL });
  // Organizations whose sign-in policy shapes the sign-in page of a request naming them: initrode signs
  // in through its own upstream only; hooli with passkeys only, which this server (its issuer an IP
  // address, no WebAuthn RP ID) cannot offer, so its request's page is the refusal at once.
  for (const [slug, policy] of [
    ['initrode', { sign_in_methods: ['federation'], upstream: 'corp' }],
    ['hooli', { sign_in_methods: ['passkey'] }],
  ] as const) {
    await createOrganization(audit, { slug, name: `${slug} Inc.` }, server.clock.now(), CLI_ACTOR);
    await changeOrganization(audit, slug, { policy }, server.clock.now(), CLI_ACTOR);
  }
  return {
    ...server,
    async close() {
      await server.close();
      await upstream.close();
    },
  };
}

let users = 0;

const shown = (kind: string, page: PageAnswer, ofRequest = false): ShownPage => {
  assert.ok(page.status < 500, `${kind}: ${page.status}`);
  return { kind, page, ofRequest };
};

/** A signed-in browser (alice at the client `app`): its consent page. */
async function consentPage(v: Visit, extra: Record<string, string> = {}) {
  const browser = v.browser();
  const query = authorizationQuery('app', pkce().challenge, { ...v.request, ...extra });
  const signIn = await browser.authorize(query);
  const done = await browser.login(signIn, 'alice', PASSWORD);
  return { browser, page: await browser.get(done.location as string), signIn };
}

const post = (browser: PageBrowser, page: PageAnswer, path: string, form: Record<string, string>) =>
  browser.post(path, { csrf_token: hiddenField(page.html, 'csrf_token'), ...form });

/** The sign-in page's federation form posted for the provider `corp`, then `user` approved upstream: the page the callback answered. */
async function throughUpstream(v: Visit, user: StubUser): Promise<{ browser: PageBrowser; page: PageAnswer }> {
  const browser = v.browser();
  const query = authorizationQuery('app', pkce().challenge, { ...v.request, scope: 'openid profile', nonce: 'n-1' });
  const signIn = await browser.authorize(query);
  const started = await post(browser, signIn, '/federation/start', {
    request: hiddenField(signIn.html, 'request'),
    provider: 'corp',
  });
  assert.equal(started.status, 303, started.html);
  const page = await browser.get(`/federation/callback?${upstream.approve(new URL(started.location as string), user)}`);
  return { browser, page };
}

/** A request as `serve --demo` prints it, signed in and allowed: /demo/callback exchanges the code and shows the ID token. */
async function demoSignedIn(v: Visit): Promise<PageAnswer> {
  const { state, challenge, nonce } = DEMO_FLOWS.start(DEMO_PUBLIC_CLIENT_ID, { openid: true });
  const query = authorizationQuery(DEMO_PUBLIC_CLIENT_ID, challenge, {
    ...v.request,
    redirect_uri: `${v.server.context.issuer}${DEMO_CALLBACK_PATH}`,
    scope: 'openid profile email',
    state,
    nonce,
  });
  const browser = v.browser();
  const signedIn = await browser.login(await browser.authorize(query), 'alice', PASSWORD);
  const consent = await browser.get(signedIn.location as string);
  // Allowed once on an earlier visit, the request goes straight back.
  const back = consent.status === 200 ? await browser.consent(consent, 'allow') : consent;
  const callback = new URL(back.location as string);
  assert.equal(callback.pathname, DEMO_CALLBACK_PATH, back.html);
  const page = await browser.get(`${callback.pathname}${callback.search}`);
  assert.match(page.html, /<dt[^>]*>nonce<\/dt>/, 'the demo shows the ID token');
  return page;
}

/**
 * The pages of the required actions (docs/accounts.md): the e-mail verification, its page for a user
 * with no address, the new password in place of a temporary one (and its refusal), and the terms.
 * They need EMAIL_VERIFICATION=required and TERMS_*, which the other scenarios' users would meet
 * too: the server's account settings say so only while this scenario runs.
 */
async function requiredActionPages(v: Visit): Promise<ShownPage[]> {
  const { store, audit, clock } = v.server.context;
  const settings = v.server.context.accounts as { -readonly [K in keyof AccountSettings]: AccountSettings[K] };
  const before = { ...settings };
  settings.emailVerification = 'required';
  settings.terms = { url: 'https://example.com/terms', version: '2026-11' };
  try {
    const username = `acting-${++users}`;
    await addUser(store, username, PASSWORD, clock.now(), { email: `${username}@example.com` });
    const query = authorizationQuery('app', pkce().challenge, v.request);
    const first = v.browser();
    const verify = await first.login(await first.authorize(query), username, PASSWORD);
    // An operator verified the address and set a temporary password: the next sign-in replaces it.
    await store.updateUserClaims(username, { email: `${username}@example.com`, email_verified: true }, clock.now());
    const temporary = 'temporary-7Qx-given';
    await setUserPassword(audit, username, temporary, clock.now(), CLI_ACTOR, { temporary: true });
    const second = v.browser();
    const change = await second.login(await second.authorize(query), username, temporary);
    const step = (fields: Record<string, string>) =>
      second.post('/login', {
        csrf_token: hiddenField(change.html, 'csrf_token'),
        request: hiddenField(change.html, 'request'),
        ...fields,
      });
    const refused = await step({ method: 'change_password', password: 'short' });
    const terms = await step({ method: 'change_password', password: 'lantern orchard velvet compass' });
    const addressless = `addressless-${++users}`;
    await addUser(store, addressless, PASSWORD, clock.now(), {});
    const third = v.browser();
    const none = await third.login(await third.authorize(query), addressless, PASSWORD);
    return [
      shown('e-mail verification page', verify, true),
      shown('e-mail verification page of a user with no address', none, true),
      shown('new password page', change, true),
      shown('new password page with an alert', refused, true),
      shown('terms page', terms, true),
    ];
  } finally {
    settings.emailVerification = before.emailVerification;
    if (before.terms === undefined) delete settings.terms;
    else settings.terms = before.terms;
  }
}

/** The scenarios, by the name of their table entry. */
export const PAGE_KINDS: Readonly<Record<string, (v: Visit) => Promise<ShownPage[]>>> = {
  async authorize(v) {
    const browser = v.browser();
    const unknown = authorizationQuery('nobody', pkce().challenge, v.request);
    const signedIn = (await consentPage(v)).browser;
    const choose = authorizationQuery('app', pkce().challenge, { ...v.request, scope: 'openid organization' });
    const notMember = authorizationQuery('app', pkce().challenge, { ...v.request, organization: 'initech' });
    const ofOrganization = (organization: string) =>
      authorizationQuery('app', pkce().challenge, { ...v.request, organization });
    const federatedOnly = await browser.authorize(ofOrganization('initrode'));
    assert.doesNotMatch(federatedOnly.html, /name="password"/, 'the federated-only sign-in page: no password form');
    const passkeysOnly = await browser.authorize(ofOrganization('hooli'));
    assert.equal(passkeysOnly.status, 403, 'passkeys only, none offered: the refusal at once');
    return [
      shown('sign-in page', await browser.authorize(authorizationQuery('app', pkce().challenge, v.request)), true),
      shown('error page of a request', await browser.authorize(unknown), true),
      shown('organization chooser', await signedIn.authorize(choose), true),
      shown('error page of an organization', await signedIn.authorize(notMember), true),
      shown("sign-in page of an organization's request", federatedOnly, true),
      shown("error page of an organization's sign-in methods", passkeysOnly, true),
    ];
  },
  async 'sign-in'(v) {
    const browser = v.browser();
    const query = authorizationQuery('strict', pkce().challenge, v.request);
    const signIn = await browser.authorize(query);
    const wrong = await browser.login(signIn, 'alice', 'wrong password');
    const refused = await browser.post('/login', { request: query, username: 'alice', password: PASSWORD });
    const username = `enrolling-${++users}`;
    await addTestUser(v.server, username);
    const enrol = await browser.login(signIn, username, PASSWORD, { method: 'password' });
    const secret = enrolmentSecret(enrol.html);
    const codes = await browser.post('/login', {
      csrf_token: hiddenField(enrol.html, 'csrf_token'),
      request: hiddenField(enrol.html, 'request'),
      method: hiddenField(enrol.html, 'method'),
      enrolment: hiddenField(enrol.html, 'enrolment'),
      code: totpCode(secret, v.server.clock.now()),
    });
    const again = v.browser();
    const factor = await again.login(await again.authorize(query), username, PASSWORD, { method: 'password' });
    return [
      shown('sign-in page with an alert', wrong, true),
      shown('error page of a refused form', refused, true),
      shown('enrolment page', enrol, true),
      shown('recovery codes page', codes, true),
      shown('factor page', factor, true),
      ...(await requiredActionPages(v)),
    ];
  },
  async consent(v) {
    const { page } = await consentPage(v);
    const forOrganization = await consentPage(v, { organization: 'acme' });
    const posted = await consentPage(v, { response_mode: 'form_post' });
    const formPost = await posted.browser.consent(posted.page, 'allow');
    return [
      shown('consent page', page, true),
      shown('consent page for an organization', forOrganization.page, true),
      shown('form_post page', formPost, true),
    ];
  },
  async logout(v) {
    const { browser } = await consentPage(v);
    const ask = await browser.get('/logout');
    const out = await post(browser, ask, '/logout', { request: hiddenField(ask.html, 'request') });
    return [shown('sign-out page', ask), shown('signed-out page', out)];
  },
  async account(v) {
    const { browser } = await consentPage(v);
    const anonymous = await v.browser().get('/account');
    const page = await browser.get('/account');
    const twoStep = await browser.get('/account/two-step');
    return [shown('account page', page), shown('account sign-in page', anonymous), shown('set-up page', twoStep)];
  },
  async device(v) {
    const started = await assertOkJson(await v.server.post('/device_authorization', {}, { as: tv }));
    const userCode = started.user_code as string;
    const { browser } = await consentPage(v);
    const form = await browser.get(`/device?${new URLSearchParams({ user_code: userCode })}`);
    const consent = await post(browser, form, '/device', { user_code: userCode });
    const done = await post(browser, consent, '/device/consent', { request: userCode, decision: 'allow' });
    return [shown('code page', form), shown('device consent page', consent), shown('device done page', done)];
  },
  async passkey(v) {
    const browser = v.browser();
    const query = authorizationQuery('app', pkce().challenge, v.request);
    const signIn = await browser.authorize(query);
    const refused = await post(browser, signIn, '/login/passkey', { request: query, credential: '{}' });
    return [shown('sign-in page after a refused passkey', refused, true)];
  },
  async federation(v) {
    const browser = v.browser();
    const signIn = await browser.authorize(authorizationQuery('app', pkce().challenge, v.request));
    const none = await post(browser, signIn, '/federation/start', { request: hiddenField(signIn.html, 'request') });
    const forged = await browser.get('/federation/callback?state=forged&code=x');
    const linkPage = await throughUpstream(v, {
      sub: 'upstream-linda',
      claims: { email: LINKED_EMAIL, email_verified: true },
    });
    const wrongPassword = await linkPage.browser.post('/federation/link', {
      csrf_token: hiddenField(linkPage.page.html, 'csrf_token'),
      request: hiddenField(linkPage.page.html, 'request'),
      password: 'not the password',
    });
    assert.match(linkPage.page.html, /action="\/federation\/link"/, 'the link page');
    const newcomer = ++users;
    const continuePage = await throughUpstream(v, {
      sub: `upstream-newcomer-${newcomer}`,
      claims: { email: `newcomer-${newcomer}@corp.example`, email_verified: true, name: 'New Comer' },
    });
    assert.match(continuePage.page.html, /id="continue"/, 'the continue page');
    return [
      shown('no provider page', none),
      shown('refused callback page', forged),
      shown('link page', linkPage.page, true),
      shown('link page after a wrong password', wrongPassword, true),
      shown('continue page', continuePage.page, true),
    ];
  },
  async 'password-reset'(v) {
    const browser = v.browser();
    const signIn = await browser.authorize(authorizationQuery('app', pkce().challenge, v.request));
    const href = /href="([^"]*\/password-reset\?[^"]*)"/.exec(signIn.html)?.[1]?.replaceAll('&amp;', '&');
    const form = await browser.get(href ?? '/password-reset');
    const sent = await post(browser, form, '/password-reset', { request: '', identifier: 'nobody' });
    // A link as the mail carries it, made in the store (the mail itself is mail-delivery's business).
    const now = v.server.clock.now();
    const user = await addUser(v.server.context.store, `resetting-${++users}`, PASSWORD, now, {
      email: `resetting-${users}@example.com`,
    });
    const token = newOpaqueSecret();
    await v.server.context.store.insertAccountLink({
      id: digestOf(token),
      purpose: 'password_reset',
      subject: user.subject,
      email: user.claims.email as string,
      createdAt: now,
      expiresAt: now + 600,
      usedAt: null,
      data: {},
    });
    const newPassword = await browser.get(`/password-reset/confirm?token=${token}`);
    const confirm = (password: string) => post(browser, newPassword, '/password-reset/confirm', { token, password });
    const refused = await confirm('password');
    const done = await confirm('plum tractor velvet harbour');
    const used = await browser.get(`/password-reset/confirm?token=${token}`);
    return [
      shown('password reset form', form),
      shown('password reset sent page', sent),
      shown('new password page', newPassword),
      shown('new password page with an alert', refused),
      shown('password changed page', done),
      shown('used reset link page', used),
    ];
  },
  async 'email-verification'(v) {
    const browser = v.browser();
    const now = v.server.clock.now();
    const username = `verifying-${++users}`;
    const user = await addUser(v.server.context.store, username, PASSWORD, now, { email: `${username}@example.com` });
    const form = await browser.get('/account');
    await post(browser, form, '/account/login', { username, password: PASSWORD });
    const account = await browser.get('/account');
    const code = await browser.get('/email-verification/code');
    const wrong = await post(browser, code, '/email-verification/code', { code: '12345' });
    // A link as the mail carries it, made in the store.
    const token = newOpaqueSecret();
    await v.server.context.store.insertAccountLink({
      id: digestOf(token),
      purpose: 'email_verification',
      subject: user.subject,
      email: user.claims.email as string,
      createdAt: now,
      expiresAt: now + 600,
      usedAt: null,
      data: { code: 'none' },
    });
    const link = await browser.get(`/email-verification?token=${token}`);
    const done = await post(browser, link, '/email-verification', { token });
    const used = await browser.get(`/email-verification?token=${token}`);
    return [
      shown('account page with an unverified address', account),
      shown('verification code page', code),
      shown('verification code page with an alert', wrong),
      shown('verification link page', link),
      shown('address verified page', done),
      shown('used verification link page', used),
    ];
  },
  async invitation(v) {
    const browser = v.browser();
    const now = v.server.clock.now();
    // Links as the mails carry them, made in the store: one for a new address, one for an account.
    const link = async (kind: 'new' | 'existing', subject: string, email: string): Promise<string> => {
      const token = newOpaqueSecret();
      await v.server.context.store.insertAccountLink({
        id: digestOf(token),
        purpose: 'invitation',
        subject,
        email,
        createdAt: now,
        expiresAt: now + 600,
        usedAt: null,
        data: { kind, groups: '[]' },
      });
      return token;
    };
    const username = `invited-${++users}`;
    const token = await link('new', `subject-${username}`, `${username}@example.com`);
    const form = await browser.get(`/invitation?token=${token}`);
    const refused = await post(browser, form, '/invitation', { token, username, password: 'password' });
    const done = await post(browser, form, '/invitation', { token, username, password: 'plum tractor velvet harbour' });
    const used = await browser.get(`/invitation?token=${token}`);
    const member = `member-${++users}`;
    const user = await addUser(v.server.context.store, member, PASSWORD, now, { email: `${member}@example.com` });
    const memberToken = await link('existing', user.subject, `${member}@example.com`);
    const signInFirst = await v.browser().get(`/invitation?token=${memberToken}`);
    return [
      shown('invitation form', form),
      shown('invitation form with an alert', refused),
      shown('invitation accepted page', done),
      shown('used invitation page', used),
      shown('invitation of an existing account page', signInFirst),
    ];
  },
  async 'email-change'(v) {
    const browser = v.browser();
    const username = `changing-${++users}`;
    await addUser(v.server.context.store, username, PASSWORD, v.server.clock.now(), {
      email: `${username}@example.com`,
      email_verified: true,
    });
    const form = await browser.get('/account');
    await post(browser, form, '/account/login', { username, password: PASSWORD });
    const account = await browser.get('/account');
    const refused = await post(browser, account, '/account/email', { email: 'not an address' });
    const sent = await post(browser, account, '/account/email', { email: `${username}-new@example.org` });
    return [
      shown('account page with a verified address and its change form', account),
      shown('address change refused', refused),
      shown('account page after a change asked for', await browser.get(sent.location ?? '/account')),
      shown('code page of a change', await browser.get('/email-verification/code')),
    ];
  },
  async 'sign-up'(v) {
    const browser = v.browser();
    const form = await browser.get('/sign-up');
    const refused = await post(browser, form, '/sign-up', { email: 'not an address', name: 'N', password: 'x' });
    const sent = await post(browser, form, '/sign-up', {
      email: `signing-up-${++users}@example.com`,
      name: 'Sam',
      password: 'plum tractor velvet harbour',
    });
    return [shown('sign-up form', form), shown('sign-up form with an alert', refused), shown('sign-up answer', sent)];
  },
  async 'own-data'(v) {
    const browser = v.browser();
    const username = `leaving-${++users}`;
    await addUser(v.server.context.store, username, PASSWORD, v.server.clock.now(), {
      email: `${username}@example.com`,
    });
    const form = await browser.get('/account');
    await post(browser, form, '/account/login', { username, password: PASSWORD });
    const account = await browser.get('/account');
    const unconfirmed = await post(browser, account, '/account/delete', { username: 'someone-else' });
    const deleted = await post(browser, account, '/account/delete', { username });
    return [
      shown('account page with its data section', account),
      shown('account deletion not confirmed', unconfirmed),
      shown('account deleted', deleted),
    ];
  },
  async 'client-logos'(v) {
    const browser = v.browser();
    browser.extraHeaders = { ...browser.extraHeaders, accept: 'text/html' };
    return [shown('no client logo page', await browser.get('/client-logos/nobody'))];
  },
  async landing(v) {
    return [shown('home page', await v.browser().get('/'))];
  },
  async 'not-found'(v) {
    const browser = v.browser();
    browser.extraHeaders = { ...browser.extraHeaders, accept: 'text/html' };
    return [shown('HTML 404', await browser.get('/no/such/page'))];
  },
  async problems(v) {
    const browser = v.browser();
    return [
      shown('error index', await browser.get('/problems/')),
      shown('OAuth error page', await browser.get('/problems/invalid-grant')),
      shown('problem page', await browser.get('/problems/missing-required-field')),
    ];
  },
  async 'demo-callback'(v) {
    const browser = v.browser();
    const { state } = DEMO_FLOWS.start('demo-public', { openid: true });
    return [
      shown('no code page', await browser.get('/demo/callback?error=access_denied')),
      shown('code page', await browser.get('/demo/callback?code=abc&state=unknown')),
      shown('refused exchange page', await browser.get(`/demo/callback?code=abc&state=${state}`)),
      shown('signed-in page', await demoSignedIn(v)),
    ];
  },
};

/** Every page of every scenario, after checking that each table entry has one. */
export async function everyPage(visit: Visit): Promise<ShownPage[]> {
  assert.deepEqual(
    PAGE_TABLE_NAMES.filter((name) => !(name in PAGE_KINDS)),
    [],
    'every entry of the pages tables has a scenario',
  );
  const pages: ShownPage[] = [];
  for (const name of PAGE_TABLE_NAMES)
    pages.push(...(await (PAGE_KINDS[name] as (v: Visit) => Promise<ShownPage[]>)(visit)));
  return pages;
}

/** The `lang` of a page's <html>. */
export const langOf = (html: string): string | undefined => /<html lang="([^"]*)"/.exec(html)?.[1];
