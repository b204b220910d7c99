import assert from 'node:assert/strict';
import { DEFAULT_DELIVERY_POLICY, smtpSettingsFrom, type MailSettings } from '../src/mail/index.js';
import { addUser } from '../src/users/users.js';
import { hiddenField, PageBrowser, PASSWORD, type PageAnswer } from './_authorize.js';
import { startTestServer, type TestClient, type TestServer, type TestServerOptions } from './_server.js';
import { TestSmtpServer, type ArrivedMail } from './_smtp.js';
import { TEST_CA } from './_tls.js';

/**
 * What the suites of the account's mails share, over HTTP and in the browser (address verification and
 * change, password reset, invitations, sign-up): a server mailing through a real SMTP server, the
 * account page signed in to, and what a mail carries.
 */

/**
 * The outbox's delivery, fast: a mail arrives within a fraction of a second of being queued, and is
 * not given up while a test runs.
 */
export function testMailSettings(smtp: TestSmtpServer): MailSettings {
  const policy = { ...DEFAULT_DELIVERY_POLICY, pollMs: 100, retryMs: 50, maxRetryMs: 400, maxAttempts: 1000 };
  return { transport: smtpSettingsFrom(smtp.url, TEST_CA), from: 'Gatehouse <no-reply@gatehouse.test>', policy };
}

/** A Gatehouse mailing to `smtp`, a real SMTP server. */
export interface MailedServer {
  readonly server: TestServer;
  readonly smtp: TestSmtpServer;
  close(): Promise<void>;
}

/** Starts a real SMTP server, then Gatehouse (started with `options`) mailing through it. */
export async function startMailedServer(options: TestServerOptions = {}): Promise<MailedServer> {
  const smtp = new TestSmtpServer();
  await smtp.start();
  const server = await startTestServer({ ...options, mail: testMailSettings(smtp) });
  return {
    server,
    smtp,
    async close() {
      await server.close();
      await smtp.stop();
    },
  };
}

/** The application the suites ask userinfo for: `app`, confidential, asking for openid and email. */
export function addMailApp(server: TestServer): Promise<TestClient> {
  return server.addClient({ id: 'app', redirectUris: ['http://127.0.0.1:8765/callback'], scope: ['openid', 'email'] });
}

/** The user `username` (password PASSWORD) with the address `<username>@example.com`, verified or not. */
export async function addUserWithAddress(server: TestServer, username: string, verified: boolean): Promise<void> {
  await addUser(server.context.store, username, PASSWORD, server.clock.now(), {
    email: `${username}@example.com`,
    email_verified: verified,
  });
}

/** The link's secret and the six-digit code of an address's mail (verification or change), from its text body. */
export function mailedLinkAndCode(mail: ArrivedMail | undefined): { token: string; code: string } {
  const token = /\/email-verification\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
  const code = /: (\d{6})\./.exec(mail?.text ?? '')?.[1];
  assert.ok(token && code, `a link and a code in ${mail?.text}`);
  return { token, code };
}

/** A browser signed in to the account page as `username` just now (a fresh sign-in), and the page. */
export async function signedInToAccount(
  server: TestServer,
  username: string,
  password = PASSWORD,
): Promise<{ browser: PageBrowser; account: PageAnswer }> {
  const browser = new PageBrowser(server);
  const form = await browser.get('/account');
  const done = await browser.post('/account/login', {
    csrf_token: hiddenField(form.html, 'csrf_token'),
    username,
    password,
  });
  assert.equal(done.status, 303, done.html);
  return { browser, account: await browser.get('/account') };
}

/** The claims of `username`'s userinfo (OIDC Core §5.3) to `client`, through a grant of `openid email`. */
export async function userinfoOf(
  server: TestServer,
  client: TestClient,
  username: string,
): Promise<{ readonly email?: unknown; readonly email_verified?: unknown }> {
  const tokens = await server.issueGrant(client, username, ['openid', 'email']);
  const info = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(info.status, 200);
  return (await info.json()) as { email?: unknown; email_verified?: unknown };
}
