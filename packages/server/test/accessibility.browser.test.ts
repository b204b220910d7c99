import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { seriousViolations, violationsOfPages } from './_axe.js';
import { browserSuiteSkip, launchChromium } from './_browser.js';
import { authorizationQuery, CALLBACK, PageBrowser, PASSWORD, pkce } from './_authorize.js';
import { everyPage, startPagesServer } from './_page-kinds.js';
import type { TestServer } from './_server.js';

describe('accessibility: WCAG 2.2 AA by axe-core, and the keyboard alone', { skip: browserSuiteSkip() }, () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startPagesServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('axe-core finds what it should: a page with an unlabelled field and an image without alt fails', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent('<html lang="en"><body><main><img src="x.png"><input type="text"></main></body></html>');
    assert.ok((await seriousViolations(page)).length >= 2);
    await context.close();
  });

  for (const locale of ['en', 'ar'])
    it(`every kind of page in ${locale} has no serious or critical violation of WCAG 2.2 AA (axe-core)`, async () => {
      const shown = await everyPage({
        server,
        request: {},
        browser: () => {
          const pages = new PageBrowser(server);
          pages.localeCookie = `gatehouse_locale=${locale}`;
          return pages;
        },
      });
      const failures = await violationsOfPages(browser, server.url, shown);
      assert.deepEqual(failures, []);
    });

  it('a person signs in and consents with the keyboard alone (Tab, typing, Enter, Space), each control visibly focused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(
      (url) => url.href.startsWith(CALLBACK),
      (route) => route.fulfill({ contentType: 'text/plain', body: 'back at the application' }),
    );
    await page.goto(`${server.url}/authorize?${authorizationQuery('app', pkce().challenge)}`);
    const focusRing = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        const style = getComputedStyle(element);
        return { name: element.getAttribute('name') ?? element.textContent?.trim(), outline: style.outlineStyle };
      });
    // The username field has the focus when the page opens.
    assert.equal((await focusRing()).name, 'username');
    await page.keyboard.type('alice');
    await page.keyboard.press('Tab');
    assert.equal((await focusRing()).name, 'password');
    await page.keyboard.type(PASSWORD);
    await Promise.all([page.waitForSelector('button[value="allow"]'), page.keyboard.press('Enter')]);
    // On the consent page, Tab to Allow: every control on the way shows its focus ring.
    for (let tab = 0; tab < 30; tab += 1) {
      await page.keyboard.press('Tab');
      const focused = await focusRing();
      assert.notEqual(focused.outline, 'none', `${focused.name} shows its focus`);
      if (
        focused.name === 'decision' &&
        (await page.evaluate(() => (document.activeElement as HTMLButtonElement).value)) === 'allow'
      )
        break;
    }
    const [back] = await Promise.all([
      page.waitForRequest((request) => request.url().startsWith(CALLBACK)),
      page.keyboard.press('Space'),
    ]);
    assert.match(back.url(), /[?&]code=/);
    await context.close();
  });
});
