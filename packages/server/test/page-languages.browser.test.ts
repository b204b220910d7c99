import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addUser } from '../src/users/users.js';
import { authorizationQuery, PASSWORD, pkce } from './_authorize.js';
import {
  browserSuiteSkip,
  type CallbackServer,
  launchChromium,
  PHONE,
  SCREENSHOTS,
  startCallbackServer,
} from './_browser.js';
import { startTestServer, type TestServer } from './_server.js';

/** The languages shown: the source, a long-worded one, one without spaces, and one right to left. */
const LOCALES = [
  { locale: 'en', user: 'alice', dir: 'ltr' },
  { locale: 'de', user: 'anna', dir: 'ltr' },
  { locale: 'ja', user: 'haruto', dir: 'ltr' },
  { locale: 'ar', user: 'layla', dir: 'rtl' },
] as const;

/** What the English pages say in their headings: a translated page says something else. */
const ENGLISH_HEADINGS: Record<string, string> = {};

describe(
  'the pages in en, de, ja and ar in chromium: sign-in, consent, account, an error page',
  {
    skip: browserSuiteSkip(),
    timeout: 240_000,
  },
  () => {
    let server: TestServer;
    let browser: Browser;
    let callback: CallbackServer;
    before(async () => {
      server = await startTestServer({ reachableIssuer: true });
      callback = await startCallbackServer();
      await server.addClient({
        id: 'app',
        name: 'Contacts Sync',
        redirectUris: [callback.uri],
        scope: ['openid', 'profile', 'email', 'contacts:read', 'contacts:write'],
      });
      // RFC 7591 §2.2: the application's name in the page's language, and its links with their host.
      await server.context.store.saveClientPresentation('app', {
        names: { de: 'Kontakte-Abgleich', ja: '連絡先の同期', ar: 'مزامنة جهات الاتصال' },
        clientUri: 'https://contacts.example/',
        policyUri: 'https://contacts.example/privacy',
        tosUri: 'https://contacts.example/terms',
      });
      for (const { user } of LOCALES)
        await addUser(server.context.store, user, PASSWORD, server.clock.now(), { email: `${user}@example.com` });
      mkdirSync(SCREENSHOTS, { recursive: true });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await server?.close();
      await callback?.close();
    });

    /** The page as shown: its language and direction said, nothing wider than a phone, saved as `i18n-<name>-<locale>.png`. */
    async function shown(page: Page, name: string, locale: string, dir: string): Promise<void> {
      assert.equal(await page.getAttribute('html', 'lang'), locale, `${name}: <html lang>`);
      assert.equal(await page.getAttribute('html', 'dir'), dir, `${name}: <html dir>`);
      const heading = (await page.locator('h1').first().innerText()).trim();
      if (locale === 'en') ENGLISH_HEADINGS[name] = heading;
      else assert.notEqual(heading, ENGLISH_HEADINGS[name], `${name} in ${locale}: the heading is translated`);
      await page.setViewportSize(PHONE);
      assert.ok(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${name} in ${locale} fits ${PHONE.width} px`,
      );
      await page.setViewportSize({ width: 760, height: 900 });
      await page.screenshot({ path: join(SCREENSHOTS, `i18n-${name}-${locale}.png`), fullPage: true });
    }

    for (const { locale, user, dir } of LOCALES)
      it(`${locale}: the sign-in, consent, account and error pages speak ${locale}, fit a phone, and are saved`, async () => {
        const context = await browser.newContext({ viewport: { width: 760, height: 900 } });
        await context.addCookies([{ name: 'gatehouse_locale', value: locale, url: server.url }]);
        const page = await context.newPage();
        const query = authorizationQuery('app', pkce().challenge, {
          redirect_uri: callback.uri,
          scope: 'openid profile email contacts:read',
        });
        await page.goto(`${server.url}/authorize?${query}`);
        await shown(page, 'sign-in', locale, dir);
        await page.fill('input[name="username"]', user);
        await page.fill('input[name="password"]', PASSWORD);
        await Promise.all([page.waitForSelector('button[value="allow"]'), page.click('button[type="submit"]')]);
        await shown(page, 'consent', locale, dir);
        await Promise.all([
          page.waitForURL((url) => url.href.startsWith(callback.uri)),
          page.click('button[value="allow"]'),
        ]);
        await page.goto(`${server.url}/account`);
        await shown(page, 'account', locale, dir);
        // The e-mail section: the label of a new address is set apart from the verification's button above it.
        const button = await page.locator('section.email form button').first().boundingBox();
        const label = await page.locator('label[for="new-email"]').boundingBox();
        const gap = (label?.y ?? 0) - ((button?.y ?? 0) + (button?.height ?? 0));
        assert.ok(button && label && gap >= 16, `${locale}: ${gap} px between the button and the new address's label`);
        await page.goto(`${server.url}/authorize?${authorizationQuery('nobody', pkce().challenge)}`);
        await shown(page, 'error', locale, dir);
        await context.close();
      });
  },
);
