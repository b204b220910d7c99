import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureDemoClient } from '../src/cli/demo.js';
import { DemoFlows } from '../src/pages/demo-flows.js';
import { assertPageHeaders, PageBrowser, type PageAnswer } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

/** A claim as the page lists it. */
const claimOn = (html: string, name: string): string | undefined =>
  new RegExp(`<dt[^>]*>${name}</dt><dd><code[^>]*>([^<]*)</code></dd>`).exec(html)?.[1];

for (const dialect of DIALECTS) {
  describe(`npm start: the printed OpenID Connect request ends on /demo/callback with the ID token's claims (${dialect})`, () => {
    let server: TestServer;
    let browser: PageBrowser;
    let printed: string;
    const flows = new DemoFlows();

    before(async () => {
      // The demo registers its redirect URI on the issuer: a loopback one, as `npm start` has.
      server = await startTestServer({ dialect, demo: flows, reachableIssuer: true });
      const lines: string[] = [];
      await ensureDemoClient(server.context, (line) => lines.push(line), flows);
      printed = lines.join('\n');
      browser = new PageBrowser(server);
    });
    after(() => server.close());

    /** Signs in (once) as the printed demo user through the pages and allows; the callback's path and query. */
    async function signIn(url: URL): Promise<string> {
      let answer = await browser.get(`${url.pathname}${url.search}`);
      if (answer.html.includes('action="/login"')) {
        const password = /password: (\S+)/.exec(printed)?.[1] as string;
        const signedIn = await browser.login(answer, 'demo', password);
        assert.equal(signedIn.status, 303, signedIn.html);
        answer = await browser.get(signedIn.location as string);
      }
      if (answer.status === 200) answer = await browser.consent(answer, 'allow');
      const callback = new URL(answer.location as string);
      assert.equal(callback.pathname, '/demo/callback');
      return `${callback.pathname}${callback.search}`;
    }

    let page: PageAnswer;
    let callbackPath: string;

    it('the page exchanges the code itself and shows the claims of the ID token: iss, aud, the nonce of the printed request, name and email', async () => {
      const urls = [...printed.matchAll(/^\s+(http:\/\/\S+\/authorize\?\S+)$/gm)].map((m) => new URL(m[1] as string));
      const openid = urls.find((u) => u.searchParams.get('scope') === 'openid profile email');
      assert.ok(openid, printed);
      const nonce = openid.searchParams.get('nonce') as string;
      callbackPath = await signIn(openid);
      page = await browser.get(callbackPath);
      assert.equal(page.status, 200);
      assertPageHeaders(page);
      assert.match(page.html, /<h1>Signed in with OpenID Connect<\/h1>/);
      assert.equal(claimOn(page.html, 'iss'), server.context.issuer);
      assert.equal(claimOn(page.html, 'aud'), 'demo-public');
      assert.equal(claimOn(page.html, 'nonce'), nonce);
      assert.equal(claimOn(page.html, 'name'), 'Demo User');
      assert.equal(claimOn(page.html, 'email'), 'demo@example.com');
      assert.match(claimOn(page.html, 'sub') ?? '', /\S/);
      assert.match(page.html, /The nonce is the one of the printed request\./);
    });

    it('its access token is good at /userinfo (the command the page shows), for the same user', async () => {
      const token = /Bearer ([A-Za-z0-9._-]+)&#39;/.exec(page.html)?.[1];
      assert.ok(token, 'the page shows the userinfo command');
      const userinfo = await fetch(`${server.url}/userinfo`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(userinfo.status, 200);
      const claims = (await userinfo.json()) as Record<string, unknown>;
      assert.equal(claims.sub, claimOn(page.html, 'sub'));
      assert.equal(claims.email, 'demo@example.com');
    });

    it('a reload shows the same answer and presents the code no second time, so the grant stays (RFC 6749 §4.1.2)', async () => {
      const events = async (): Promise<number> =>
        (await server.context.store.listAuditEvents({ limit: 1000 })).filter((e) => e.event === 'grant_revoked').length;
      const revokedBefore = await events();
      const again = await browser.get(callbackPath);
      assert.equal(again.html, page.html);
      assert.equal(await events(), revokedBefore);
      const account = await browser.get('/account');
      assert.equal((account.html.match(/Gatehouse demo app/g) ?? []).length, 1);
    });

    it('the OAuth request printed first still ends on the code and the curl command that exchanges it', async () => {
      const url = new URL(/^\s+(http:\/\/\S+\/authorize\?\S+)$/m.exec(printed)?.[1] as string);
      assert.equal(url.searchParams.get('scope'), 'contacts:read contacts:write');
      assert.equal(url.searchParams.get('nonce'), null);
      const answer = await browser.get(await signIn(url));
      assert.match(answer.html, /Authorization code received/);
      assert.match(answer.html, /<pre class="command" translate="no">/);
    });
  });
}
