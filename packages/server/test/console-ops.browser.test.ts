/**
 * The console's operations pages in Chromium, signed in with a passkey (a virtual authenticator):
 * a client's registration edited (its redirect URIs checked while typed by the exact-match rule,
 * DPoP binding, the FAPI 2.0 profile refused by the server for a client that cannot meet it), a
 * user's browser sessions and grants ended one by one and everywhere, and the dashboard's health,
 * counts and recent failures; an upstream provider added, tested with a test sign-in (its claims
 * shown, nobody created), edited and deleted. Every page is axe-clean and fits 320 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authorizationQuery, CALLBACK, obtainCode, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { browserSuiteSkip, launchChromium } from './_browser.js';
import {
  addOperatorPasskey,
  checkConsolePage,
  operatorProfile,
  signInToConsoleWithPasskey,
  startConsoleServer,
} from './_console-browser.js';
import type { TestServer } from './_server.js';
import { startUpstreamStub, type UpstreamStub } from './_upstream-stub.js';

describe(
  'the console’s operations pages (chromium, virtual authenticator)',
  { skip: browserSuiteSkip(), timeout: 300_000 },
  () => {
    let server: TestServer;
    let browser: Browser;
    let issuer: string;
    const violations: string[] = [];
    let context: BrowserContext;
    let page: Page;
    let upstream: UpstreamStub;

    before(async () => {
      server = await startConsoleServer('pat', ['rita']);
      issuer = server.context.issuer;
      await server.addClient({ id: 'shop', redirectUris: ['https://shop.example/callback'], scope: ['openid'] });
      await server.addClient({ id: 'app', public: true, scope: ['contacts:read'], redirectUris: [CALLBACK] });
      upstream = await startUpstreamStub();
      browser = await launchChromium();
      ({ context, page } = await operatorProfile(browser, server, violations));
      await addOperatorPasskey(page, issuer, 'pat', PASSWORD);
      await signInToConsoleWithPasskey(page, issuer);
    });
    after(async () => {
      await context?.close();
      await browser?.close();
      await server?.close();
      await upstream?.close();
    });

    it('edits a client: a redirect URI the exact-match rule refuses is named while typed, DPoP binding saved, FAPI 2.0 refused by the server with its reason', async () => {
      await page.getByRole('link', { name: 'Clients', exact: true }).click();
      await page.getByRole('link', { name: 'shop', exact: true }).click();
      await page.getByRole('heading', { name: 'Registration' }).waitFor();
      const uris = page.getByLabel('Redirect URIs', { exact: true });
      assert.equal(await uris.inputValue(), 'https://shop.example/callback');
      await uris.fill('https://shop.example/callback\nhttp://shop.example/callback#top');
      await page.getByText('a redirect URI cannot have a fragment').waitFor();
      assert.equal(await uris.getAttribute('aria-invalid'), 'true');
      const save = page.getByRole('button', { name: 'Save changes' });
      assert.ok(await save.isDisabled(), 'nothing that could never match is sent');
      await checkConsolePage(page, 'client');
      await uris.fill('https://shop.example/callback\nhttps://shop.example/other');
      await page.getByLabel('Bind its tokens to a DPoP key', { exact: false }).check();
      await page.getByLabel('refresh_token').check();
      await page.getByLabel('client_credentials').uncheck();
      await save.click();
      await page.getByText('The changes to shop are saved.').waitFor();
      const stored = await server.context.store.findClient('shop');
      assert.deepEqual(stored?.redirectUris, ['https://shop.example/callback', 'https://shop.example/other']);
      assert.equal(stored?.dpopBoundAccessTokens, true);
      assert.deepEqual(stored?.grantTypes, ['authorization_code', 'refresh_token']);

      await page.getByLabel('Security profile').selectOption('fapi2');
      await save.click();
      await page.getByRole('alert').waitFor();
      assert.equal((await server.context.store.findClient('shop'))?.profile ?? null, null, 'nothing changed');
    });

    it("shows a user's browser sessions, ends one, then signs the user out everywhere: sessions ended, grants revoked", async () => {
      // rita signs in from two browsers (of the pages, over HTTP), each allowing the application.
      for (const browser of [new PageBrowser(server), new PageBrowser(server)])
        await obtainCode(browser, authorizationQuery('app', pkce().challenge), 'rita');
      await server.issueGrant({ id: 'app', secret: null }, 'rita');
      await page.getByRole('link', { name: 'Users', exact: true }).click();
      await page.getByLabel('Search by username').fill('rita');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('link', { name: 'rita' }).click();
      const sessions = page.locator('section[aria-labelledby="user-sessions"] tbody tr');
      await page.getByRole('heading', { name: 'Browser sessions' }).waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('section[aria-labelledby="user-sessions"] tbody tr').length === 2,
      );
      assert.deepEqual(await sessions.locator('td:nth-child(2)').allTextContents(), ['pwd', 'pwd']);
      await checkConsolePage(page, 'user');
      await sessions.first().getByRole('button', { name: 'End' }).click();
      await sessions.first().getByRole('button', { name: 'Click again to end this session' }).click();
      await page.getByText('The session is ended').waitFor();
      await page.waitForFunction(
        () => document.querySelectorAll('section[aria-labelledby="user-sessions"] tbody tr').length === 1,
      );

      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('button', { name: 'Click again to sign rita out everywhere' }).click();
      await page.getByText('rita is signed out everywhere. Sessions ended: 1.').waitFor();
      await page.getByText('No browser is signed in.').waitFor();
      const rita = await server.context.store.findUser('rita');
      const live = await server.context.store.listLiveGrants('app', rita?.subject ?? '', server.clock.now());
      assert.deepEqual(live, [], 'every grant revoked');
      const [event] = await server.context.store.listAuditEvents({ event: 'user_signed_out_everywhere', limit: 1 });
      assert.match(event?.actor ?? '', /^user:.+ client:gatehouse-console$/, 'audited as the operator');
    });

    it('adds an upstream provider (its issuer checked while typed), tests a sign-in there that shows the claims and creates nobody, edits it and deletes it on its typed id', async () => {
      await page.getByRole('link', { name: 'Upstream providers', exact: true }).click();
      await page.getByRole('heading', { name: 'Upstream providers', exact: true }).waitFor();
      await page.getByText('No upstream provider matches.').waitFor();
      await checkConsolePage(page, 'upstreams');
      await page.getByLabel('Id', { exact: true }).fill('corp');
      const issuerField = page.getByLabel('Issuer', { exact: true });
      await issuerField.fill('http://idp.example');
      await page.getByText('An issuer is https, or plain http on this machine only').waitFor();
      assert.equal(await issuerField.getAttribute('aria-invalid'), 'true');
      assert.ok(await page.getByRole('button', { name: 'Add provider' }).isDisabled());
      await issuerField.fill(upstream.issuer);
      await page.getByLabel('Client id at the provider').fill(upstream.clientId);
      await page.getByLabel('Client secret', { exact: true }).fill(upstream.clientSecret);
      await page.getByLabel('Name on the sign-in page').fill('Corp SSO');
      await page.getByRole('button', { name: 'Add provider' }).click();
      await page.getByRole('heading', { name: 'corp', exact: true }).waitFor();
      await page.getByText('The upstream provider corp is saved.').waitFor();
      assert.equal((await server.context.store.findUpstreamProvider('corp'))?.clientId, upstream.clientId);
      assert.ok(!(await page.content()).includes(upstream.clientSecret), 'the secret is never shown back');
      await checkConsolePage(page, 'upstream');

      // The test sign-in: the upstream signs "ann" in at once, in a window of its own.
      upstream.autoApprove = {
        sub: 'upstream-ann',
        claims: { email: 'ann@corp.example', email_verified: true, name: 'Ann Upstream' },
      };
      const usersBefore = (await server.context.store.listUsers()).length;
      const popup = context.waitForEvent('page');
      await page.getByRole('button', { name: 'Test sign-in' }).click();
      await popup;
      const result = page.locator('#test-result');
      await result.getByText('The provider signed you in').waitFor();
      await result.getByText('Gatehouse would create the account ann@corp.example and link it.').waitFor();
      await page.locator('#test-claims').getByText('"Ann Upstream"').waitFor();
      assert.equal((await server.context.store.listUsers()).length, usersBefore, 'nobody is created');
      assert.equal(await server.context.store.findFederatedIdentity(upstream.issuer, 'upstream-ann'), undefined);
      const [tested] = await server.context.store.listAuditEvents({ event: 'upstream_test_sign_in', limit: 1 });
      assert.match(tested?.actor ?? '', /^user:.+ client:gatehouse-console$/, 'audited as the operator');
      await checkConsolePage(page, 'upstream-test-sign-in');

      // Edited: the secret typed again (never answered), the domains changed.
      await page.getByLabel('E-mail domains').last().fill('corp.example');
      await page.getByLabel('Client secret', { exact: true }).fill(upstream.clientSecret);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('The upstream provider corp is saved.').waitFor();
      await page.waitForFunction(() => document.body.textContent?.includes('corp.example') === true);
      const stored = await server.context.store.findUpstreamProvider('corp');
      assert.deepEqual((JSON.parse(stored?.settings ?? '{}') as { domains?: string[] }).domains, ['corp.example']);

      await page.getByLabel('Type corp to confirm').fill('corp');
      await page.getByRole('button', { name: 'Delete the upstream provider' }).click();
      await page.getByText('The upstream provider corp is deleted.').waitFor();
      await page.getByRole('heading', { name: 'Upstream providers', exact: true }).waitFor();
      assert.equal(await server.context.store.findUpstreamProvider('corp'), undefined);
    });

    it('shows health (the store answers, the mail outbox, the signing keys’ age) and counts on the dashboard', async () => {
      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      const health = page.locator('section[aria-labelledby="health-title"]');
      await health.getByText(/^Answers \(\d+(\.\d+)? ms\)$/).waitFor();
      await health.getByText('Waiting: 0 · Failed: 0').waitFor();
      assert.ok((await health.getByText('Age in days: 0').count()) >= 1, 'the keys that sign, published today');
      const counted = await server.context.store.countOverview(server.clock.now());
      const counts = page.locator('section[aria-labelledby="counts-title"] dd');
      assert.deepEqual(await counts.allTextContents(), [
        String((await server.context.store.listUsers()).length),
        String(counted.clients),
        String(counted.liveGrants),
      ]);
      assert.equal(counted.clients, (await server.context.store.listClientsPage(undefined, 100)).length);
      await checkConsolePage(page, 'dashboard');
    });
  },
);
