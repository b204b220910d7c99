import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, type Dialect } from './_dialects.js';
import { addTestUser, authorizationQuery, CALLBACK, PageBrowser, pkce } from './_authorize.js';
import { startTestServer, type TestServer } from './_server.js';

/**
 * "No input reaches the database that it cannot store": PostgreSQL text cannot hold
 * U+0000, and each of these inputs answered 500 there. Each must get, on every dialect, the catalog
 * answer the same value gets on SQLite: an unknown client is invalid_client, an unknown user a
 * failed sign-in, an unknown record 404; a REST string holding U+0000 is stored and read back as
 * sent (store/postgres/nul-bytes.ts).
 */
const NUL_CLIENT = 'Basic eAA6eQ=='; // client id "x\0", secret "y"
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Summary {
  readonly status: number;
  /** The OAuth error, the problem code, or what the page says. */
  readonly answer: string;
}

/** The answers of each dialect, compared at the end. */
const answers = new Map<Dialect, Map<string, Summary>>();

async function summary(response: Response): Promise<Summary> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    const body = JSON.parse(text) as { error?: string; error_description?: string; type?: string; detail?: string };
    const answer = body.error
      ? `${body.error}: ${body.error_description}`
      : body.type
        ? `${body.type}: ${body.detail}`
        : `created ${response.status}`;
    return { status: response.status, answer };
  }
  const alert = /role="alert"><strong>([^<]*)</.exec(text)?.[1] ?? /<h1>([^<]*)</.exec(text)?.[1] ?? '';
  return { status: response.status, answer: alert };
}

for (const dialect of DIALECTS)
  describe(`a NUL byte in an identifier gets the catalog answer of an unknown one [${dialect}]`, () => {
    let server: TestServer;
    let bearer: Record<string, string>;
    const seen = new Map<string, Summary>();
    answers.set(dialect, seen);

    before(async () => {
      // Failed sign-ins per username: 3 an hour, so that the limit on "alice\0" is reached here.
      server = await startTestServer({
        dialect,
        rateLimits: { login_failure_user: { limit: 3, periodMs: 3_600_000 } },
      });
      const client = await server.addClient({ id: 'app', public: true, redirectUris: [CALLBACK] });
      await addTestUser(server, 'alice');
      const { access_token } = await server.issueGrant(client, 'alice', ['contacts:read', 'contacts:write']);
      bearer = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
    });
    after(() => server.close());

    async function check(name: string, response: Promise<Response>, status: number, answer: RegExp): Promise<void> {
      const got = await summary(await response);
      seen.set(name, got);
      assert.equal(got.status, status, `${name}: ${JSON.stringify(got)}`);
      assert.match(got.answer, answer, name);
    }

    const post = (path: string, body: string, headers: Record<string, string> = {}): Promise<Response> =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { ...FORM, ...headers }, body });

    it('client id "x\\0" in Basic authentication at /token, /introspect and /revoke: 401 invalid_client', async () => {
      const auth = { authorization: NUL_CLIENT };
      await check('token basic', post('/token', 'grant_type=client_credentials', auth), 401, /^invalid_client/);
      await check('introspect basic', post('/introspect', 'token=abc', auth), 401, /^invalid_client/);
      await check('revoke basic', post('/revoke', 'token=abc', auth), 401, /^invalid_client/);
    });

    it('the audit trail records the refused client id: as sent on SQLite, with U+FFFD for U+0000 on PostgreSQL', async () => {
      const events = await server.context.store.listAuditEvents({ event: 'client_authentication_failed', limit: 10 });
      const ids = new Set(events.map((e) => e.clientId));
      assert.deepEqual([...ids], [dialect === 'sqlite' ? 'x\u0000' : 'x\uFFFD']);
    });

    it('client_id=x%00 in a form (public client, client_secret_post): 401 invalid_client', async () => {
      await check(
        'token public form',
        post('/token', 'grant_type=refresh_token&refresh_token=abc&client_id=x%00'),
        401,
        /^invalid_client/,
      );
      await check(
        'token secret form',
        post('/token', 'grant_type=client_credentials&client_id=x%00&client_secret=y'),
        401,
        /^invalid_client/,
      );
      await check('revoke public form', post('/revoke', 'token=abc&client_id=x%00'), 401, /^invalid_client/);
    });

    it('/authorize?client_id=x%00: the error page of an unknown client, no redirect', async () => {
      const query = authorizationQuery('x\u0000', pkce().challenge);
      const response = fetch(`${server.url}/authorize?${query}`, { redirect: 'manual' });
      await check('authorize', response, 400, /./);
    });

    it('username=alice%00 at /login: the answer of an unknown username', async () => {
      const browser = new PageBrowser(server);
      const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
      const answer = await browser.login(page, 'alice\u0000', 'correct horse battery staple');
      seen.set('login', {
        status: answer.status,
        answer: /role="alert"><strong>([^<]*)</.exec(answer.html)?.[1] ?? '',
      });
      assert.equal(answer.status, 401);
      assert.match(answer.html, /Wrong username or password/);
    });

    it('failed sign-ins as alice%00 are counted in one bucket like any username: the limit is reached, 429', async () => {
      const browser = new PageBrowser(server);
      const page = await browser.authorize(authorizationQuery('app', pkce().challenge));
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await browser.login(page, 'alice\u0000', 'wrong')).status);
      seen.set('login limit', { status: statuses.at(-1) ?? 0, answer: statuses.join(',') });
      assert.deepEqual(statuses, [401, 401, 429]);
    });

    it('GET, PUT and DELETE /v2/contacts/x%00: 404 not-found', async () => {
      const url = `${server.url}/v2/contacts/x%00`;
      await check('rest get', fetch(url, { headers: bearer }), 404, /^\/problems\/not-found: /);
      const body = JSON.stringify({ email: 'a@example.com' });
      await check(
        'rest put',
        fetch(url, { method: 'PUT', headers: { ...bearer, 'if-match': '"1"' }, body }),
        404,
        /not-found/,
      );
      await check(
        'rest delete',
        fetch(url, { method: 'DELETE', headers: { authorization: bearer.authorization ?? '', 'if-match': '"1"' } }),
        404,
        /not-found/,
      );
    });

    it('a REST string holding U+0000 is stored and read back exactly as sent', async () => {
      const name = 'a\u0000b\u0001c';
      const created = await fetch(`${server.url}/v2/contacts`, {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify({ email: 'nul@example.com', name }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      await check('rest body', Promise.resolve(created), 201, /^created/);
      const read = await fetch(`${server.url}${created.headers.get('location')}`, { headers: bearer });
      assert.equal(((await read.json()) as { name: string }).name, name);
    });
  });

if (DIALECTS.includes('postgres'))
  describe('a NUL byte: PostgreSQL answers what SQLite answers', () => {
    it('every input above gets the same status and catalog answer on both dialects', () => {
      const sqlite = Object.fromEntries(answers.get('sqlite') ?? []);
      const postgres = Object.fromEntries(answers.get('postgres') ?? []);
      assert.ok(Object.keys(sqlite).length >= 12, 'every input was sent');
      assert.deepEqual(postgres, sqlite);
    });
  });
