import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { LOG_FORMATS, type LogFormat } from '../src/http/log-format.js';
import { redactUrl } from '../src/http/log-redaction.js';
import { s256 } from '../src/primitives/secrets.js';
import { CALLBACK, callbackParams, hiddenField, PageBrowser } from './_authorize.js';
import { freshDatabase } from './_dialects.js';
import { sendRaw } from './_fuzz.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { basicAuthorization, SHIPPED_OPENAPI, type TestServer } from './_server.js';

/**
 * No secret reaches the logs, at the most verbose level, over a whole story: a client registered
 * with the CLI, a user signing in (once with a wrong password), consent, the code exchange,
 * refreshes, introspection, REST calls, a wrong client secret, clients that put credentials where
 * they do not belong (the query string, a request the parser refuses), and a revocation. Then no
 * credential is in the database files either: only digests (and scrypt hashes) are stored.
 * SQLite: its files can be scanned byte for byte. The story runs twice, once per form of the console
 * log (LOG_FORMAT): JSON lines, and the readable lines made from them.
 */
describe('no token, secret or password in the logs of a full run, in either LOG_FORMAT, nor in the store', () => {
  const ISSUER = 'http://gatehouse.test';
  const PASSWORD = `right-${randomBytes(12).toString('base64url')}`;
  const WRONG_PASSWORD = `wrong-${randomBytes(12).toString('base64url')}`;
  let database: { url: string; drop(): Promise<void> };
  let server: ServerProcess;
  /** Every secret the story handled, by what it is; none may be logged. */
  const secrets: Array<{ what: string; value: string }> = [];
  const secret = (what: string, value: string | null | undefined): string => {
    assert.ok(typeof value === 'string' && value.length >= 8, `${what} is a secret worth scanning for`);
    secrets.push({ what, value });
    return value;
  };
  /** The output of the server, by LOG_FORMAT. */
  const logsOf: Partial<Record<LogFormat, string>> = {};
  let logs = '';

  async function cli(argv: string[], input?: string): Promise<Record<string, string>> {
    let out = '';
    let err = '';
    const env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
    const code = await runCli(argv, env, {
      out: (t) => (out += t),
      err: (t) => (err += t),
      readInput: async () => input ?? '',
    });
    assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
    return JSON.parse(out) as Record<string, string>;
  }

  before(async () => {
    database = await freshDatabase('sqlite');
    await cli(['migrate']);
    const client = await cli([
      'clients',
      'add',
      '--id',
      'story',
      '--name',
      'Story app',
      '--scope',
      'contacts:read contacts:write',
      '--redirect-uri',
      CALLBACK,
    ]);
    const clientSecret = secret('client secret', client.client_secret);
    secret('user password', PASSWORD);
    secret('wrong password', WRONG_PASSWORD);
    await cli(['users', 'add', '--username', 'alice', '--password-stdin'], PASSWORD);
    for (const format of LOG_FORMATS) {
      server = await spawnServer({
        DATABASE_URL: database.url,
        ISSUER,
        OPENAPI_PATH: SHIPPED_OPENAPI,
        LOG_LEVEL: 'trace',
        LOG_FORMAT: format,
      });
      await story(clientSecret);
      await server.stop();
      logsOf[format] = server.output();
    }
    logs = Object.values(logsOf).join('\n');
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  /** Everything a client, a user and a careless client do; every credential is recorded as it appears. */
  async function story(clientSecret: string): Promise<void> {
    const basic = basicAuthorization('story', clientSecret);
    const form = (fields: Record<string, string>, auth = basic) => ({
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const browser = new PageBrowser({ url: server.url } as TestServer);
    const cookies = (): string => secret('session cookie', browser.cookie?.split('=')[1]);

    // The authorization flow, with a wrong password first.
    const verifier = secret('PKCE code_verifier', randomBytes(32).toString('base64url'));
    const state = randomBytes(16).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'story',
      redirect_uri: CALLBACK,
      scope: 'contacts:read contacts:write',
      state,
      code_challenge: s256(verifier),
      code_challenge_method: 'S256',
    }).toString();
    const signIn = await browser.authorize(query);
    secret('CSRF token', hiddenField(signIn.html, 'csrf_token'));
    cookies();
    assert.equal((await browser.login(signIn, 'alice', WRONG_PASSWORD)).status, 401);
    assert.equal((await browser.login(signIn, 'alice', PASSWORD)).status, 303);
    cookies();
    const consent = await browser.authorize(query);
    secret('CSRF token', hiddenField(consent.html, 'csrf_token'));
    const code = secret('authorization code', callbackParams((await browser.consent(consent, 'allow')).location).code);

    const exchanged = (await (
      await fetch(
        `${server.url}/token`,
        form({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }),
      )
    ).json()) as Record<string, string>;
    let refreshToken = secret('refresh token', exchanged.refresh_token);
    let accessToken = secret('access token', exchanged.access_token);
    // The same code again (a replay) and a wrong code_verifier: refused, with the code in the body.
    assert.equal(
      (
        await fetch(
          `${server.url}/token`,
          form({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }),
        )
      ).status,
      400,
    );

    // A second flow, for a grant that stays alive through the rest of the story.
    // The replay revoked the first grant, so consent is asked again.
    let second = await browser.authorize(query);
    if (second.status === 200) second = await browser.consent(second, 'allow');
    const code2 = secret('authorization code', callbackParams(second.location).code);
    const tokens = (await (
      await fetch(
        `${server.url}/token`,
        form({ grant_type: 'authorization_code', code: code2, redirect_uri: CALLBACK, code_verifier: verifier }),
      )
    ).json()) as Record<string, string>;
    refreshToken = secret('refresh token', tokens.refresh_token);
    accessToken = secret('access token', tokens.access_token);

    for (let i = 0; i < 3; i++) {
      const rotated = (await (
        await fetch(`${server.url}/token`, form({ grant_type: 'refresh_token', refresh_token: refreshToken }))
      ).json()) as Record<string, string>;
      refreshToken = secret('refresh token', rotated.refresh_token);
      accessToken = secret('access token', rotated.access_token);
    }
    // Introspection with client_secret_post: the secret in the body.
    const introspected = await fetch(`${server.url}/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshToken, client_id: 'story', client_secret: clientSecret }).toString(),
    });
    assert.equal(((await introspected.json()) as { active: boolean }).active, true);
    assert.equal((await fetch(`${server.url}/introspect`, form({ token: accessToken }))).status, 200);

    // Wrong client secrets, in the header and in the body.
    const wrongSecret = secret('wrong client secret', randomBytes(32).toString('base64url'));
    assert.equal(
      (
        await fetch(
          `${server.url}/token`,
          form({ grant_type: 'refresh_token', refresh_token: refreshToken }, basicAuthorization('story', wrongSecret)),
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await fetch(`${server.url}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: 'story',
            client_secret: wrongSecret,
          }).toString(),
        })
      ).status,
      401,
    );

    // The REST API with the bearer token; and an invalid one.
    const bearer = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v2/contacts`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    assert.equal(created.status, 201);
    const location = created.headers.get('location') as string;
    assert.equal((await fetch(`${server.url}${location}`, { headers: bearer })).status, 200);
    assert.equal(
      (
        await fetch(`${server.url}${location}`, {
          method: 'PATCH',
          headers: { ...bearer, 'content-type': 'application/merge-patch+json' },
          body: '{"name":"Ada"}',
        })
      ).status,
      200,
    );
    assert.equal(
      (await fetch(`${server.url}/v2/contacts`, { method: 'POST', headers: bearer, body: '{}' })).status,
      400,
    );
    const forged = secret('forged access token', `${accessToken.slice(0, -10)}AAAAAAAAAA`);
    assert.equal(
      (await fetch(`${server.url}/v2/contacts`, { headers: { authorization: `Bearer ${forged}` } })).status,
      401,
    );

    // Careless clients: credentials in the query string (RFC 6750 §2.3's access_token, or a form
    // sent as a query), and a request the HTTP parser refuses, carrying the Authorization header.
    await fetch(`${server.url}/v2/contacts?access_token=${accessToken}`);
    await fetch(
      `${server.url}/token?grant_type=refresh_token&refresh_token=${refreshToken}&client_secret=${clientSecret}&code=${code}`,
      { method: 'POST' },
    );
    await fetch(`${server.url}/nowhere?password=${PASSWORD}&code_verifier=${verifier}`);
    await sendRaw(server.url, {
      method: 'FOO',
      target: `/token?refresh_token=${refreshToken}`,
      headers: [
        ['authorization', basic],
        ['cookie', `gatehouse_session=${browser.cookie?.split('=')[1]}`],
      ],
    });
    await sendRaw(server.url, {
      method: 'GET',
      target: `/v2/contacts?access_token=${accessToken}`,
      headers: [
        ['authorization', `Bearer ${accessToken}`],
        ['x-bad', Buffer.from([0x01])],
      ],
    });

    // Revocation, then the revoked token once more.
    assert.equal((await fetch(`${server.url}/revoke`, form({ token: refreshToken }))).status, 200);
    assert.equal(
      (await fetch(`${server.url}/token`, form({ grant_type: 'refresh_token', refresh_token: refreshToken }))).status,
      400,
    );
    assert.equal(
      (
        await fetch(`${server.url}/authorize?${query}`, {
          headers: { cookie: `gatehouse_session=${browser.cookie?.split('=')[1]}` },
          redirect: 'manual',
        })
      ).status,
      200,
    );
  }

  it('the logs are those of the whole story, at the most verbose level, in both forms', () => {
    const readable = (logsOf.pretty ?? '').split('\n').filter((l) => l.includes('request completed'));
    assert.ok(readable.length > 0 && readable.every((l) => !l.startsWith('{')), 'the pretty form is not JSON');
    for (const [format, output] of Object.entries(logsOf))
      for (const line of [
        'incoming request',
        'request completed',
        '/token',
        '/v2/contacts',
        '/authorize',
        '/login',
        '/consent',
        '/introspect',
        '/revoke',
      ])
        assert.ok(output.includes(line), `the ${format} logs show ${line}`);
    assert.ok(secrets.length >= 20, `${secrets.length} secrets to look for`);
  });

  it('no refresh token, access token, code, client secret, password, code_verifier, session cookie or CSRF token is in the logs', () => {
    const leaked = secrets.filter(({ value }) => logs.includes(value) || logs.includes(encodeURIComponent(value)));
    assert.deepEqual(
      leaked.map(({ what }) => what),
      [],
      `leaked: ${leaked.map(({ what, value }) => `${what} ${value}: ${logs.split('\n').find((l) => l.includes(value))}`).join('\n')}`,
    );
  });

  it('none of them is in the store either: the database files hold digests only', () => {
    const folder = dirname(database.url.slice('sqlite:'.length));
    const files = readdirSync(folder).map((name) => readFileSync(join(folder, name)));
    assert.ok(files.length >= 1);
    // The CSRF token is kept as it is (the pages show it); access tokens are never stored at all.
    const leaked = secrets.filter(
      ({ what, value }) => what !== 'CSRF token' && files.some((bytes) => bytes.includes(Buffer.from(value))),
    );
    assert.deepEqual(
      leaked.map(({ what }) => what),
      [],
    );
  });
});

describe('request URLs are logged with their query values hidden, but for harmless parameters', () => {
  it('credentials in a query are logged as [redacted], names and all when the name is not one of ours', () => {
    assert.equal(
      redactUrl('/token?grant_type=refresh_token&refresh_token=abc&client_secret=s3cret&code=xyz'),
      '/token?grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]&code=[redacted]',
    );
    assert.equal(
      redactUrl('/v2/contacts?access_token=eyJ.x.y&limit=10&cursor=MDAx'),
      '/v2/contacts?access_token=[redacted]&limit=10&cursor=MDAx',
    );
    assert.equal(redactUrl('/login?hunter2'), '/login?[redacted]');
    assert.equal(redactUrl('/x?%E0%A4%A=1&&password'), '/x?[redacted]&&password=[redacted]');
  });

  it('an authorization request keeps what tells one request from another, and hides state and the PKCE challenge', () => {
    assert.equal(
      redactUrl(
        '/authorize?response_type=code&client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=contacts%3Aread&state=af0i&code_challenge=E9Me&code_challenge_method=S256',
      ),
      '/authorize?response_type=code&client_id=app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=contacts%3Aread&state=[redacted]&code_challenge=[redacted]&code_challenge_method=S256',
    );
    assert.equal(redactUrl('/v2/contacts'), '/v2/contacts');
    assert.equal(redactUrl('/v2/contacts?'), '/v2/contacts?');
  });
});
