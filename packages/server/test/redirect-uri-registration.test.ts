import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { api, assertProblem, type Api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { assertOAuthError, ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestServer } from './_server.js';

/**
 * Every registration path refuses a redirect URI the authorization endpoint could never match
 * (oauth/clients/redirect-uris.ts: URI characters only, RFC 3986 §2; no fragment, RFC 6749 §3.1.2), each
 * with its own catalog error: `gatehouse clients add`, the admin API's create and replace, and
 * dynamic registration's POST and PUT (RFC 7591 §3.2.2, RFC 7592 §2.2).
 */

const ADMIN = '/admin/v1';
const GOOD = 'http://127.0.0.1:3299/cb';
/** [URI, what is wrong with it]: each one a URL parser accepts, by dropping or encoding a character. */
const NOT_URI_CHARACTERS: readonly (readonly [string, string])[] = [
  ['http://127.0.0.1:3299/nul\u0000', 'a trailing NUL'],
  ['http://127.0.0.1:3299/c\tb', 'a tab inside the path'],
  ['http://127.0.0.1:3299/cb\n', 'a trailing newline'],
  [' https://app.example/cb', 'a leading space'],
  ['https://app.example/c b', 'a space inside the path'],
  ['https://app.example/é', 'a non-ASCII character'],
  ['https://app.example/cb\u007f', 'DEL'],
];
const CHARACTER_RULE = /must hold printable ASCII only \(RFC 3986 §2\): no control, space or non-ASCII character$/;
const CHARACTERS_DESCRIPTION =
  'a redirect URI must hold printable ASCII only: no control, space or non-ASCII character';
const PUBLIC_AGENT = {
  client_name: 'Agent',
  redirect_uris: [GOOD],
  token_endpoint_auth_method: 'none',
  scope: 'contacts:read',
};

for (const dialect of DIALECTS)
  describe(`registration refuses redirect URIs that could never match (RFC 3986 §2, RFC 6749 §3.1.2) [${dialect}]`, () => {
    let server: TestServer;
    let admin: Api;

    async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
      const out: string[] = [];
      const err: string[] = [];
      const env = { DATABASE_URL: server.databaseUrl, ISSUER };
      const code = await runCli(argv, env, { out: (t) => out.push(t), err: (t) => err.push(t) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    function register(body: unknown, method = 'POST', path = '/register', token?: string): Promise<Response> {
      return fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    }

    before(async () => {
      server = await startTestServer({ dialect, clientRegistration: 'open' });
      const ops = await cli('clients', 'add', '--id', 'ops', '--name', 'ops', '--admin');
      assert.equal(ops.code, 0, ops.err);
      const secret = (JSON.parse(ops.out) as { client_secret: string }).client_secret;
      const token = await server.post('/token', { grant_type: 'client_credentials' }, { as: { id: 'ops', secret } });
      admin = api(server, ((await token.json()) as { access_token: string }).access_token);
    });
    after(() => server.close());

    it('RFC 3986 §2: gatehouse clients add refuses a redirect or post-logout URI of other characters, registers nothing', async () => {
      for (const [uri, what] of NOT_URI_CHARACTERS) {
        for (const [flag, name] of [
          ['--redirect-uri', 'redirect URI'],
          ['--post-logout-redirect-uri', 'post-logout redirect URI'],
        ] as const) {
          const run = await cli('clients', 'add', '--id', 'bad', '--name', 'Bad', flag, uri);
          assert.equal(run.code, 1, `${what}: ${run.out}`);
          const error = JSON.parse(run.err) as { error: string; message: string };
          assert.equal(error.error, 'refused');
          assert.ok(error.message.startsWith(`${name} ${JSON.stringify(uri)} `), `${what}: ${error.message}`);
          assert.match(error.message, CHARACTER_RULE);
        }
      }
      assert.equal(await server.context.store.findClient('bad'), undefined);
    });

    it('RFC 3986 §2: the admin API refuses such a URI on create and replace with invalid-operator-input, and writes nothing', async () => {
      assert.equal(
        (await admin.post(`${ADMIN}/clients`, { client_id: 'kept', name: 'Kept', redirect_uris: [GOOD] })).status,
        201,
      );
      const before = await server.context.store.findClient('kept');
      for (const [uri, what] of NOT_URI_CHARACTERS)
        for (const field of ['redirect_uris', 'post_logout_redirect_uris']) {
          for (const response of [
            await admin.post(`${ADMIN}/clients`, { client_id: 'bad', name: 'Bad', [field]: [uri] }),
            await admin.put(`${ADMIN}/clients/kept`, { name: 'Kept', [field]: [GOOD, uri] }),
          ]) {
            assertProblem(response, 422, 'invalid-operator-input');
            assert.match(response.body.detail as string, CHARACTER_RULE, `${what} in ${field}`);
          }
        }
      assert.equal(await server.context.store.findClient('bad'), undefined);
      assert.deepEqual(await server.context.store.findClient('kept'), before);
    });

    it('RFC 7591 §2, §3.2.2: dynamic registration refuses such a URI with invalid_redirect_uri, on POST and on PUT', async () => {
      const info = (await (await register(PUBLIC_AGENT)).json()) as Record<string, string>;
      const clientId = info.client_id as string;
      const path = `/register/${encodeURIComponent(clientId)}`;
      const token = info.registration_access_token;
      const clients = (await server.context.store.listClients()).length;
      for (const [uri, what] of NOT_URI_CHARACTERS) {
        for (const response of [
          await register({ ...PUBLIC_AGENT, redirect_uris: [uri] }),
          await register({ ...PUBLIC_AGENT, client_id: clientId, redirect_uris: [GOOD, uri] }, 'PUT', path, token),
        ])
          await assertOAuthError(response, {
            error: 'invalid_redirect_uri',
            description: CHARACTERS_DESCRIPTION,
          }).catch((e: Error) => {
            throw new Error(`${what}: ${e.message}`);
          });
      }
      assert.equal((await server.context.store.listClients()).length, clients);
      assert.deepEqual((await server.context.store.findClient(clientId))?.redirectUris, [GOOD]);
    });

    it('RFC 6749 §3.1.2: a fragment is refused on every path; http://localhost only by dynamic registration (RFC 8252 §8.3)', async () => {
      const fragment = 'https://app.example/cb#x';
      const localhost = 'http://localhost:3299/cb';
      const run = await cli('clients', 'add', '--id', 'frag', '--name', 'Frag', '--redirect-uri', fragment);
      assert.equal(run.code, 1);
      assert.match((JSON.parse(run.err) as { message: string }).message, /must not have a fragment/);
      assertProblem(
        await admin.post(`${ADMIN}/clients`, { client_id: 'frag', name: 'Frag', redirect_uris: [fragment] }),
        422,
        'invalid-operator-input',
      );
      await assertOAuthError(await register({ ...PUBLIC_AGENT, redirect_uris: [fragment] }), {
        error: 'invalid_redirect_uri',
        description: 'each redirect URI must be an absolute URI without a fragment or credentials',
      });
      // As before: the operator's paths take plain http on localhost, dynamic registration only IP literals.
      assert.equal((await cli('clients', 'add', '--id', 'lh', '--name', 'Lh', '--redirect-uri', localhost)).code, 0);
      const viaApi = { client_id: 'lh2', name: 'Lh2', redirect_uris: [localhost] };
      assert.equal((await admin.post(`${ADMIN}/clients`, viaApi)).status, 201);
      await assertOAuthError(await register({ ...PUBLIC_AGENT, redirect_uris: [localhost] }), {
        error: 'invalid_redirect_uri',
        description: 'a redirect URI must use https, or http on the loopback address 127.0.0.1 or [::1]',
      });
    });
  });
