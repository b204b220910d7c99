import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BROWSER_PAGES } from '../src/authorize/browser-pages.js';
import { federationPage } from '../src/federation/routes.js';
import { listFactors } from '../src/factors/factors.js';
import { totpCode } from '../src/factors/totp.js';
import { addTestUser, hiddenField, PageBrowser, PASSWORD, type PageAnswer } from './_authorize.js';
import { enrolmentSecret } from './_factors.js';
import { startTestServer, type TestServer } from './_server.js';
import { SoftAuthenticator } from './_webauthn.js';

/** How old a sign-in is once it is too old to change how one signs in (the rule: 10 minutes). */
const STALE = 11 * 60;
const FRESH_REFUSED = /<a href="\/problems\/fresh-sign-in-required">/;

/** The POST forms under /account/ that are not changes to how one signs in, and why. */
const NOT_SIGN_IN_CHANGES: Readonly<Record<string, string>> = {
  '/account/login': 'the sign-in itself, "Confirm it\'s you" included',
  '/account/revoke': "an application's access, not a way to sign in",
  '/account/language': 'the language of the pages, not a way to sign in',
};

/** The WebAuthn options a page rendered in its passkey form's `data-options`. */
function optionsOf(html: string): { challenge: string; user?: { id: string } } {
  const match = /data-options="([^"]*)"/.exec(html);
  assert.ok(match, 'the page has a passkey form');
  return JSON.parse((match[1] as string).replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))));
}

