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
import { decodeJwt } from 'jose';
import { assignRole } from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { createAuthorizationCode } from '../src/oauth/tokens/authorization-codes.js';
import { pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { dpopKey, type DpopKey } from './_dpop.js';
import { ISSUER } from './_oauth-assertions.js';
import { ensureTestUser, startTestServer, type TestServer } from './_server.js';

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
      scope: 'openid profile gatehouse:admin',
      resource: 'http://gatehouse.test/admin/v1',
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
      assert.equal(client.admin, true, 'an admin client of the sign-in kind');
      assert.deepEqual(client.grantTypes, ['authorization_code', 'refresh_token'], 'never client_credentials');
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

/**
 * The console's own token is one the admin API takes: asked for the admin API (RFC 8707 §2.2), bound
 * to the console's DPoP key (RFC 9449), carrying the sign-in's class (`acr`, RFC 9068 §2.2.1); the
 * admin API then acts with the operator's admin roles, and only when the sign-in had two factors.
 */
for (const dialect of DIALECTS)
  describe(`the console's token at the admin API (${dialect})`, () => {
    let server: TestServer;
    const ADMIN = `${ISSUER}/admin/v1`;
    // As a sign-in records a password and a code (authorize/sign-in/state.ts: RFC 8176 §2 `mfa` added).
    const TWO_FACTORS = ['pwd', 'otp', 'mfa'];

    before(async () => {
      server = await startTestServer({ dialect, console: false });
      for (const name of ['olga', 'nina', 'zoe']) await ensureTestUser(server.context.store, name, server.clock.now());
      const grant = (role: string, user: string) =>
        assignRole(server.context.audit, { name: role }, { user }, server.clock.now(), CLI_ACTOR);
      await grant('admin', 'olga');
      await grant('auditor', 'nina');
    });
    after(() => server.close());

    /** The console's sign-in as the browser makes it: a code of `amr`, exchanged with a DPoP proof for `resource` (null: none). */
    async function consoleToken(username: string, amr: readonly string[], resource: string | null = ADMIN) {
      const { verifier, challenge } = pkce();
      const client = await server.context.store.findClient(CONSOLE_CLIENT_ID);
      assert.ok(client);
      const subject = (await server.context.store.findUser(username))?.subject ?? assert.fail(username);
      const code = await createAuthorizationCode(server.context.store, {
        client,
        subject,
        scope: ['openid', 'profile', 'gatehouse:admin'],
        redirectUri: consoleRedirectUri(ISSUER),
        codeChallenge: challenge,
        now: server.clock.now(),
        authTime: server.clock.now(),
        amr,
      });
      const key = await dpopKey();
      const form: Record<string, string> = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: consoleRedirectUri(ISSUER),
        client_id: CONSOLE_CLIENT_ID,
        ...(resource === null ? {} : { resource }),
      };
      const proof = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now() });
      const response = await server.post('/token', form, { headers: { dpop: proof } });
      const body = (await response.json()) as { access_token: string; refresh_token: string; token_type: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.token_type, 'DPoP');
      return { key, accessToken: body.access_token, refreshToken: body.refresh_token };
    }

    async function call(key: DpopKey, accessToken: string, method: string, path: string, body?: unknown) {
      const proof = await key.proof({ htm: method, htu: `${ADMIN}${path}`, iat: server.clock.now(), accessToken });
      return fetch(`${server.url}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `DPoP ${accessToken}`,
          dpop: proof,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    }

    it("an operator signed in with two factors and holding admin calls the admin API with the console's DPoP-bound token, audited as the operator with the console", async () => {
      const { key, accessToken } = await consoleToken('olga', TWO_FACTORS);
      const claims = decodeJwt(accessToken);
      assert.equal(claims.aud, ADMIN);
      assert.equal(claims['acr'], 'mfa', 'RFC 9068 §2.2.1: the class of the sign-in');
      assert.equal(typeof claims['auth_time'], 'number');
      assert.ok((claims['cnf'] as { jkt?: string } | undefined)?.jkt, 'DPoP-bound (RFC 9449 §6.1)');
      assert.equal((await call(key, accessToken, 'GET', '/users')).status, 200);
      const made = await call(key, accessToken, 'POST', '/users', { username: `made-by-olga-${dialect}` });
      assert.equal(made.status, 201, await made.text());
      const [event] = await server.context.store.listAuditEvents({ event: 'user_created', limit: 1 });
      const olga = await server.context.store.findUser('olga');
      assert.equal(event?.actor, `user:${olga?.subject} client:${CONSOLE_CLIENT_ID}`);
    });

    it('an auditor reads through the console but changes nothing (403 insufficient-role)', async () => {
      const { key, accessToken } = await consoleToken('nina', TWO_FACTORS);
      assert.equal((await call(key, accessToken, 'GET', '/clients')).status, 200);
      const refused = await call(key, accessToken, 'POST', '/users', { username: 'nope' });
      assert.equal(refused.status, 403);
      assert.equal(((await refused.json()) as { type: string }).type, '/problems/insufficient-role');
    });

    it('an operator without an admin role is refused (403 insufficient_scope)', async () => {
      const { key, accessToken } = await consoleToken('zoe', TWO_FACTORS);
      const refused = await call(key, accessToken, 'GET', '/users');
      assert.equal(refused.status, 403);
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
    });

    it("a console token of a one-factor sign-in (acr sfa) is refused, admin or not: the console's registration requires two", async () => {
      const { key, accessToken } = await consoleToken('olga', ['pwd']);
      assert.equal(decodeJwt(accessToken)['acr'], 'sfa');
      assert.equal((await call(key, accessToken, 'GET', '/users')).status, 403);
    });

    it('a console token for another audience, or presented without its DPoP proof, is refused', async () => {
      const elsewhere = await consoleToken('olga', TWO_FACTORS, null);
      assert.equal((await call(elsewhere.key, elsewhere.accessToken, 'GET', '/users')).status, 403);
      const { accessToken } = await consoleToken('olga', TWO_FACTORS);
      const asBearer = await fetch(`${server.url}/admin/v1/users`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      assert.equal(asBearer.status, 401, 'RFC 9449 §7.2: a bound token is no bearer token');
      const other = await dpopKey();
      assert.equal((await call(other, accessToken, 'GET', '/users')).status, 401, 'another key');
    });

    it('a refreshed console token keeps the admin API, the sign-in class and the key (RFC 8707 §2.2, RFC 9068 §2.2.1)', async () => {
      const { key, refreshToken } = await consoleToken('olga', TWO_FACTORS);
      const proof = await key.proof({ htm: 'POST', htu: `${ISSUER}/token`, iat: server.clock.now() });
      const response = await server.post(
        '/token',
        { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CONSOLE_CLIENT_ID, resource: ADMIN },
        { headers: { dpop: proof } },
      );
      const body = (await response.json()) as { access_token: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(decodeJwt(body.access_token)['acr'], 'mfa');
      assert.equal((await call(key, body.access_token, 'GET', '/users')).status, 200);
    });
  });
