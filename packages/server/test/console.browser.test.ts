import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { consoleDistDir } from '../src/console/index.js';
import { assignRole } from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { totpCode } from '../src/factors/totp.js';
import { addTestUser, PASSWORD } from './_authorize.js';
import { CONSOLE_CLIENT_ID, ensureConsoleClient } from '../src/console/index.js';
import { browserSuiteSkip, launchChromium, PHONE, SCREENSHOTS, screenshotsAt, watchedPage } from './_browser.js';
import { startTestServer, type TestServer } from './_server.js';
import { until } from './_until.js';

/** axe-core, as its package ships it: injected into each page by the test, not served by Gatehouse. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** The narrowest screen the console is laid out for. */
const NARROW = { width: 320, height: 640 };

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations;
  }, WCAG_AA);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A console page checked as every one is: axe-clean, no sideways scroll at 320 px, screenshots. */
async function checkPage(page: Page, name: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
  await screenshotsAt(page, SCREENSHOTS, `console-${name}`, PHONE);
  await page.setViewportSize(NARROW);
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${name} fits 320 px`,
  );
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Another site: a page of its own origin that frames the console and calls the admin API. */
async function startOtherSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('target') ?? '';
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!doctype html><title>Other site</title><iframe id="framed" src="${target}"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * The admin console in Chromium: signed in through /authorize with a second factor, its pages
 * axe-clean and 320 px wide, its CSP unbroken, and refused where it must be. The browser's clock is
 * the test server's (DPoP proofs carry the time: RFC 9449 §4.3 step 11).
 */
describe('the admin console in a real browser (chromium)', { skip: browserSuiteSkip(), timeout: 240_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let issuer: string;
  const violations: string[] = [];

  before(async () => {
    // The console as npm run build makes it; built here when a run of the tests alone has none yet.
    if (consoleDistDir() === undefined)
      execFileSync('npm', ['run', 'build', '-w', 'packages/console'], {
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
        stdio: 'ignore',
      });
    server = await startTestServer({ reachableIssuer: 'localhost' });
    issuer = server.context.issuer;
    await addTestUser(server, 'alice');
    await server.context.store.updateUserClaims('alice', { name: 'Alice Operator' }, server.clock.now());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await watchedPage(browser, violations, options);
    await opened.context.clock.setFixedTime(new Date(server.clock.now() * 1000));
    return opened;
  }

  let secret = '';

  /**
   * alice signs in to the console at `path` (her password, then her authenticator app's code, in a
   * time step of its own: each code is taken once) and is back there, under `heading`.
   */
  async function signInAsAlice(page: Page, context: BrowserContext, path: string, heading: string): Promise<void> {
    await page.goto(`${issuer}/console${path}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    server.clock.advance(60);
    await context.clock.setFixedTime(new Date(server.clock.now() * 1000));
    await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, server.clock.now()));
    await page.getByRole('button', { name: 'Verify' }).first().click();
    const allow = page.getByRole('button', { name: 'Allow' });
    const shown = page.getByRole('heading', { name: heading, exact: true });
    await Promise.race([allow.waitFor().then(() => allow.click()), shown.waitFor()]);
    await shown.waitFor();
  }

  it('a signed-out visitor sees what the console is and one way in', async () => {
    const { page, context } = await newPage();
    await page.goto(`${issuer}/console`);
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await checkPage(page, 'sign-in');
    await context.close();
  });

  it('without a second factor the operator does not get in: the server asks to set one up first (acr_values=mfa)', async () => {
    const { page, context } = await newPage();
    await page.goto(`${issuer}/console`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/authorize');
    const asked = new URL(page.url()).searchParams;
    assert.equal(asked.get('client_id'), 'gatehouse-console');
    assert.equal(asked.get('acr_values'), 'mfa');
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.ok(asked.get('nonce'));
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
    assert.ok(!page.url().includes('/console'), 'not in the console');
    secret = ((await page.locator('#totp-secret').textContent()) ?? '').replaceAll(' ', '');
    await context.close();
  });

  it('with a second factor but no admin role: signed in with a DPoP-bound token, then told "no admin role" by a page of its own', async () => {
    const { page, context } = await newPage();
    const tokenTypes: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/token')
        void response.json().then(
          (body: { token_type?: string }) => tokenTypes.push(body.token_type ?? ''),
          () => undefined,
        );
    });
    await page.goto(`${issuer}/console`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // The setup shows a key of its own each time it starts.
    secret = ((await page.locator('#totp-secret').textContent()) ?? '').replaceAll(' ', '');
    await page.getByLabel('Code from the app').fill(totpCode(secret, server.clock.now()));
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
    await page.getByRole('link', { name: 'I saved them, continue' }).click();
    const allow = page.getByRole('button', { name: 'Allow' });
    const refused = page.getByRole('heading', { name: 'You are signed in but have no admin role' });
    await Promise.race([allow.waitFor().then(() => allow.click()), refused.waitFor()]);
    await refused.waitFor();
    assert.equal(new URL(page.url()).pathname, '/console', 'the code and state are gone from the address');
    assert.deepEqual(tokenTypes, ['DPoP'], 'the console holds a DPoP-bound token (RFC 9449 §5)');
    assert.match((await page.getByRole('alert').textContent()) ?? '', /Alice Operator/);
    await checkPage(page, 'no-role');
    // Signing in again signs out first: the console's grant revoked (RFC 7009), the server's sign-in
    // ended (RP-Initiated Logout, by its id_token_hint at once), and back to the console.
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    const alice = await server.context.store.findUser('alice');
    const grants = await server.context.store.listGrantsPage(
      { subject: alice?.subject, clientId: 'gatehouse-console' },
      undefined,
      10,
    );
    assert.equal(grants.length, 1);
    assert.notEqual(grants[0]?.revokedAt, null, 'the grant is revoked');
    await context.close();
  });

  it('an operator without an admin role whose browser asks for German is refused by a page in German', async () => {
    // A new time step: each code of the authenticator app is taken once.
    server.clock.advance(60);
    const { page, context } = await newPage({ locale: 'de-DE' });
    await page.goto(`${issuer}/console`);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL((url) => url.pathname === '/authorize');
    assert.equal(new URL(page.url()).searchParams.get('ui_locales'), 'de', 'the sign-in is asked in German too');
    await page.locator('#username').fill('alice');
    await page.locator('#password').fill(PASSWORD);
    await page.locator('#password').press('Enter');
    await page.locator('#code-otp').fill(totpCode(secret, server.clock.now()));
    await page.locator('#code-otp').press('Enter');
    const allow = page.locator('button[name="decision"][value="allow"]');
    const refused = page.getByRole('heading', { name: 'Sie sind angemeldet, haben aber keine Administratorrolle' });
    await Promise.race([allow.waitFor().then(() => allow.click()), refused.waitFor()]);
    await refused.waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'de');
    assert.equal(
      await page.getByRole('link', { name: 'Kontoseite öffnen' }).getAttribute('href'),
      `${issuer}/account`,
      'where the operator can see their account',
    );
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  });

  /**
   * The console's pages against the admin API, with the operator's own token: alice holds `admin`
   * (server-wide), signs in with her password and her authenticator app's code, and every call the
   * console makes to /admin/v1 carries her DPoP-bound token for the admin API.
   */
  it('users: searched and filtered in the store, one added with its password shown once and copied, disabled on a second click', async () => {
    await assignRole(server.context.audit, { name: 'admin' }, { user: 'alice' }, server.clock.now(), CLI_ACTOR);
    for (const name of ['ops.anna', 'ops.bert', 'sales.eva'])
      await server.context.store.insertUserIfAbsent({
        ...((await server.context.store.findUser('alice')) as NonNullable<
          Awaited<ReturnType<typeof server.context.store.findUser>>
        >),
        username: name,
        subject: `subject-${name}`,
        claims: { name: name.toUpperCase() },
      });
    const { page, context } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: issuer });
    const adminCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/admin/v1/'))
        adminCalls.push(
          `${request.headers()['authorization']?.split(' ')[0]} ${request.headers()['dpop'] ? 'proof' : ''}`,
        );
    });
    await signInAsAlice(page, context, '/users', 'Users');
    assert.equal(new URL(page.url()).pathname, '/console/users', 'back where the sign-in started');
    const rows = page.locator('tbody tr td:first-child');
    await rows.first().waitFor();
    assert.deepEqual(await rows.allTextContents(), ['alice', 'ops.anna', 'ops.bert', 'sales.eva']);
    assert.ok(adminCalls.length > 0 && adminCalls.every((call) => call === 'DPoP proof'), adminCalls.join());
    await checkPage(page, 'users');

    await page.getByLabel('Search by username').fill('OPS.');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 2);
    assert.deepEqual(await rows.allTextContents(), ['ops.anna', 'ops.bert']);

    await page.getByLabel('Username', { exact: true }).fill('new.operator');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('New Operator');
    await page.getByRole('button', { name: 'Add user' }).click();
    const secretShown = page.locator('.secret-value');
    await secretShown.waitFor();
    const password = (await secretShown.textContent()) ?? '';
    assert.ok(password.length >= 8);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), password);

    await page.getByLabel('Search by username').fill('new');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: 'new.operator' }).click();
    await page.getByRole('heading', { name: 'new.operator' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console/users/new.operator');
    await page.getByRole('button', { name: 'Disable' }).click();
    assert.equal(
      (await server.context.store.findUser('new.operator'))?.disabledAt ?? null,
      null,
      'one click does nothing yet',
    );
    await page.getByRole('button', { name: 'Click again to disable new.operator' }).click();
    await page.getByText('new.operator is disabled').waitFor();
    assert.notEqual((await server.context.store.findUser('new.operator'))?.disabledAt ?? null, null);
    const [event] = await server.context.store.listAuditEvents({ event: 'user_disabled', limit: 1 });
    assert.equal(event?.subject, (await server.context.store.findUser('new.operator'))?.subject);
    const alice = await server.context.store.findUser('alice');
    assert.equal(event?.actor, `user:${alice?.subject} client:gatehouse-console`, 'audited as the operator');
    await checkPage(page, 'user');

    // Clients: the redirect URI checked while typed, by the server's own rule (@gatehouse/contract).
    await page.getByRole('link', { name: 'Clients', exact: true }).click();
    await page.getByRole('heading', { name: 'Clients', exact: true }).waitFor();
    await page.getByLabel('Client ID', { exact: true }).fill('shop');
    await page.getByLabel('Name', { exact: true }).fill('Shop');
    const uris = page.getByLabel('Redirect URIs', { exact: true });
    await uris.fill('http://shop.example/callback');
    await page.getByText('plain http is allowed only on this machine').waitFor();
    assert.equal(await uris.getAttribute('aria-invalid'), 'true');
    assert.ok(await page.getByRole('button', { name: 'Register client' }).isDisabled());
    await uris.fill('https://shop.example/callback');
    assert.equal(await page.getByText('plain http is allowed only on this machine').count(), 0);
    await page.getByRole('button', { name: 'Register client' }).click();
    await page.getByText('shop is registered.').waitFor();
    const clientSecret = (await page.locator('.secret-value').textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), clientSecret);
    const shop = await server.context.store.findClient('shop');
    assert.deepEqual(shop?.redirectUris, ['https://shop.example/callback']);
    const secretWorks = await server.post(
      '/token',
      { grant_type: 'client_credentials' },
      { as: { id: 'shop', secret: clientSecret } },
    );
    // It authenticates (RFC 6749 §2.3.1); the grant is not one of its grant types (§5.2 unauthorized_client).
    assert.equal(
      ((await secretWorks.json()) as { error?: string }).error,
      'unauthorized_client',
      'the secret shown is the client secret',
    );
    await checkPage(page, 'clients');
    const row = page.locator('tr', { hasText: 'https://shop.example/callback' });
    await row.getByLabel('Type shop to confirm').fill('shop');
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('shop is deleted').waitFor();
    assert.equal(await server.context.store.findClient('shop'), undefined);

    // The audit trail: filtered by event in the store, a page at a time.
    await page.getByRole('link', { name: 'Audit trail', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit trail', exact: true }).waitFor();
    await page.getByLabel('Event', { exact: true }).fill('client_deleted');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    assert.deepEqual(await page.locator('tbody tr td:nth-child(2)').allTextContents(), ['client_deleted']);
    await checkPage(page, 'audit');
    await context.close();
  });

  it('groups, roles and organizations: each made, given members and roles, and deleted on its typed name, audited as the operator', async () => {
    await addTestUser(server, 'gus');
    const { page, context } = await newPage();
    await signInAsAlice(page, context, '/groups', 'Groups');
    const alice = await server.context.store.findUser('alice');
    const actor = `user:${alice?.subject} client:gatehouse-console`;

    // A group, a member added, a role given, then the group deleted once its name is typed.
    await page.getByLabel('Name', { exact: true }).fill('support');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByText('The group support is added.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('support.tier2');
    await page.getByLabel('Parent group').fill('support');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('link', { name: 'support.tier2' }).waitFor();
    await page.getByLabel('Search by name').fill('TIER');
    await page.waitForFunction(() => document.querySelectorAll('#groups-caption ~ tbody tr').length === 1);
    await checkPage(page, 'groups');
    await page.getByRole('link', { name: 'support.tier2' }).click();
    await page.getByRole('heading', { name: 'support.tier2', exact: true }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill('gus');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByText('gus is a member of support.tier2.').waitFor();
    await page.getByLabel('Role to give').selectOption({ label: 'auditor' });
    await page.getByRole('button', { name: 'Give the role' }).click();
    await page.getByRole('region', { name: 'Roles of the group' }).getByRole('link', { name: 'auditor' }).waitFor();
    await checkPage(page, 'group');
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('button', { name: 'Remove' }).click();
    await members.getByRole('button', { name: 'Click again to remove gus from support.tier2' }).click();
    await page.getByText('gus is no longer a member of support.tier2.').waitFor();
    const remove = page.getByRole('button', { name: 'Delete the group' });
    assert.ok(await remove.isDisabled(), 'the group is not deleted before its name is typed');
    await page.getByLabel('Type support.tier2 to confirm').fill('support.tier2');
    await remove.click();
    await page.getByRole('heading', { name: 'Groups', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The group support.tier2 is deleted.' }).waitFor();
    await page.getByRole('link', { name: 'support', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'support.tier2' }).count(), 0, 'deleted');

    // A role of the server, held by a user and a client, taken back, deleted on its typed name.
    await page.getByRole('link', { name: 'Roles', exact: true }).click();
    await page.getByRole('heading', { name: 'Roles', exact: true }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('billing');
    await page.getByLabel('Description', { exact: true }).fill('Reads invoices');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByText('The role billing is added.').waitFor();
    await checkPage(page, 'roles');
    await page.getByRole('link', { name: 'billing' }).click();
    await page.getByRole('heading', { name: 'billing', exact: true }).waitFor();
    await page.getByLabel('Holder', { exact: true }).fill('gus');
    await page.getByRole('button', { name: 'Give the role' }).click();
    await page.getByText('gus holds billing from its next access token.').waitFor();
    await page.getByLabel('Kind of holder').selectOption('group');
    await page.getByLabel('Holder', { exact: true }).fill('support');
    await page.getByRole('button', { name: 'Give the role' }).click();
    await page.getByRole('link', { name: 'support' }).waitFor();
    await checkPage(page, 'role');
    const gusRow = page.locator('tr', { hasText: 'gus' });
    await gusRow.getByRole('button', { name: 'Take back' }).click();
    await gusRow.getByRole('button', { name: 'Click again to take billing from gus' }).click();
    await page.getByText('billing is taken from gus.').waitFor();
    await page.getByLabel('Type billing to confirm').fill('billing');
    await page.getByRole('button', { name: 'Delete the role' }).click();
    await page.getByRole('heading', { name: 'Roles', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The role billing is deleted.' }).waitFor();
    // A role of the REST API: named by its name and its API (`?api=/v2`) in the admin API.
    await page.getByLabel('Name', { exact: true }).fill('reader');
    await page.getByLabel('API', { exact: true }).fill('/v2');
    await page.getByRole('button', { name: 'Add role' }).click();
    await page.getByRole('link', { name: 'reader' }).click();
    await page.getByText('A role of the API /v2').waitFor();
    await page.getByText('Nobody holds this role.').waitFor();
    await page.getByRole('link', { name: 'All roles' }).click();
    await page.getByRole('link', { name: 'admin', exact: true }).click();
    await page.getByText('A built-in role is what the admin API itself checks: it cannot be deleted.').waitFor();

    // An organization with two roles, a member holding one, the organization deleted on its typed slug.
    await page.getByRole('link', { name: 'Organizations', exact: true }).click();
    await page.getByRole('heading', { name: 'Organizations', exact: true }).waitFor();
    await page.getByLabel('Slug', { exact: true }).fill('acme');
    await page.getByLabel('Name', { exact: true }).fill('Acme Corp');
    await page.getByLabel('Organization roles').fill('admin, member');
    await page.getByRole('button', { name: 'Add organization' }).click();
    await page.getByText('The organization acme is added.').waitFor();
    await checkPage(page, 'organizations');
    await page.getByRole('link', { name: 'acme' }).click();
    await page.getByRole('heading', { name: 'acme', exact: true }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill('gus');
    await page.getByRole('checkbox', { name: 'member' }).check();
    await page.getByRole('button', { name: 'Add, or set the roles' }).click();
    await page.getByText('gus is a member of acme with the roles ticked.').waitFor();
    await page.locator('tr', { hasText: 'gus' }).getByText('member').waitFor();
    // Its sign-in policy, changed as a whole, and its e-mail domains: one verified, a public one refused.
    await page.getByLabel('Second factor').selectOption('required');
    await page.getByRole('checkbox', { name: 'federation' }).uncheck();
    await page.getByLabel('Role of a member joining by a verified domain').selectOption('member');
    await page.getByRole('button', { name: 'Save the policy' }).click();
    await page.getByRole('status').filter({ hasText: 'The sign-in policy is saved.' }).waitFor();
    const stored = await server.context.store.findOrganization('acme');
    const policy = JSON.parse(stored?.policy ?? '{}') as unknown;
    assert.deepEqual(policy, {
      second_factor: 'required',
      sign_in_methods: ['password', 'passkey'],
      upstream: null,
      default_role: 'member',
    });
    await page.getByLabel('E-mail domain', { exact: true }).fill('acme.example');
    await page.getByRole('checkbox', { name: 'Verified: the organization owns it' }).check();
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('The domain acme.example is added.').waitFor();
    const domains = page.getByRole('region', { name: 'E-mail domains' });
    await domains.getByText('verified', { exact: true }).waitFor();
    await page.getByLabel('E-mail domain', { exact: true }).fill('gmail.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(await domains.getByText('gmail.com').count(), 0, 'a public mail domain is refused');
    await checkPage(page, 'organization');
    await domains.getByRole('button', { name: 'Remove acme.example' }).click();
    await domains.getByRole('button', { name: 'Click again to remove acme.example' }).click();
    await page.getByText('The domain acme.example is removed.').waitFor();
    const acme = await server.context.store.findOrganization('acme');
    assert.deepEqual(await server.context.store.listOrganizationDomains(acme?.id ?? ''), [], 'the domain removed');
    await page.getByLabel('Type acme to confirm').fill('acme');
    await page.getByRole('button', { name: 'Delete the organization' }).click();
    await page.getByRole('heading', { name: 'Organizations', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The organization acme is deleted.' }).waitFor();
    await page.getByText('No organization matches.').waitFor();

    const audited = await server.context.store.listAuditEvents({ limit: 200 });
    const events: string[] = audited.filter((e) => e.actor === actor).map((e) => e.event);
    for (const event of [
      'group_created',
      'group_member_added',
      'group_member_removed',
      'group_removed',
      'role_created',
      'role_assigned',
      'role_unassigned',
      'role_removed',
      'organization_changed',
      'organization_member_added',
      'organization_domain_changed',
      'organization_removed',
    ])
      assert.ok(events.includes(event), `${event} audited as the operator, in ${events.join(', ')}`);
    await context.close();
  });

  it('keyboard alone (Tab, Shift+Tab, Enter, Space): a user found, opened and disabled, a group made, an upstream provider added, every stop with a visible focus ring', async () => {
    await addTestUser(server, 'kim');
    const { page, context } = await newPage();
    await signInAsAlice(page, context, '', 'Dashboard');
    const focusRings: string[] = [];
    /**
     * Presses Tab (Shift+Tab when `back`) until `target` has the focus; at every stop the focused
     * element must show a focus indicator (WCAG 2.4.7): an outline or a box shadow.
     */
    const tabTo = async (target: Locator, back = false): Promise<void> => {
      for (let presses = 0; presses < 80; presses++) {
        await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
        const stop = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          if (focused === null || focused === document.body) return { ring: true, name: 'body' };
          const style = getComputedStyle(focused);
          const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
          return {
            ring: outline || style.boxShadow !== 'none',
            name: `${focused.tagName.toLowerCase()} ${focused.id || focused.textContent?.trim().slice(0, 30) || ''}`,
          };
        });
        if (!stop.ring) focusRings.push(stop.name);
        if (await target.evaluate((element) => element === document.activeElement)) return;
      }
      assert.fail(`${back ? 'Shift+Tab' : 'Tab'} never reached ${target.toString()}`);
    };

    // Users: searched, one opened, disabled on a second press.
    await tabTo(page.getByRole('link', { name: 'Users', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Users', exact: true }).waitFor();
    await tabTo(page.getByLabel('Search by username'));
    await page.keyboard.type('kim');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#users-caption ~ tbody tr').length === 1);
    await tabTo(page.getByRole('link', { name: 'kim', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'kim', exact: true }).waitFor();
    await tabTo(page.getByRole('button', { name: 'Disable' }));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Click again to disable kim' }).waitFor();
    await page.keyboard.press('Space');
    await page.getByText('kim is disabled').waitFor();
    assert.notEqual((await server.context.store.findUser('kim'))?.disabledAt ?? null, null, 'kim is disabled');

    // Back up to the navigation (Shift+Tab), to the groups: one made.
    await tabTo(page.getByRole('link', { name: 'Groups', exact: true }), true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Groups', exact: true }).waitFor();
    await tabTo(page.getByLabel('Name', { exact: true }));
    await page.keyboard.type('keyboard-team');
    await tabTo(page.getByRole('button', { name: 'Add group' }));
    await page.keyboard.press('Enter');
    await page.getByText('The group keyboard-team is added.').waitFor();
    await page.getByRole('link', { name: 'keyboard-team' }).waitFor();

    // Back up to the navigation, to the upstream providers: one added, its test sign-in reached.
    await tabTo(page.getByRole('link', { name: 'Upstream providers', exact: true }), true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Upstream providers', exact: true }).waitFor();
    for (const [label, value] of [
      ['Id', 'keyboard-idp'],
      ['Issuer', 'https://idp.keyboard.example'],
      ['Client id at the provider', 'gatehouse'],
      ['Client secret', 'keyboard-secret'],
    ] as const) {
      await tabTo(page.getByLabel(label, { exact: true }));
      await page.keyboard.type(value);
    }
    await tabTo(page.getByRole('button', { name: 'Add provider' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'keyboard-idp', exact: true }).waitFor();
    await tabTo(page.getByRole('button', { name: 'Test sign-in' }));
    assert.ok(await server.context.store.findUpstreamProvider('keyboard-idp'), 'the provider is added');
    assert.deepEqual(focusRings, [], 'every element the keyboard reached showed where the focus is');
    await context.close();
  });

  it('a sign-in of one factor is refused by the console with a page saying a second factor is required, and its tokens revoked', async () => {
    // What the server never issues to the console: its registration edited in the store (undone at
    // the next start) and the request's acr_values=mfa stripped on its way. The console checks the
    // ID token's acr itself (OIDC Core §3.1.3.7 point 12), as the admin API checks the access token's.
    await addTestUser(server, 'dora');
    const registered = (await server.context.store.findClient(CONSOLE_CLIENT_ID)) ?? assert.fail('no console client');
    await server.context.store.replaceClient({ ...registered, secondFactor: 'off' });
    const { page, context } = await newPage();
    try {
      await page.route(
        (url) => url.pathname === '/authorize',
        async (route) => {
          const url = new URL(route.request().url());
          url.searchParams.delete('acr_values');
          await route.continue({ url: url.href });
        },
      );
      await page.goto(`${issuer}/console`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Username').fill('dora');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const allow = page.getByRole('button', { name: 'Allow' });
      const refused = page.getByRole('heading', { name: 'A second factor is required' });
      await Promise.race([allow.waitFor().then(() => allow.click()), refused.waitFor()]);
      await refused.waitFor();
      assert.equal(new URL(page.url()).pathname, '/console');
      assert.equal(await page.getByRole('link', { name: 'Open your account page' }).count(), 1);
      const dora = await server.context.store.findUser('dora');
      const grants = await server.context.store.listGrantsPage(
        { subject: dora?.subject, clientId: CONSOLE_CLIENT_ID },
        undefined,
        10,
      );
      assert.equal(grants.length, 1);
      await until(async () => {
        const [grant] = await server.context.store.listGrantsPage(
          { subject: dora?.subject, clientId: CONSOLE_CLIENT_ID },
          undefined,
          10,
        );
        return grant?.revokedAt != null;
      }, 'the grant of the refused sign-in is revoked');
      await checkPage(page, 'second-factor');
    } finally {
      await context.close();
      await ensureConsoleClient(server.context);
    }
  });

  it('a callback the console did not start is refused with a page saying so', async () => {
    const { page, context } = await newPage();
    await page.goto(`${issuer}/console/callback?code=forged&state=forged&iss=${encodeURIComponent(issuer)}`);
    await page.getByRole('heading', { name: 'The sign-in could not be completed' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/console');
    await checkPage(page, 'refused');
    await context.close();
  });

  it('another site cannot frame the console (CSP frame-ancestors, RFC 9700 §4.4.1.9) nor call the admin API from its origin (no CORS)', async () => {
    const other = await startOtherSite();
    try {
      // Not a watched page: the refusal to frame is the console message this test waits for.
      const context = await browser.newContext();
      const page = await context.newPage();
      const refusal = page.waitForEvent('console', {
        predicate: (message) => /frame-ancestors 'none'/.test(message.text()),
      });
      await page.goto(`${other.origin}/?target=${encodeURIComponent(`${issuer}/console`)}`);
      await refusal;
      const framed = page.frames().find((f) => f !== page.mainFrame());
      assert.doesNotMatch(framed?.url() ?? '', /\/console/, 'the frame shows no console');
      const answer = await page.evaluate(async (url) => {
        try {
          const response = await fetch(url, { headers: { authorization: 'DPoP x', dpop: 'y' } });
          return `status ${response.status}`;
        } catch (error) {
          return `refused: ${(error as Error).name}`;
        }
      }, `${issuer}/admin/v1/keys`);
      assert.equal(answer, 'refused: TypeError', 'the browser refuses: the API allows no other origin');
      await context.close();
    } finally {
      other.server.closeAllConnections();
      other.server.close();
    }
  });

  it('no page broke the CSP', () => {
    assert.deepEqual(violations, []);
  });
});
