import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ensureDemoClient } from '../src/cli/demo.js';
import { DemoFlows } from '../src/pages/demo-flows.js';
import { startServer, type RunningServer } from '../src/server.js';
import { browserAvailability, launchChromium, SCREENSHOTS } from './_browser.js';
import { freePort } from './_pg-cluster.js';
import { runInGroup } from './_processes.js';
import { SHIPPED_OPENAPI, startTestServer } from './_server.js';

const { skip, unavailable } = browserAvailability();

/**
 * The pages a browser meets outside the authorization flow, in chromium, on `serve --demo` as
 * `npm start` runs it: the landing page, the 404 page, and the demo's own redirect URI, reached by
 * signing in through the authorization URL the demo printed. One browser for all of them.
 */
describe('the pages a browser meets (chromium): /, an unknown path, /demo/callback', { skip, timeout: 120_000 }, () => {
  let dir: string;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const printed: string[] = [];

  before(async () => {
    if (unavailable) throw unavailable;
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-pages-'));
    const port = await freePort();
    const demo = new DemoFlows();
    // The issuer is the address the browser uses: the demo's redirect URI is on the server itself.
    server = await startServer({
      databaseUrl: `sqlite:${join(dir, 'gatehouse.db')}`,
      issuer: `http://127.0.0.1:${port}`,
      port,
      host: '127.0.0.1',
      api: SHIPPED_OPENAPI,
      demo,
    });
    await ensureDemoClient(server.context, (line) => printed.push(line), demo);
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 900, height: 760 } })).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('/ says what the server is and links to the account page and the metadata documents', async () => {
    const response = await page.goto(`${server.url}/`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), 'Gatehouse', 'the product once, not "Gatehouse · Gatehouse"');
    assert.match(
      await page.locator('main').innerText(),
      /authorization server and OpenID Provider at http:\/\/127\.0\.0\.1/,
    );
    const links = await page.locator('.links a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, [
      '/account',
      '/.well-known/openid-configuration',
      '/.well-known/oauth-authorization-server',
      '/jwks',
      '/v2/openapi.json',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, 'landing.png'), fullPage: true });
    const metadata = await page.goto(`${server.url}/.well-known/oauth-authorization-server`);
    assert.equal(metadata?.status(), 200, 'the metadata link leads somewhere');
  });

  it('an unknown path is a 404 page for a browser, and the problem+json 404 for an API client', async () => {
    const response = await page.goto(`${server.url}/no/such/page?x=1`);
    assert.equal(response?.status(), 404);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);
    const text = await page.locator('main').innerText();
    assert.match(text, /Page not found/);
    assert.match(text, /There is no page at \/no\/such\/page\./);
    assert.equal(await page.locator('a[href="/problems/not-found"]').count(), 1);
    await page.screenshot({ path: join(SCREENSHOTS, 'not-found.png'), fullPage: true });

    const apiClients: [string, string | undefined][] = [
      ['/no/such/page', undefined],
      ['/no/such/page', 'application/json'],
      ['/no/such/page', '*/*'],
      ['/no/such/page', 'text/html, application/json'],
      // The REST API answers in one language, whoever asks.
      ['/v2/no/such/collection', 'text/html'],
    ];
    for (const [path, accept] of apiClients) {
      const api = await fetch(`${server.url}${path}`, { headers: accept ? { accept } : {} });
      assert.equal(api.status, 404);
      assert.match(api.headers.get('content-type') ?? '', /^application\/problem\+json/, `Accept: ${accept}`);
      assert.equal(((await api.json()) as { type: string }).type, '/problems/not-found');
    }
  });

  it('npm start: the printed URL, sign-in and Allow end on /demo/callback, whose curl command exchanges the code', async () => {
    const output = printed.join('\n');
    const url = /^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(output)?.[1];
    const password = /password: (\S+)/.exec(output)?.[1];
    const verifier = /code_verifier: (\S+)/.exec(output)?.[1];
    assert.ok(url && password && verifier, output);
    const state = new URL(url).searchParams.get('state') as string;

    await page.goto(url);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/demo\/callback\?/);
    const landed = new URL(page.url());
    assert.equal(landed.pathname, '/demo/callback');
    const code = landed.searchParams.get('code') as string;
    assert.equal(landed.searchParams.get('state'), state);

    const text = await page.locator('main').innerText();
    assert.match(text, /Authorization code received/);
    assert.ok(text.includes(code), 'the page shows the code');
    assert.ok(text.includes(state), 'and the state');
    const command = await page.locator('pre.command').innerText();
    assert.ok(command.includes(`code_verifier=${verifier}`), 'the verifier the demo printed is filled in');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-callback.png'), fullPage: true });

    // Ready to copy: the command, run as it is shown, gets the tokens.
    const ran = await runInGroup('sh', ['-c', command], { timeoutMs: 10_000 });
    assert.equal(ran.code, 0, ran.err);
    const tokens = JSON.parse(ran.out) as Record<string, unknown>;
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(typeof tokens.access_token, 'string');
    assert.equal(tokens.scope, 'contacts:read contacts:write');
  });

  it("npm start: the printed OpenID Connect URL ends on /demo/callback showing the ID token's claims, with its nonce", async () => {
    const output = printed.join('\n');
    const url = [...output.matchAll(/^\s+(http:\/\/\S+\/authorize\?\S+)$/gm)]
      .map((m) => new URL(m[1] as string))
      .find((u) => u.searchParams.get('scope') === 'openid profile email');
    assert.ok(url, output);
    // Signed in by the test before: the consent page asks for the new scopes.
    await page.goto(url.href);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/demo\/callback\?/);
    assert.equal(await page.textContent('h1'), 'Signed in with OpenID Connect');
    const claims = Object.fromEntries(
      await page
        .locator('dl.values dt')
        .evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    ) as Record<string, string>;
    assert.equal(claims.nonce, url.searchParams.get('nonce'));
    assert.equal(claims.aud, 'demo-public');
    assert.equal(claims.name, 'Demo User');
    assert.equal(claims.email, 'demo@example.com');
    await page.screenshot({ path: join(SCREENSHOTS, 'demo-sign-in.png'), fullPage: true });
  });
});

