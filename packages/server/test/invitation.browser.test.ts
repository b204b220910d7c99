import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { inviteUser } from '../src/accounts/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import {
  linkIn,
  profileWithAuthenticator,
  relyingParty,
  startAccountsBrowser,
  type AccountsBrowserSetup,
} from './_account-browser.js';
import { browserAvailability, ARTIFACTS, screenshotsAt, watchedPage } from './_browser.js';
import type { CallbackServer } from './_browser.js';

const { skip, unavailable } = browserAvailability();

const PASSWORD = 'plum tractor velvet harbour';

/**
 * Invitations end to end in Chromium, through a real SMTP server. The issuer is
 * http://localhost:<port>: a passkey's RP ID cannot be an IP address.
 */
describe('an invitation in a real browser (chromium), through a real SMTP server', { skip, timeout: 180_000 }, () => {
  let mailed: AccountsBrowserSetup;
  let callback: CallbackServer;
  let browser: Browser;
  const violations: string[] = [];

  before(async () => {
    if (unavailable) return;
    mailed = await startAccountsBrowser({ reachableIssuer: 'localhost' });
    ({ callback, browser } = mailed);
  });
  after(() => mailed?.close());

  /** Invites `email` as the CLI does; the link of the mail that arrives. */
  async function invite(email: string): Promise<string> {
    const { server, smtp } = mailed;
    const seen = smtp.arrived.length;
    await inviteUser(server.context, { email, actor: CLI_ACTOR, now: server.clock.now() });
    const mail = (await smtp.waitFor(seen + 1))[seen];
    assert.equal(mail?.to, email);
    assert.equal(mail?.subject, 'You are invited');
    return linkIn(mail, server.context.issuer, '/invitation');
  }

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  it('the mail → a username and a password → the account is made with the address verified → signed in with it', async () => {
    if (unavailable) throw unavailable;
    const { server } = mailed;
    const link = await invite('fay@example.com');

    const { page } = await watchedPage(browser, violations);
    await page.goto(link);
    assert.equal(await page.title(), 'Accept the invitation · Gatehouse');
    assert.equal(await page.getByLabel('Username').inputValue(), 'fay@example.com');
    await screenshotsAt(page, ARTIFACTS, 'invitation');
    await page.getByLabel('Username').fill('fay');
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await page.getByRole('button', { name: 'Create my account', exact: true }).click();
    await page.getByRole('alert').getByText('Choose another password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account', exact: true }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    const user = await server.context.store.findUser('fay');
    assert.equal(user?.claims.email_verified, true);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill('fay');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    // The link worked once.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This invitation no longer works' }).waitFor();
    assert.deepEqual(violations, []);
  });

  it('the mail → a passkey instead of a password (virtual authenticator) → signed in to an application (openid-client) with the passkey, the address verified', async () => {
    if (unavailable) throw unavailable;
    const { server } = mailed;
    const link = await invite('gus@example.com');

    const { page } = await profileWithAuthenticator(browser, violations);
    await page.goto(link);
    await page.getByLabel('Username').fill('gus');
    await screenshotsAt(page, ARTIFACTS, 'invitation-passkey');
    await page.getByRole('button', { name: 'Create my account with a passkey' }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    assert.match(await page.getByRole('status').innerText(), /made with your passkey/);
    const user = await server.context.store.findUser('gus');
    assert.equal(user?.claims.email_verified, true);
    assert.equal((await server.context.store.listPasskeys(user?.subject ?? '')).length, 1);

    // An application signs the person in with the passkey alone (no password exists), by the button
    // (the autofill request, which the virtual authenticator would answer by itself, made unavailable).
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    const rp = await relyingParty(server, 'notes', callback.uri, 'openid profile email');
    await page.goto(rp.url.href);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(callback.uri));
    const { claims, userinfo } = await rp.finish(page.url());
    assert.equal(claims.sub, user?.subject);
    assert.equal(userinfo.email, 'gus@example.com');
    assert.equal(userinfo.email_verified, true);
    const amr = (claims.amr ?? []) as string[];
    assert.ok((amr.includes('hwk') || amr.includes('swk')) && !amr.includes('pwd'), `amr ${JSON.stringify(amr)}`);

    // The link worked once.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This invitation no longer works' }).waitFor();
    assert.deepEqual(violations, []);
  });
});
