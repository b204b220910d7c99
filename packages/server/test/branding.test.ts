/**
 * The operator's brand (docs/operating.md, "Branding"): BRAND_NAME, BRAND_LOGO_URL, BRAND_FAVICON_URL,
 * BRAND_PRIMARY_COLOR, BRAND_BACKGROUND_COLOR (and their _DARK variants) and BRAND_CSS_FILE, on every
 * page under the strict CSP, with the colours held to WCAG 2.2 AA contrast (SC 1.4.3, 4.5:1) at start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  AA_TEXT_CONTRAST,
  brandPalette,
  brandSettingsFromEnv,
  contrastPairs,
  contrastRatio,
  hexOf,
  pairRatio,
  parseHexColor,
  type Rgb,
} from '../src/branding/index.js';
import { PAGE_COLORS } from '../src/html/styles.js';
import { configFromEnv } from '../src/config.js';
import { testMessage } from '../src/mail/index.js';
import { startServer } from '../src/server.js';
import { runCliCaptured } from './_cli.js';
import { solidPng } from './_images.js';
import { startTestServer, type TestServer } from './_server.js';

const channel = fc.integer({ min: 0, max: 255 });
const anyColor = fc.record({ r: channel, g: channel, b: channel });
const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };

describe('the contrast rule (WCAG 2.2, contrast ratio and relative luminance)', () => {
  test('black on white is 21:1, a colour on itself 1:1, #767676 on white just passes 4.5:1', () => {
    assert.equal(contrastRatio(BLACK, WHITE), 21);
    assert.equal(contrastRatio(WHITE, WHITE), 1);
    const grey = parseHexColor('#767676')!;
    assert.ok(contrastRatio(grey, WHITE) >= 4.5 && contrastRatio(grey, WHITE) < 4.6);
    assert.ok(contrastRatio(parseHexColor('#777')!, WHITE) < 4.5);
  });

  test('a ratio is symmetric, from 1 to 21, and #rgb reads as #rrggbb', () => {
    fc.assert(
      fc.property(anyColor, anyColor, (a, b) => {
        const ratio = contrastRatio(a, b);
        assert.equal(ratio, contrastRatio(b, a));
        assert.ok(ratio >= 1 && ratio <= 21 + 1e-9);
        assert.equal(hexOf(parseHexColor(hexOf(a))!), hexOf(a));
      }),
    );
  });

  test('a primary colour is refused exactly when links in it on the white card fall under 4.5:1, naming the setting and the ratio', () => {
    fc.assert(
      fc.property(anyColor, (color) => {
        const primary = hexOf(color);
        const passes = contrastRatio(color, parseHexColor(PAGE_COLORS.light.card)!) >= AA_TEXT_CONTRAST;
        if (passes) assert.doesNotThrow(() => brandPalette({ primary }));
        else
          assert.throws(
            () => brandPalette({ primary }),
            /^Error: BRAND_PRIMARY_COLOR=#[0-9a-f]{6}: .* \d+\.\d\d:1, under the 4\.5:1/,
          );
      }),
    );
  });

  test('every palette accepted draws all its text at 4.5:1 or more, in the light and the dark scheme', () => {
    const maybe = fc.option(anyColor.map(hexOf), { nil: undefined });
    fc.assert(
      fc.property(maybe, maybe, maybe, maybe, (primary, primaryDark, background, backgroundDark) => {
        let palette;
        try {
          palette = brandPalette({ primary, primaryDark, background, backgroundDark });
        } catch (error) {
          assert.match(String(error), /^Error: BRAND_(PRIMARY|BACKGROUND)_COLOR(_DARK)?=#[0-9a-f]{6}: .*\d:1/);
          return;
        }
        for (const pair of contrastPairs(palette))
          assert.ok(pairRatio(pair) >= AA_TEXT_CONTRAST, `${pair.what}: ${pair.foreground} on ${pair.background}`);
        // A primary colour set for the light scheme gives the dark one an accent too.
        if (primary !== undefined) assert.ok(palette.dark.accent !== undefined);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the brand settings', () => {
  test('a colour that is no colour is refused, naming the setting', () => {
    assert.throws(
      () => brandSettingsFromEnv({ BRAND_PRIMARY_COLOR: 'blue' }),
      /BRAND_PRIMARY_COLOR must be a colour as #rgb or #rrggbb, got "blue"/,
    );
    assert.throws(() => brandSettingsFromEnv({ BRAND_BACKGROUND_COLOR_DARK: '#12345' }), /BRAND_BACKGROUND_COLOR_DARK/);
  });

  test('a light primary colour is refused with its ratio; a dark background with the footer’s', () => {
    assert.throws(
      () => brandSettingsFromEnv({ BRAND_PRIMARY_COLOR: '#8ab4f8' }),
      /^Error: BRAND_PRIMARY_COLOR=#8ab4f8: links in this colour on the page's card \(#ffffff\) have a contrast of 2\.\d\d:1, under the 4\.5:1 that WCAG 2\.2 AA asks of text/,
    );
    assert.throws(
      () => brandSettingsFromEnv({ BRAND_BACKGROUND_COLOR: '#333333' }),
      /^Error: BRAND_BACKGROUND_COLOR=#333333: the text of the footer \(#5d6677\) on this background has a contrast of 2\.18:1/,
    );
    assert.throws(
      () => brandSettingsFromEnv({ BRAND_PRIMARY_COLOR_DARK: '#1b3a8c' }),
      /BRAND_PRIMARY_COLOR_DARK=#1b3a8c/,
    );
  });

  test('a logo URL that cannot be an image URL, and a name over one line, are refused', () => {
    assert.throws(() => brandSettingsFromEnv({ BRAND_LOGO_URL: 'logo.png' }), /BRAND_LOGO_URL must be an https URL/);
    assert.throws(() => brandSettingsFromEnv({ BRAND_FAVICON_URL: 'javascript:alert(1)' }), /BRAND_FAVICON_URL/);
    assert.throws(() => brandSettingsFromEnv({ BRAND_NAME: 'Acme\nEvil' }), /BRAND_NAME must be one line/);
  });

  test('`serve` refuses to start with a colour under the rule, the setting and the ratio on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-brand-'));
    try {
      const run = await runCliCaptured(['serve'], {
        DATABASE_URL: `sqlite:${join(dir, 'g.db')}`,
        PORT: '0',
        BRAND_PRIMARY_COLOR: '#ffcc00',
      });
      assert.notEqual(run.code, 0);
      assert.match(run.err, /BRAND_PRIMARY_COLOR=#ffcc00: links in this colour .* 1\.\d\d:1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the brand in mails', () => {
  test('the default sender is the product, quoted where RFC 5322 §3.2.3 asks; the test message names it', () => {
    assert.equal(configFromEnv({ BRAND_NAME: 'Acme' }).mail.from, 'Acme <no-reply@localhost>');
    assert.equal(configFromEnv({ BRAND_NAME: 'Acme, "Inc."' }).mail.from, '"Acme, \\"Inc.\\"" <no-reply@localhost>');
    assert.equal(configFromEnv({}).mail.from, 'Gatehouse <no-reply@localhost>');
    const message = testMessage('ops@example.com', 'https://id.example', 'Acme & Co');
    assert.equal(message.subject, 'Acme & Co test message');
    assert.match(message.html, /from the Acme &#38; Co server/);
  });
});

describe('a brand that cannot be loaded stops the start', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-brand-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const start = (env: NodeJS.ProcessEnv) =>
    startServer({
      databaseUrl: `sqlite:${join(dir, `${Math.random()}.db`)}`,
      issuer: 'http://gatehouse.test',
      port: 0,
      host: '127.0.0.1',
      idleConnectionGraceMs: 0,
      branding: brandSettingsFromEnv(env),
    });

  test('a logo file that does not exist', async () => {
    await assert.rejects(
      start({ BRAND_LOGO_URL: join(dir, 'missing.png') }),
      /^Error: BRAND_LOGO_URL: .*missing\.png cannot be read \(ENOENT\)/,
    );
  });

  test('a logo file that is not an image, an SVG, or too large', async () => {
    writeFileSync(join(dir, 'logo.txt'), 'not an image');
    await assert.rejects(
      start({ BRAND_LOGO_URL: `file://${join(dir, 'logo.txt')}` }),
      /^Error: BRAND_LOGO_URL: not an image/,
    );
    writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await assert.rejects(
      start({ BRAND_LOGO_URL: join(dir, 'logo.svg') }),
      /^Error: BRAND_LOGO_URL: a svg image: .*no SVG/,
    );
    await assert.rejects(
      start({ BRAND_FAVICON_URL: `data:image/png;base64,${solidPng(1100).toString('base64')}` }),
      /^Error: BRAND_FAVICON_URL: 1100×1100 px: at most 1024 px a side/,
    );
  });

  test('a logo URL that answers no image', async () => {
    const http = createServer((_request, response) => response.writeHead(404).end('gone'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as { port: number };
    try {
      await assert.rejects(
        start({ BRAND_LOGO_URL: `http://127.0.0.1:${port}/logo.png` }),
        /^Error: BRAND_LOGO_URL: http:\/\/127\.0\.0\.1:\d+\/logo\.png answered HTTP 404, not the image/,
      );
    } finally {
      http.close();
    }
  });

  test('a stylesheet file that cannot be read', async () => {
    await assert.rejects(
      start({ BRAND_CSS_FILE: join(dir, 'none.css') }),
      /^Error: BRAND_CSS_FILE: .*none\.css cannot be read/,
    );
  });
});

describe('the brand on the pages', () => {
  let server: TestServer;
  let dir: string;
  const logo = solidPng(40, [11, 110, 79]);
  const icon = solidPng(32, [200, 30, 30]);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-brand-'));
    writeFileSync(join(dir, 'logo.png'), logo);
    writeFileSync(join(dir, 'extra.css'), '.card { border-width: 2px; }\n');
    const http = createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(icon),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as { port: number };
    try {
      server = await startTestServer({
        branding: brandSettingsFromEnv({
          BRAND_NAME: 'Acme & Co',
          BRAND_LOGO_URL: join(dir, 'logo.png'),
          BRAND_FAVICON_URL: `http://127.0.0.1:${port}/icon.png`,
          BRAND_PRIMARY_COLOR: '#0b6e4f',
          BRAND_BACKGROUND_COLOR: '#f4f1ea',
          BRAND_CSS_FILE: join(dir, 'extra.css'),
        }),
      });
    } finally {
      http.close();
    }
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { response, html: await response.text() };
  };

  test('the product name is in the title, the header and the footer; the logo and favicon come from this origin', async () => {
    for (const path of ['/', '/account', '/problems/invalid-request']) {
      const { response, html } = await page(path);
      assert.match(html, /<title>[^<]*Acme &#38; Co<\/title>/, path);
      assert.match(
        html,
        /<header class="brand"><img class="brand-logo" src="\/assets\/brand-logo\?v=[\w-]{16}" alt="" height="28"><span translate="no">Acme &#38; Co<\/span><\/header>/,
        path,
      );
      assert.match(html, /<link rel="icon" href="\/assets\/brand-icon\?v=[\w-]{16}" type="image\/png">/, path);
      assert.match(
        html,
        /<link rel="stylesheet" href="\/assets\/gatehouse.css">\n<link rel="stylesheet" href="\/assets\/brand.css\?v=[\w-]{16}">/,
        path,
      );
      assert.doesNotMatch(html, /Gatehouse/, path);
      // The strict CSP stays: images and styles from this origin only, no inline style or script.
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /style-src 'self'; img-src 'self';/, path);
      assert.doesNotMatch(csp, /unsafe-inline/, path);
      assert.doesNotMatch(html, /style=/, path);
    }
  });

  test('the brand stylesheet holds the colours of both schemes, then BRAND_CSS_FILE; cached for a year under its digest', async () => {
    const { html } = await page('/');
    const href = /href="(\/assets\/brand\.css\?v=[\w-]+)"/.exec(html)![1]!;
    const response = await fetch(`${server.url}${href}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/css; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const css = await response.text();
    assert.match(
      css,
      /^:root \{ --accent: #0b6e4f; --accent-hover: #[0-9a-f]{6}; --accent-text: #ffffff; --accent-soft: #[0-9a-f]{6}; --bg: #f4f1ea; \}/,
    );
    assert.match(
      css,
      /@media \(prefers-color-scheme: dark\) \{\n {2}:root \{ --accent: #[0-9a-f]{6};.* --bg: #10141c; \}\n\}/,
    );
    assert.match(css, /\/\* BRAND_CSS_FILE \*\/\n\.card \{ border-width: 2px; \}/);
    const stale = await fetch(`${server.url}/assets/brand.css?v=old`);
    assert.equal(stale.headers.get('cache-control'), 'no-cache');
  });

  test('the logo and the favicon are served as fetched, and /favicon.ico is the brand’s', async () => {
    const { html } = await page('/');
    const logoHref = /src="(\/assets\/brand-logo\?v=[\w-]+)"/.exec(html)![1]!;
    const served = await fetch(`${server.url}${logoHref}`);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), logo);
    for (const path of ['/favicon.ico', /href="(\/assets\/brand-icon\?v=[\w-]+)"/.exec(html)![1]!]) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.headers.get('content-type'), 'image/png', path);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), icon, path);
    }
  });
});

describe('without a brand', () => {
  test('the pages are Gatehouse’s, with no brand stylesheet and no brand files served', async () => {
    const server = await startTestServer();
    try {
      const html = await (await fetch(`${server.url}/`)).text();
      assert.match(html, /<header class="brand"><svg class="logo"/);
      assert.doesNotMatch(html, /brand\.css|brand-logo|brand-icon/);
      assert.equal((await fetch(`${server.url}/assets/brand.css`)).status, 404);
    } finally {
      await server.close();
    }
  });
});
