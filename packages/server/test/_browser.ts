import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's chromium, installed by .ci/run through apt; never a browser download. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Where the test run saves its screenshots (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));

/**
 * Where a test writes the screenshots that docs/ shows (committed in docs/screenshots/):
 * `UPDATE_SCREENSHOTS=1` writes them there; otherwise (their codes, times and ports differ on every
 * run) with the other test artifacts, so a test run leaves the checkout as it found it.
 */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
    : ARTIFACTS;

/**
 * Whether the browser suite runs. Without chromium it fails, in CI always; a developer without it
 * may set GATEHOUSE_SKIP_BROWSER_TESTS=1 to have the suite reported as skipped (never silently),
 * which CI ignores.
 */
export function browserSuiteSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `chromium is not installed at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI !== 'true' && process.env.GATEHOUSE_SKIP_BROWSER_TESTS === '1')
    return `${reason}; skipped because GATEHOUSE_SKIP_BROWSER_TESTS=1`;
  throw new Error(
    `${reason}. The browser tests need it; a developer may set GATEHOUSE_SKIP_BROWSER_TESTS=1 to skip them visibly.`,
  );
}

/**
 * Whether a browser suite runs (`browserSuiteSkip`): `skip` for the suite's options, or the error
 * of a missing chromium, which the suite's first test throws ("chromium is installed").
 */
export function browserAvailability(): { readonly skip: string | false; readonly unavailable: Error | undefined } {
  try {
    return { skip: browserSuiteSkip(), unavailable: undefined };
  } catch (error) {
    return { skip: false, unavailable: error as Error };
  }
}

/** Headless chromium; Playwright gives each launch a fresh temporary user data dir. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The page sizes the suites screenshot at: a laptop, and a phone (a page must not scroll sideways on it). */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * A fresh context (no cookies) and its page, at the desktop size; every console message about a
 * Content-Security-Policy violation on it is pushed to `violations`, which a suite asserts empty.
 */
export async function watchedPage(
  browser: Browser,
  violations: string[],
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return { context, page };
}

/**
 * `page` saved as `<name>-1280.png` and `<name>-<phone width>.png` in `dir` (full pages), asserting
 * that on the phone nothing is wider than the screen; the page is left at the desktop size.
 */
export async function screenshotsAt(
  page: Page,
  dir: string,
  name: string,
  phone: { width: number; height: number } = PHONE,
): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(dir, `${name}-${DESKTOP.width}.png`), fullPage: true });
  await page.setViewportSize(phone);
  await page.screenshot({ path: join(dir, `${name}-${phone.width}.png`), fullPage: true });
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    `${name} fits ${phone.width} px`,
  );
  await page.setViewportSize(DESKTOP);
}

export interface CallbackServer {
  /** The redirect URI to register: http://127.0.0.1:{port}/callback */
  readonly uri: string;
  /** The query of every request it received, in order. */
  readonly received: URLSearchParams[];
  /** The form body of every POST it received, in order (response_mode=form_post). */
  readonly posted: URLSearchParams[];
  close(): Promise<void>;
}

/** The client's side of the redirect: a loopback listener (RFC 8252 §7.3) that records the query. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const posted: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (url.pathname === '/callback') received.push(url.searchParams);
      if (url.pathname === '/callback' && request.method === 'POST')
        posted.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Signed in</title><p>You can close this tab.</p>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    received,
    posted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
