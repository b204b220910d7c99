import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { inviteUser } from '../src/accounts/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom } from '../src/mail/index.js';
import { ARTIFACTS, browserSuiteSkip, launchChromium, screenshotsAt, watchedPage } from './_browser.js';
import { startTestServer, type TestServer } from './_server.js';
import { TestSmtpServer } from './_smtp.js';
import { TEST_CA } from './_tls.js';

let skip: string | false = false;
let unavailable: Error | undefined;
try {
  skip = browserSuiteSkip();
} catch (error) {
  unavailable = error as Error;
}

const PASSWORD = 'plum tractor velvet harbour';

describe('an invitation in a real browser (chromium), through a real SMTP server', { skip, timeout: 180_000 }, () => {
  const smtp = new TestSmtpServer();
  let server: TestServer;
  let browser: Browser;
  const violations: string[] = [];

  before(async () => {
    if (unavailable) return;
    await smtp.start();
    const policy = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400 };
    server = await startTestServer({
      reachableIssuer: true,
      mail: { transport: smtpSettingsFrom(smtp.url, TEST_CA), from: 'Gatehouse <no-reply@gatehouse.test>', policy },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp.stop();
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  it('the mail → a username and a password → the account is made with the address verified → signed in with it', async () => {
    if (unavailable) throw unavailable;
    await inviteUser(server.context, { email: 'fay@example.com', actor: CLI_ACTOR, now: server.clock.now() });
    const [mail] = await smtp.waitFor(1);
    assert.equal(mail?.subject, 'You are invited');
    const link = /https?:\/\/\S+\/invitation\?token=[A-Za-z0-9_-]+/.exec(mail?.text ?? '')?.[0];
    if (link === undefined) assert.fail(`a link in the mail: ${mail?.text}`);
    assert.ok(link.startsWith(server.url), `the mail links to this server: ${link}`);

    const { page } = await watchedPage(browser, violations);
    await page.goto(link);
    assert.equal(await page.title(), 'Accept the invitation · Gatehouse');
    assert.equal(await page.getByLabel('Username').inputValue(), 'fay@example.com');
    await screenshotsAt(page, ARTIFACTS, 'invitation');
    await page.getByLabel('Username').fill('fay');
    await page.getByLabel('Password', { exact: true }).fill('password1');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('alert').getByText('Choose another password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    const user = await server.context.store.findUser('fay');
    assert.equal(user?.claims.email_verified, true);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill('fay');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    // The link worked once.
    await page.goto(link);
    await page.getByRole('heading', { name: 'This invitation no longer works' }).waitFor();
    assert.deepEqual(violations, []);
  });
});
