/**
 * One refresh at a time across browser tabs: two pages of one origin in Chromium, each with a
 * TokenManager on the localStorage store, serialised by the Web Locks API, against a real Gatehouse
 * whose client has `rotation_limit` 1 and no replay window. Gatehouse answers no CORS, so the page
 * and the SDK bundle are served by the counting proxy, on the issuer's origin.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './_chromium.js';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { isRefresh } from './_proxy.js';
import { bundleSdk, tabsPage, type TabReport } from './_tabs-page.js';

// Access tokens of 6 s, refreshed 4 s before they expire: an expiry every 2 to 3 s of calls, so
// several in the 10 s, and a margin of 3 to 4 s (the token's exp is in whole seconds) for a call in
// flight on a busy machine. With 4 s and 2 s, a margin of 1 to 2 s, a call under a load average
// of 12 to 15 from other work took longer and was answered 401 (2026-11-29).
const ACCESS_TTL = 6;
const SKEW = 4;

describe('two tabs of one origin on the localStorage store, against Gatehouse (rotation_limit 1)', () => {
  let gatehouse: Gatehouse;
  let browser: Browser;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    gatehouse.proxy.local.set('/sdk-test/sdk.js', { contentType: 'text/javascript', body: await bundleSdk() });
    gatehouse.proxy.local.set('/sdk-test/tab.html', { contentType: 'text/html', body: tabsPage('/sdk-test/sdk.js') });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await gatehouse?.close();
  });

  async function openTab(context: Awaited<ReturnType<Browser['newContext']>>): Promise<Page> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${gatehouse.issuer}/sdk-test/tab.html`);
    await page.waitForFunction('window.tabTestReady === true', undefined, { timeout: 10_000 }).catch(() => {
      throw new Error(`the page did not load the SDK: ${errors.join('; ')}`);
    });
    return page;
  }

  test('two tabs making 50 concurrent calls each across several access-token expiries refresh once per expiry, and nobody is logged out', async (t) => {
    const client = await gatehouse.addClient({ id: 'two-tabs', public: true, accessTokenTtl: ACCESS_TTL });
    const config = {
      issuer: gatehouse.issuer,
      apiBase: gatehouse.apiBase,
      clientId: client.id,
      redirectUri: CALLBACK,
      skewSeconds: SKEW,
      calls: 50,
    };
    const context = await browser.newContext();
    const tabs = [await openTab(context), await openTab(context)];
    assert.equal(await tabs[0]?.evaluate('window.tabTest.hasWebLocks'), true, 'the page has the Web Locks API');
    const issued = await gatehouse.issueGrant(client.id);
    await tabs[0]?.evaluate(`window.tabTest.seed(${JSON.stringify(config)}, ${JSON.stringify(issued)})`);
    const mark = gatehouse.proxy.exchanges.length;

    const deadline = Date.now() + 10_000;
    const reports = (await Promise.all(
      tabs.map((tab) => tab.evaluate(`window.tabTest.run(${JSON.stringify(config)}, ${deadline})`)),
    )) as TabReport[];
    await context.close();

    const exchanges = gatehouse.proxy.exchanges.slice(mark);
    const refreshes = exchanges.filter(isRefresh);
    const apiCalls = exchanges.filter((e) => e.path.startsWith('/v2/contacts'));
    const window = (apiCalls.at(-1)?.at ?? 0) - (apiCalls[0]?.at ?? 0);
    t.diagnostic(
      `${apiCalls.length} API calls in ${window} ms, ${refreshes.length} refreshes (by tab: ${reports.map((r) => r.refreshed).join(', ')})`,
    );
    reports.forEach((report, i) => {
      assert.deepEqual(report.failures, [], `tab ${i}: every call succeeded`);
      // Rounds of 50 at once, not a rate: each tab kept calling through several token periods
      // (accessTokens and the window below say which). 500 calls in 8 s was a speed check: a
      // clean-clone CI on a slow machine made 450, every one answered 200.
      assert.ok(report.calls >= config.calls * 4, `tab ${i} made ${report.calls} calls, fewer than 4 rounds`);
      assert.ok(report.accessTokens >= 3, `tab ${i} used ${report.accessTokens} access tokens`);
    });
    assert.ok(window >= 6000, `the calls spanned ${window} ms`);
    assert.ok(
      apiCalls.every((e) => e.status === 200),
      'no call was made with an expired access token (no 401)',
    );
    assert.ok(refreshes.length >= 3, `several expiries: ${refreshes.length} refreshes`);
    assert.deepEqual(
      refreshes.map((e) => e.status),
      refreshes.map(() => 200),
      'every refresh was answered 200: no invalid_grant',
    );
    const grant = await gatehouse.grant(issued.grant_id);
    assert.equal(grant.revokedAt, null, 'the family is alive');
    assert.equal(grant.rotationCount, refreshes.length, 'every refresh rotated the newest token');
    assert.equal(
      reports.reduce((sum, r) => sum + r.refreshed, 0),
      refreshes.length,
      'each refresh was made by one tab',
    );
    for (let i = 1; i < refreshes.length; i++) {
      const gap = (refreshes[i]?.at ?? 0) - (refreshes[i - 1]?.at ?? 0);
      assert.ok(gap >= (ACCESS_TTL - SKEW) * 1000, `refresh ${i} came ${gap} ms after the previous one`);
    }
  });
});
