/**
 * The admin API refuses its dangerous operations (deletions, a new client secret, key rotation and
 * retirement; `x-step-up-max-age` in its document) to a user's token whose sign-in is older than
 * 300 s, or that does not say when its user signed in: 401 step_up_required with the RFC 9470 §3
 * challenge. An admin client's own client_credentials token has no sign-in and is not asked. On
 * both dialects; every answer is checked against the document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assignRole } from '../src/access/index.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { api } from './_api.js';
import { pkce } from './_authorize.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

const CALLBACK = 'http://127.0.0.1:8765/callback';
const ADMIN_AUDIENCE = `${ISSUER}/admin/v1`;
const ADMIN_SCOPES = ['gatehouse:admin', 'gatehouse:admin:read'];

for (const dialect of DIALECTS)
  describe(`admin API step-up [${dialect}]`, () => {
    let server: TestServer;
    let console_: TestClient;

    /** An operator's token for the admin API, from a code whose sign-in was `signedInAgo` seconds ago (none when undefined). */
    async function operatorToken(signedInAgo: number | undefined): Promise<string> {
      const { verifier } = pkce();
      const code = await server.createCode(console_, {
        verifier,
        redirectUri: CALLBACK,
        username: 'olga',
        scope: ['openid', 'gatehouse:admin'],
        ...(signedInAgo === undefined
          ? {}
          : { signIn: { authTime: server.clock.now() - signedInAgo, amr: ['pwd', 'otp'] } }),
      });
      const response = await server.post(
        '/token',
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: CALLBACK,
          client_id: console_.id,
          resource: ADMIN_AUDIENCE,
        },
        { auth: 'none' },
      );
      const body = (await response.json()) as { access_token: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      return body.access_token;
    }

    before(async () => {
      server = await startTestServer({ dialect });
      console_ = await server.addClient({
        id: 'console',
        admin: true,
        public: true,
        redirectUris: [CALLBACK],
        scope: ['openid', ...ADMIN_SCOPES],
      });
      await server.issueGrant(await server.addClient({ id: 'app' }), 'olga');
      await assignRole(server.context.audit, { name: 'admin' }, { user: 'olga' }, server.clock.now(), CLI_ACTOR);
    });
    after(() => server?.close());

    it('the document marks the dangerous operations with x-step-up-max-age 300, and only them', async () => {
      const document = (await (await fetch(`${server.url}/admin/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { operationId?: string; 'x-step-up-max-age'?: number }>>;
      };
      const marked = Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .filter((operation) => operation['x-step-up-max-age'] !== undefined)
        .map((operation) => [operation.operationId, operation['x-step-up-max-age']]);
      assert.deepEqual(
        marked.sort(),
        [
          'deleteClient',
          'deleteGroup',
          'deleteOrganization',
          'deleteRole',
          'deleteUpstream',
          'deleteUser',
          'retireSigningKey',
          'rotateClientSecret',
          'rotateSigningKeys',
        ].map((id) => [id, 300]),
      );
    });

    it('a sign-in older than 300 s is refused with 401 step_up_required and the RFC 9470 challenge; nothing changes', async () => {
      await server.addClient({ id: 'doomed' });
      const stale = api(server, await operatorToken(301));
      assert.equal((await stale.get('/admin/v1/clients/doomed')).status, 200, 'reads need no step-up');
      assert.equal((await stale.post('/admin/v1/users/olga/enable')).status, 200, 'nor do ordinary changes');
      for (const [method, path] of [
        ['DELETE', '/admin/v1/clients/doomed'],
        ['POST', '/admin/v1/clients/doomed/secret'],
        ['POST', '/admin/v1/keys/rotate'],
        ['DELETE', '/admin/v1/users/olga'],
      ] as const) {
        const refused = await stale.request(method, path);
        assert.equal(refused.status, 401, `${method} ${path}`);
        assert.equal(refused.body.type, '/problems/step-up-required');
        assert.match(refused.body.detail, /signed in 301 seconds ago/);
        assert.equal(
          refused.headers.get('www-authenticate'),
          'Bearer realm="gatehouse", error="insufficient_user_authentication", ' +
            'error_description="A sign-in within the last 300 seconds is required", max_age="300"',
        );
      }
      assert.ok(await server.context.store.findClient('doomed'), 'the client is still there');
    });

    it('a token that does not say when its user signed in is refused as well', async () => {
      const unknown = api(server, await operatorToken(undefined));
      const refused = await unknown.delete('/admin/v1/clients/doomed');
      assert.equal(refused.status, 401);
      assert.match(refused.body.detail, /does not say when its user signed in/);
    });

    it('a sign-in of the last 300 s may; an admin client’s own token is not asked', async () => {
      const fresh = api(server, await operatorToken(300));
      assert.equal((await fresh.post('/admin/v1/clients/doomed/secret')).status, 200);
      assert.equal((await fresh.delete('/admin/v1/clients/doomed')).status, 204);
      const automation = await server.addClient({ id: 'automation', admin: true, scope: ADMIN_SCOPES });
      const response = await server.post('/token', { grant_type: 'client_credentials' }, { as: automation });
      const machine = api(server, ((await response.json()) as { access_token: string }).access_token);
      await server.addClient({ id: 'doomed-too' });
      assert.equal((await machine.delete('/admin/v1/clients/doomed-too')).status, 204);
    });
  });