describe('/demo/callback outside the happy path', () => {
  it('is not served without --demo', async () => {
    const server = await startTestServer();
    try {
      const answer = await fetch(`${server.url}/demo/callback?code=abc&state=x`);
      assert.equal(answer.status, 404);
    } finally {
      await server.close();
    }
  });

  it('shows an error sent back instead of a code, escaped, and never turns odd input into a command', async () => {
    const demo = new DemoFlows();
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-pages-'));
    const server = await startServer({
      databaseUrl: `sqlite:${join(dir, 'gatehouse.db')}`,
      issuer: `http://127.0.0.1:${port}`,
      port,
      host: '127.0.0.1',
      demo,
    });
    try {
      const page = async (query: string): Promise<string> => {
        const answer = await fetch(`${server.url}/demo/callback?${query}`);
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'none'/);
        return answer.text();
      };
      const denied = await page('error=access_denied&error_description=%3Cscript%3Ex%3C%2Fscript%3E&state=s1');
      assert.match(denied, /No authorization code/);
      assert.match(denied, /access_denied/);
      assert.ok(!denied.includes('<script>x'), 'escaped');
      assert.ok(!denied.includes('class="command"'));
      const hostile = await page(`code=${encodeURIComponent('$(touch /tmp/x)')}`);
      assert.ok(!hostile.includes('class="command"'), 'no command for a code this server would not issue');
      // A state the demo did not print: the command asks for the verifier instead of guessing it.
      const unknown = await page('code=abc-DEF_123&state=not-printed');
      assert.match(unknown, /-d code_verifier=&#60;code_verifier&#62;/);
      assert.match(unknown, /-d client_id=demo-public/);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
