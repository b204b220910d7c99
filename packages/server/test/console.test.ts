import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CONSOLE_CLIENT_ID,
  consoleDistDir,
  consoleRedirectUri,
  ensureConsoleClient,
  readConsoleFiles,
  type ConsoleFiles,
} from '../src/console/index.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

/** A console build as Vite writes it: relative asset URLs, the server's stylesheet as ../assets/. */
function fakeBuild(): { dir: string; files: (issuer: string) => ConsoleFiles } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <link rel="stylesheet" href="../assets/gatehouse.css" />
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-abc.css">
  </head>
  <body><div id="console"></div></body>
</html>`,
  );
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log("console")');
  writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{}');
  return { dir, files: (issuer) => readConsoleFiles(dir, issuer) };
}

describe('the console at /console', () => {
  const build = fakeBuild();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ console: build.files('http://gatehouse.test') });
  });
  after(async () => {
    await server.close();
    rmSync(build.dir, { recursive: true, force: true });
  });

  it('is served under a CSP of its own script and stylesheet, fetches to this server only, no framing (RFC 9700 §4.4.1.9)', async () => {
    const response = await fetch(`${server.url}/console`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.match(csp, /style-src 'self';/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /base-uri 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    // No inline script: only the module script the build made.
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/);
    assert.match(html, /<script type="module" crossorigin src="\/console\/assets\/index-abc\.js">/);
    assert.match(html, /href="\/assets\/gatehouse\.css"/);
    const meta = /<meta name="gatehouse-console" content="([^"]*)"/.exec(html)?.[1];
    assert.ok(meta !== undefined, html);
    const config = JSON.parse(meta.replace(/&#34;/g, '"')) as Record<string, string>;
    assert.deepEqual(config, {
      issuer: 'http://gatehouse.test',
      client_id: CONSOLE_CLIENT_ID,
      scope: 'openid profile',
    });
  });

  it("serves the same page on every console route, the app's own (/console/users/alice)", async () => {
    for (const path of ['/console/', '/console/callback?code=x&state=y', '/console/users/alice']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(await response.text(), /name="gatehouse-console"/, path);
    }
  });

  it('serves the built assets with their types, cached for good (their names carry a hash); nothing else', async () => {
    const script = await fetch(`${server.url}/console/assets/index-abc.js`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(script.headers.get('x-content-type-options'), 'nosniff');
    assert.match(script.headers.get('cache-control') ?? '', /immutable/);
    const style = await fetch(`${server.url}/console/assets/index-abc.css`);
    assert.equal(style.headers.get('content-type'), 'text/css; charset=utf-8');
    for (const path of [
      '/console/assets/index-abc.js.map',
      '/console/assets/missing.js',
      '/console/assets/..%2Findex.html',
    ])
      assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
  });

  it('answers another method with 405 and Allow (RFC 9110 §15.5.6): the console changes nothing itself', async () => {
    for (const path of ['/console', '/console/users']) {
      const response = await fetch(`${server.url}${path}`, { method: 'POST' });
      assert.equal(response.status, 405, path);
      assert.equal(response.headers.get('allow'), 'GET, HEAD');
    }
  });

  it('writes a base path of the issuer into the asset URLs', () => {
    const page = build.files('https://id.example/auth').page;
    assert.match(page, /src="\/auth\/console\/assets\/index-abc\.js"/);
    assert.match(page, /href="\/auth\/assets\/gatehouse\.css"/);
  });
});

describe('a server without a console build', () => {
  it('serves no /console', async () => {
    const server = await startTestServer({ console: false });
    try {
      assert.equal((await fetch(`${server.url}/console`, { headers: { accept: 'application/json' } })).status, 404);
    } finally {
      await server.close();
    }
  });
});

describe('the build npm run build makes', () => {
  it(
    'is found, and has no inline script or style',
    { skip: process.env.CI !== 'true' && consoleDistDir() === undefined },
    () => {
      const dir = consoleDistDir();
      assert.ok(dir !== undefined, 'packages/console/dist is missing: run npm run build');
      const { page, assets } = readConsoleFiles(dir, 'http://gatehouse.test');
      assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/);
      assert.doesNotMatch(page, /<style|style=/);
      assert.ok([...assets.keys()].some((name) => name.endsWith('.js')));
      assert.ok([...assets.keys()].some((name) => name.endsWith('.css')));
    },
  );
});

for (const dialect of DIALECTS)
  describe(`the console's client, registered at start (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ dialect, console: false });
    });
    after(() => server.close());

    it('is public, PKCE and DPoP-bound (RFC 9449 §5.2), a second factor required, its redirect URI under this issuer', async () => {
      const client = await server.context.store.findClient(CONSOLE_CLIENT_ID);
      assert.ok(client);
      assert.equal(client.secretDigest, null);
      assert.deepEqual(client.redirectUris, [consoleRedirectUri('http://gatehouse.test')]);
      assert.deepEqual(client.postLogoutRedirectUris, ['http://gatehouse.test/console']);
      assert.deepEqual(client.grantTypes, ['authorization_code', 'refresh_token']);
      assert.equal(client.dpopBoundAccessTokens, true);
      assert.equal(client.secondFactor, 'required');
      assert.equal(client.admin, false);
      assert.ok(client.policy.refreshTokenTtl <= 15 * 60, 'a short idle lifetime');
    });

    it('is put back as registered at the next start: after an edit, or for another issuer', async () => {
      const { store } = server.context;
      const stored = await store.findClient(CONSOLE_CLIENT_ID);
      assert.ok(stored);
      await store.replaceClient({ ...stored, redirectUris: ['https://evil.example/cb'], dpopBoundAccessTokens: false });
      await ensureConsoleClient(server.context);
      const again = await store.findClient(CONSOLE_CLIENT_ID);
      assert.deepEqual(again?.redirectUris, [consoleRedirectUri('http://gatehouse.test')]);
      assert.equal(again?.dpopBoundAccessTokens, true);
      assert.equal(again?.createdAt, stored.createdAt);
      await ensureConsoleClient({ ...server.context, issuer: 'https://id.example' });
      assert.deepEqual((await store.findClient(CONSOLE_CLIENT_ID))?.redirectUris, [
        'https://id.example/console/callback',
      ]);
      await ensureConsoleClient(server.context);
    });

    it('several processes starting at once leave one client', async () => {
      const { store } = server.context;
      await store.removeClient(CONSOLE_CLIENT_ID);
      await Promise.all([1, 2, 3, 4].map(() => ensureConsoleClient(server.context)));
      assert.deepEqual((await store.findClient(CONSOLE_CLIENT_ID))?.redirectUris, [
        consoleRedirectUri('http://gatehouse.test'),
      ]);
    });
  });