describe('every change to how one signs in needs a sign-in of the last 10 minutes (fresh_sign_in_required)', () => {
  let server: TestServer;
  // The test server's issuer is http://gatehouse.test: the passkeys' RP ID is gatehouse.test.
  const authenticator = (): SoftAuthenticator => new SoftAuthenticator('gatehouse.test', 'http://gatehouse.test');

  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  /** A browser signed in on the account page with a password, as a user of its own: the page. */
  async function signedIn(username: string): Promise<{ browser: PageBrowser; account: PageAnswer }> {
    await addTestUser(server, username);
    const browser = new PageBrowser(server);
    const form = await browser.get('/account');
    const answer = await confirmItsYou(browser, form, username);
    assert.equal(answer.status, 303, answer.html);
    return { browser, account: await browser.get('/account') };
  }

  /** The account page's password sign-in ("Confirm it's you" when signed in already). */
  function confirmItsYou(browser: PageBrowser, page: PageAnswer, username: string): Promise<PageAnswer> {
    const csrf = hiddenField(page.html, 'csrf_token');
    return browser.post('/account/login', { csrf_token: csrf, method: 'password', username, password: PASSWORD });
  }

  /** Posts an account form as the page would, with the page's CSRF token. */
  function post(browser: PageBrowser, page: PageAnswer, path: string, form: Record<string, string> = {}) {
    return browser.post(path, { csrf_token: hiddenField(page.html, 'csrf_token'), ...form });
  }

  /** Enrols a passkey while the sign-in is fresh; the authenticator holding it. */
  async function enrolPasskey(browser: PageBrowser, account: PageAnswer): Promise<SoftAuthenticator> {
    const key = authenticator();
    const enrolled = await post(browser, account, '/account/passkeys', {
      credential: key.create(optionsOf(account.html)),
    });
    assert.equal(enrolled.status, 303, enrolled.html);
    return key;
  }

  /** Turns the authenticator app on while the sign-in is fresh; its secret. */
  async function enrolOtp(browser: PageBrowser): Promise<string> {
    const page = await browser.get('/account/two-step');
    const secret = enrolmentSecret(page.html);
    const code = totpCode(secret, server.clock.now());
    const enrolment = hiddenField(page.html, 'enrolment');
    const done = await post(browser, page, '/account/two-step', { method: 'otp_enrolment', enrolment, code });
    assert.equal(done.status, 200, done.html);
    return secret;
  }

  /** The reasons of the `sign_in_change_refused` events of `username`'s subject. */
  async function refusals(username: string): Promise<(string | null)[]> {
    const subject = (await server.context.store.findUser(username))?.subject;
    const events = await server.context.store.listAuditEvents({ limit: 1000, event: 'sign_in_change_refused' });
    return events.filter((e) => e.subject === subject).map((e) => e.reason);
  }

  /** Whether a refused change answered the rule's page and was audited with its name. */
  async function assertRefused(answer: PageAnswer, username: string, change: string): Promise<void> {
    assert.equal(answer.status, 403, answer.html);
    assert.match(answer.html, FRESH_REFUSED);
    assert.deepEqual(await refusals(username), [change]);
  }

  it('an 11-minute-old sign-in cannot remove the last passkey; after "Confirm it\'s you" it can', async () => {
    const { browser, account } = await signedIn('remover');
    const key = await enrolPasskey(browser, account);
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    assert.doesNotMatch(stale.html, /action="\/account\/passkeys\/remove"/, 'the page does not offer it');
    assert.match(stale.html, /Confirm it&#39;s you to make changes/);
    await assertRefused(
      await post(browser, stale, '/account/passkeys/remove', { id: key.credentialId }),
      'remover',
      'passkey_removal',
    );
    const subject = (await server.context.store.findUser('remover'))?.subject as string;
    assert.equal((await server.context.store.listPasskeys(subject)).length, 1, 'the passkey is still there');
    // The password, then the passkey: a user with a passkey has two-step verification on.
    const step = await confirmItsYou(browser, stale, 'remover');
    assert.equal(step.status, 200, step.html);
    const credential = key.get(optionsOf(step.html));
    assert.equal((await post(browser, step, '/account/login', { method: 'passkey', credential })).status, 303);
    const fresh = await browser.get('/account');
    assert.match(fresh.html, /action="\/account\/passkeys\/remove"/);
    const removed = await post(browser, fresh, '/account/passkeys/remove', { id: key.credentialId });
    assert.equal(removed.status, 303);
    assert.equal(removed.location, '/account?done=passkey_removed');
    assert.match((await browser.get(removed.location)).html, /<p class="notice" role="status">Passkey removed/);
    assert.equal((await server.context.store.listPasskeys(subject)).length, 0);
  });

  it('an 11-minute-old sign-in cannot rename a passkey', async () => {
    const { browser, account } = await signedIn('renamer');
    const key = await enrolPasskey(browser, account);
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    const answer = await post(browser, stale, '/account/passkeys/rename', { id: key.credentialId, name: 'Stolen' });
    await assertRefused(answer, 'renamer', 'passkey_rename');
    const subject = (await server.context.store.findUser('renamer'))?.subject as string;
    assert.notEqual((await server.context.store.listPasskeys(subject))[0]?.name, 'Stolen');
  });

  it('an 11-minute-old sign-in cannot add a passkey, even with options from a fresh page', async () => {
    const { browser, account } = await signedIn('adder');
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    assert.doesNotMatch(stale.html, /data-mode="create"/, 'no "Add a passkey"');
    const answer = await post(browser, stale, '/account/passkeys', {
      credential: authenticator().create(optionsOf(account.html)),
    });
    await assertRefused(answer, 'adder', 'passkey_enrolment');
    const subject = (await server.context.store.findUser('adder'))?.subject as string;
    assert.equal((await server.context.store.listPasskeys(subject)).length, 0);
  });

  it('an 11-minute-old sign-in cannot set up the authenticator app: neither its page nor its confirmation', async () => {
    const { browser } = await signedIn('enroller');
    const page = await browser.get('/account/two-step');
    const code = totpCode(enrolmentSecret(page.html), server.clock.now() + STALE);
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    assert.doesNotMatch(stale.html, /href="\/account\/two-step"/, 'no "Set up two-step verification"');
    const shown = await browser.get('/account/two-step');
    assert.equal(shown.status, 403);
    assert.match(shown.html, FRESH_REFUSED);
    const enrolment = hiddenField(page.html, 'enrolment');
    const answer = await post(browser, stale, '/account/two-step', { method: 'otp_enrolment', enrolment, code });
    assert.equal(answer.status, 403);
    assert.deepEqual(await refusals('enroller'), ['otp_enrolment', 'otp_enrolment']);
    const subject = (await server.context.store.findUser('enroller'))?.subject as string;
    assert.ok(!(await listFactors(server.context.store, subject)).some((f) => f.kind === 'otp'));
  });

  it('an 11-minute-old sign-in cannot turn the authenticator app off', async () => {
    const { browser } = await signedIn('disabler');
    const secret = await enrolOtp(browser);
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    assert.doesNotMatch(stale.html, /action="\/account\/two-step\/remove"/);
    await assertRefused(await post(browser, stale, '/account/two-step/remove'), 'disabler', 'otp_removal');
    assert.match((await browser.get('/account')).html, /Two-step verification is <strong>on<\/strong>: codes/);
    // "Confirm it's you": the password, then a code from the app; then Turn off works, and says so.
    const step = await confirmItsYou(browser, stale, 'disabler');
    const code = totpCode(secret, server.clock.now());
    assert.equal((await post(browser, step, '/account/login', { method: 'otp', code })).status, 303);
    const turnedOff = await post(browser, await browser.get('/account'), '/account/two-step/remove');
    assert.equal(turnedOff.location, '/account?done=two_step_off');
    const after = await browser.get(turnedOff.location);
    assert.match(after.html, /<p class="notice" role="status">The authenticator app is turned off/);
    assert.match(after.html, /Two-step verification is <strong>off<\/strong>/);
  });

  it('an 11-minute-old sign-in cannot make new recovery codes', async () => {
    const { browser } = await signedIn('regenerator');
    await enrolOtp(browser);
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    assert.doesNotMatch(stale.html, /action="\/account\/recovery-codes"/);
    await assertRefused(await post(browser, stale, '/account/recovery-codes'), 'regenerator', 'recovery_codes');
  });

  it('an 11-minute-old sign-in cannot unlink an identity provider', async () => {
    const { browser } = await signedIn('unlinker');
    const link = { issuer: 'https://idp.example', subject: 'u1', providerId: 'idp', username: 'unlinker' };
    await server.context.store.insertFederatedIdentity({ ...link, linkedAt: server.clock.now() });
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    const answer = await post(browser, stale, '/account/unlink', { issuer: link.issuer, subject: link.subject });
    await assertRefused(answer, 'unlinker', 'federated_identity_unlink');
    assert.equal((await server.context.store.listFederatedIdentitiesOf('unlinker')).length, 1);
  });

  it('every other POST form under /account/ is a change to how one signs in, refused to an 11-minute-old sign-in', async () => {
    const pages = [...BROWSER_PAGES, federationPage(undefined)];
    const paths = pages
      .flatMap((page) => [
        ...page.routes,
        ...(page.signInChanges ?? []).map((c) => ({ path: c.path, methods: [c.method] })),
      ])
      .filter((route) => route.path.startsWith('/account/') && route.methods.includes('POST'))
      .map((route) => route.path)
      .filter((path) => !Object.hasOwn(NOT_SIGN_IN_CHANGES, path));
    assert.ok(paths.length >= 7, paths.join(', '));
    const { browser } = await signedIn('everything');
    server.clock.advance(STALE);
    const stale = await browser.get('/account');
    for (const path of paths) {
      const answer = await post(browser, stale, path, { id: 'x', name: 'x', issuer: 'x', subject: 'x' });
      assert.equal(answer.status, 403, path);
      assert.match(answer.html, FRESH_REFUSED, path);
    }
  });
});
