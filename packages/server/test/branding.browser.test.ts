/**
 * The operator's brand in Chromium (docs/operating.md, "Branding"): the brand stylesheet applies its
 * colours in the light and the dark scheme (prefers-color-scheme), the logo shows, and every kind of
 * page stays free of serious WCAG 2.2 AA violations (axe-core) under the brand's colours.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { brandSettingsFromEnv } from '../src/branding/index.js';
import { violationsOfPages } from './_axe.js';
import { browserSuiteSkip, launchChromium } from './_browser.js';
import { PageBrowser } from './_authorize.js';
import { solidPng } from './_images.js';
import { everyPage, startPagesServer } from './_page-kinds.js';
import type { TestServer } from './_server.js';

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('the brand in Chromium', { skip: browserSuiteSkip() }, () => {
  let server: TestServer;
  let browser: Browser;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-brand-'));
    writeFileSync(join(dir, 'logo.png'), solidPng(48, [11, 110, 79]));
    server = await startPagesServer({
      branding: brandSettingsFromEnv({
        BRAND_NAME: 'Acme Identity',
        BRAND_LOGO_URL: join(dir, 'logo.png'),
        BRAND_PRIMARY_COLOR: '#0b6e4f',
        BRAND_BACKGROUND_COLOR: '#f4f1ea',
        BRAND_BACKGROUND_COLOR_DARK: '#0d1512',
      }),
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`the brand's colours apply in the ${colorScheme} scheme, and the logo loads from this origin`, async () => {
      const context = await browser.newContext({ colorScheme });
      const page = await context.newPage();
      await page.goto(`${server.url}/account`);
      const seen = await page.evaluate(() => {
        const logo = document.querySelector<HTMLImageElement>('header.brand img.brand-logo');
        const button = document.querySelector('.button.primary');
        return {
          background: getComputedStyle(document.body).backgroundColor,
          button: button && getComputedStyle(button).backgroundColor,
          logo: logo ? { complete: logo.complete, width: logo.naturalWidth } : null,
        };
      });
      assert.equal(seen.background, rgb(colorScheme === 'light' ? '#f4f1ea' : '#0d1512'));
      if (colorScheme === 'light') assert.equal(seen.button, rgb('#0b6e4f'));
      else assert.notEqual(seen.button, rgb('#0b6e4f'), 'the dark scheme draws a lighter primary');
      assert.deepEqual(seen.logo, { complete: true, width: 48 });
      await context.close();
    });

  /** Every kind of page as the server shows it, walked once: both schemes check the same pages. */
  let walked: ReturnType<typeof everyPage> | undefined;

  for (const colorScheme of ['light', 'dark'] as const)
    it(`every kind of page under the brand's colours (${colorScheme}) has no serious or critical violation of WCAG 2.2 AA`, async () => {
      const shown = await (walked ??= everyPage({ server, request: {}, browser: () => new PageBrowser(server) }));
      const failures = await violationsOfPages(browser, server.url, shown, { colorScheme });
      assert.deepEqual(failures, []);
    });
});
