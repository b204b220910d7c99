import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addTestUser, pkce, PASSWORD } from './_authorize.js';
import { browserAvailability, launchChromium, startCallbackServer, type CallbackServer } from './_browser.js';
import { assertOkJson } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

describe('POST /authorize and response_mode=form_post in a real browser (chromium)', { skip, timeout: 120_000 }, () => {
  let server: TestServer;
  let callback: CallbackServer;
  let browser: Browser;
  let client: TestClient;
  /** Every console message about a Content-Security-Policy violation, from every page. */
  const violations: string[] = [];

  before(async () => {
    if (unavailable) return;
    server = await startTestServer();
    callback = await startCallbackServer();
    client = await server.addClient({ id: 'rp', name: 'Form Post RP', public: true, redirectUris: [callback.uri] });
    await addTestUser(server, 'alice');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  /** The relying party's page posts the authorization request as a form (OIDC Core §3.1.2.1). */
  async function postRequestFromRelyingParty(page: Page, fields: Record<string, string>): Promise<void> {
    await page.goto(callback.uri);
    await page.evaluate(
      ({ action, entries }) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        for (const [name, value] of entries) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      },
      { action: `${server.url}/authorize`, entries: Object.entries(fields) },
    );
  }

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  it("the RP's form post starts the flow, and the auto-submitted form delivers code, state and iss to its callback", async () => {
    if (unavailable) throw unavailable;
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    const { verifier, challenge } = pkce();
    const request = {
      response_type: 'code',
      response_mode: 'form_post',
      client_id: client.id,
      redirect_uri: callback.uri,
      scope: 'contacts:read',
      state: 'form-post-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    await postRequestFromRelyingParty(page, request);
    await page.waitForSelector('form[action="/login"]');
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('form[action="/consent"]');

    const delivered = page.waitForResponse((r) => r.url() === callback.uri && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Allow' }).click();
    await delivered;
    const posted = callback.posted.at(-1);
    assert.ok(posted, 'the callback received a POST');
    assert.deepEqual([...posted.keys()].sort(), ['code', 'iss', 'state']);
    assert.equal(posted.get('state'), 'form-post-state');
    assert.equal(posted.get('iss'), 'http://gatehouse.test');
    await assertOkJson(
      await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code: posted.get('code') as string,
          redirect_uri: callback.uri,
          code_verifier: verifier,
        },
        { as: client },
      ),
    );

    // Signed in, consent remembered: the next POST comes back at once, by form post again.
    const again = page.waitForResponse((r) => r.url() === callback.uri && r.request().method() === 'POST');
    await postRequestFromRelyingParty(page, { ...request, code_challenge: pkce().challenge, state: 'second' });
    await again;
    assert.equal(callback.posted.at(-1)?.get('state'), 'second');
    assert.ok(callback.posted.at(-1)?.get('code'));
    assert.deepEqual(violations, [], 'the CSP allowed the script and the form, and nothing else was refused');
    await context.close();
  });
});
