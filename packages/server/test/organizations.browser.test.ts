import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { createOrganization, putMember } from '../src/organizations/index.js';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import {
  browserAvailability,
  launchChromium,
  startCallbackServer,
  type CallbackServer,
  watchedPage,
} from './_browser.js';
import { DIALECTS, type Dialect } from './_dialects.js';
import { assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

/** The organization chooser in Chromium (docs/organizations.md): a user of two organizations picks one. */
describe('the organization chooser in a real browser (chromium)', { skip, timeout: 240_000 }, () => {
  let browser: Browser;
  before(async () => {
    if (unavailable) return;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  for (const dialect of DIALECTS) suite(dialect);

  function suite(dialect: Dialect): void {
    describe(`[${dialect}]`, () => {
      let server: TestServer;
      let callback: CallbackServer;
      let portal: TestClient;
      const violations: string[] = [];

      before(async () => {
        if (unavailable) return;
        server = await startTestServer({ dialect });
        callback = await startCallbackServer();
        portal = await server.addClient({
          id: 'portal',
          name: 'Customer Portal',
          redirectUris: [callback.uri],
          scope: ['openid', 'organization'],
        });
        await addTestUser(server, 'alice');
        const { audit } = server.context;
        await createOrganization(audit, { slug: 'acme', name: 'Acme Corp', roles: ['admin'] }, 0, CLI_ACTOR);
        await createOrganization(audit, { slug: 'globex', name: 'Globex', roles: ['viewer'] }, 0, CLI_ACTOR);
        await putMember(audit, 'acme', 'alice', ['admin'], 0, CLI_ACTOR);
        await putMember(audit, 'globex', 'alice', ['viewer'], 0, CLI_ACTOR);
      });
      after(async () => {
        await callback?.close();
        await server?.close();
      });

      it('a member of two organizations picks Globex on the chooser, sees it on the consent page, and the ID token says it', async () => {
        if (unavailable) throw unavailable;
        const { page } = await watchedPage(browser, violations);
        const { verifier, challenge } = pkce();
        const query = new URLSearchParams({
          response_type: 'code',
          client_id: portal.id,
          redirect_uri: callback.uri,
          scope: 'openid organization',
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
        });
        await page.goto(`${server.url}/authorize?${query}`);
        await page.getByLabel('Username').fill('alice');
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: /Customer Portal/ }).waitFor();
        const choices = page.getByRole('list', { name: 'Choose an organization' }).getByRole('link');
        assert.deepEqual(await choices.allTextContents(), ['Acme Corp', 'Globex']);
        await page.getByRole('link', { name: 'Globex' }).click();
        await page.getByText('For the organization Globex').waitFor();
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL((url) => url.href.startsWith(callback.uri));
        const code = new URL(page.url()).searchParams.get('code') ?? assert.fail('a code');
        const tokens = await assertOkJson(
          await server.post(
            '/token',
            { grant_type: 'authorization_code', code, redirect_uri: callback.uri, code_verifier: verifier },
            { as: portal },
          ),
        );
        const claims = decodeJwt(tokens.id_token as string);
        assert.equal(claims.org_name, 'Globex');
        assert.deepEqual(claims.org_roles, ['viewer']);
        assert.equal(claims.org_id, (await server.context.store.findOrganization('globex'))?.id);
        await page.close();
        assert.deepEqual(violations, [], 'no CSP violation or console error');
      });
    });
  }
});
