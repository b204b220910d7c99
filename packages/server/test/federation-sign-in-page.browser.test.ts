/**
 * The sign-in page's federation section in chromium, at 1280 and 360 px: the upstream's icon shows
 * under the page's CSP (served from Gatehouse's origin), the "Work e-mail" box is drawn like the
 * other fields, and the section stands apart from the "Sign in" button above it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { putProvider } from '../src/federation/providers.js';
import { authorizationQuery, CALLBACK, pkce } from './_authorize.js';
import { ARTIFACTS, browserSuiteSkip, launchChromium, screenshotsAt, watchedPage } from './_browser.js';
import { solidPng } from './_images.js';
import { startTestServer, type TestServer } from './_server.js';

let skip: string | false = false;
let unavailable: Error | undefined;
try {
  skip = browserSuiteSkip();
} catch (error) {
  unavailable = error as Error;
}

const WIDTHS = [1280, 360] as const;

/** What the test compares of a field: its box and how it is drawn. */
async function fieldLook(page: Page, selector: string) {
  return page.locator(selector).evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      height: Math.round(box.height),
      width: Math.round(box.width),
      padding: style.padding,
      border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
      radius: style.borderTopLeftRadius,
      background: style.backgroundColor,
      font: `${style.fontSize} ${style.fontFamily}`,
      marginBottom: style.marginBottom,
    };
  });
}

describe('federation on the sign-in page (chromium, 1280 and 360 px)', { skip, timeout: 120_000 }, () => {
  let server: TestServer;
  let images: Server;
  let browser: Browser;

  before(async () => {
    if (unavailable) return;
    server = await startTestServer({ reachableIssuer: true });
    await server.addClient({ id: 'rp', name: 'Relying Party', redirectUris: [CALLBACK], scope: ['openid'] });
    images = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(32)),
    );
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    await putProvider(
      server.context.store,
      {
        id: 'corp',
        issuer: 'https://login.corp.example',
        client_id: 'gatehouse',
        client_secret: 's',
        display_name: 'Corp',
        icon: `http://127.0.0.1:${(images.address() as AddressInfo).port}/favicon.png`,
      },
      server.clock.now(),
      undefined,
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    images?.closeAllConnections();
    await new Promise<void>((resolve) => (images ? images.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('chromium is installed', () => {
    if (unavailable) throw unavailable;
  });

  it('the upstream icon shows with no CSP violation; “Work e-mail” is drawn like “Password”; the organization section keeps a gap under “Sign in”', async () => {
    if (unavailable) throw unavailable;
    const violations: string[] = [];
    const { context, page } = await watchedPage(browser, violations);
    try {
      const query = authorizationQuery('rp', pkce().challenge, { scope: 'openid', nonce: 'n' });
      await page.goto(`${server.url}/authorize?${query}`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const icon = page.locator('button[value="corp"] img');
        assert.equal(await icon.count(), 1, 'the button has its icon');
        await icon.evaluate((img: HTMLImageElement) => img.decode());
        assert.equal(
          await icon.evaluate((img: HTMLImageElement) => img.naturalWidth),
          32,
          `${width}: the icon is drawn`,
        );
        const email = await fieldLook(page, '#upstream-email');
        const password = await fieldLook(page, '#password');
        assert.deepEqual(email, password, `${width}: the e-mail box looks like the password box`);
        const gap = await page.evaluate(() => {
          const signIn = document.querySelector('form.stack .button.primary')?.getBoundingClientRect();
          const section = document.querySelector('form.upstreams .list-title')?.getBoundingClientRect();
          return signIn && section ? section.top - signIn.bottom : -1;
        });
        assert.ok(gap >= 24, `${width}: ${gap} px between “Sign in” and the organization section`);
      }
      await screenshotsAt(page, ARTIFACTS, 'federation-sign-in', { width: 360, height: 900 });
      assert.deepEqual(violations, []);
    } finally {
      await context.close();
    }
  });
});
