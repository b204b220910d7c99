import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assignRole } from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { consoleDistDir } from '../src/console/index.js';
import { profileWithAuthenticator } from './_account-browser.js';
import { addTestUser } from './_authorize.js';
import { seriousViolations } from './_axe.js';
import { DESKTOP, PHONE, SCREENSHOTS, screenshotsAt } from './_browser.js';
import { ManualClock, startTestServer, type TestServer } from './_server.js';

/**
 * What the console's browser suites share: the console built, an operator's browser profile with a
 * passkey signed in to it, and the checks every console page gets.
 */

/** The console as `npm run build` makes it; built here when a run of the tests alone has none yet. */
export function ensureConsoleBuilt(): void {
  if (consoleDistDir() === undefined)
    execFileSync('npm', ['run', 'build', '-w', 'packages/console'], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: 'ignore',
    });
}

/**
 * The console built, and a server for an operator's passkey: its issuer http://localhost:<port> (a
 * passkey's RP ID is a name), its clock now's (a relying party checks the ID token's times by its own
 * clock). The operator `operator` holds the admin role; `others` are users without it.
 */
export async function startConsoleServer(operator: string, others: readonly string[]): Promise<TestServer> {
  ensureConsoleBuilt();
  const server = await startTestServer({
    reachableIssuer: 'localhost',
    clock: new ManualClock(Math.floor(Date.now() / 1000)),
  });
  for (const username of [operator, ...others]) await addTestUser(server, username);
  await assignRole(server.context.audit, { name: 'admin' }, { user: operator }, server.clock.now(), CLI_ACTOR);
  return server;
}

/** A console page checked as every one is: axe-clean, no sideways scroll at 320 px, screenshots. */
export async function checkConsolePage(page: Page, name: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
  await screenshotsAt(page, SCREENSHOTS, `console-${name}`, PHONE);
  await page.setViewportSize({ width: 320, height: 640 });
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${name} fits 320 px`,
  );
  await page.setViewportSize(DESKTOP);
}

/** After a sign-in: allows the application if asked (the consent page), then waits for `done`. */
export async function allowIfAsked(page: Page, done: () => Promise<unknown>): Promise<void> {
  const allow = page.getByRole('button', { name: 'Allow' });
  await Promise.race([allow.waitFor().then(() => allow.click()), done()]);
  await done();
}

/**
 * A fresh browser profile with a virtual platform authenticator (profileWithAuthenticator), its clock
 * the server's: the console's DPoP proofs carry the time (RFC 9449 §4.3 step 11).
 */
export async function operatorProfile(
  browser: Browser,
  server: TestServer,
  violations: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await profileWithAuthenticator(browser, violations);
  await context.clock.setFixedTime(new Date(server.clock.now() * 1000));
  return { context, page };
}

/**
 * The operator's passkey, added on the account page after a password sign-in as `username`, then
 * signed out. From then on the page offers the passkey button, not the browser's autofill (which the
 * virtual authenticator would answer).
 */
export async function addOperatorPasskey(
  page: Page,
  issuer: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${issuer}/account`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.locator('.passkey-item').waitFor();
  await page.goto(`${issuer}/logout`);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${issuer}/logout`);
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

/**
 * Signs in to the console with the passkey, which is two factors at once (RFC 8176 hwk + user: acr
 * mfa), allowing the console if asked; resolves on the dashboard.
 */
export async function signInToConsoleWithPasskey(page: Page, issuer: string): Promise<void> {
  await page.goto(`${issuer}/console`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  const dashboard = page.getByRole('heading', { name: 'Dashboard', exact: true });
  await allowIfAsked(page, () => dashboard.waitFor());
}
