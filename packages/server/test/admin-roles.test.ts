/**
 * The admin API decides by roles (admin, user-manager, auditor), as its document declares on each
 * operation (`x-required-roles`), on both dialects: an admin client acts as admin, or with the
 * narrower admin roles assigned to it; a user's token for the admin API (RFC 8707 resource
 * {issuer}/admin/v1) holds its user's admin roles and is audited as the user with the client; a
 * user's token for another audience holds none. Every answer is checked against the document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { addGroupMember, assignRole, createGroup } from '../src/access/index.js';
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
  describe(`admin API roles [${dialect}]`, () => {
    let server: TestServer;
    let console_: TestClient;

    async function clientToken(client: TestClient): Promise<string> {
      const response = await server.post('/token', { grant_type: 'client_credentials' }, { as: client });
      const body = (await response.json()) as { access_token: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      return body.access_token;
    }

    /** An operator signed in through the console (authorization code, PKCE) with a token for `resource`. */
    async function userToken(username: string, resource?: string): Promise<string> {
      const { verifier } = pkce();
      const scope = ['gatehouse:admin'];
      const code = await server.createCode(console_, { verifier, redirectUri: CALLBACK, username, scope });
      const form: Record<string, string> = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: CALLBACK,
        client_id: console_.id,
        ...(resource === undefined ? {} : { resource }),
      };
      const response = await server.post('/token', form, { auth: 'none' });
      const body = (await response.json()) as { access_token: string };
      assert.equal(response.status, 200, JSON.stringify(body));
      return body.access_token;
    }

    const grantRole = (role: string, to: { user: string } | { group: string } | { client: string }) =>
      assignRole(server.context.audit, { name: role }, to, server.clock.now(), CLI_ACTOR);

    before(async () => {
      server = await startTestServer({ dialect });
      console_ = await server.addClient({
        id: 'console',
        admin: true,
        public: true,
        redirectUris: [CALLBACK],
        scope: ADMIN_SCOPES,
      });
      await server.issueGrant(await server.addClient({ id: 'app' }), 'bob');
      await server.issueGrant(await server.addClient({ id: 'app2' }), 'olga');
      await server.issueGrant(await server.addClient({ id: 'app3' }), 'ursula');
      await server.issueGrant(await server.addClient({ id: 'app4' }), 'nina');
      const { audit } = server.context;
      await createGroup(audit, 'operators', undefined, server.clock.now(), CLI_ACTOR);
      await addGroupMember(audit, 'operators', 'olga', server.clock.now(), CLI_ACTOR);
      await grantRole('admin', { group: 'operators' });
      await grantRole('user-manager', { user: 'ursula' });
      await grantRole('auditor', { user: 'nina' });
    });
    after(() => server?.close());

    it('the document declares on every operation the admin roles that may call it', async () => {
      const document = (await (await fetch(`${server.url}/admin/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { 'x-required-roles'?: string[] }>>;
      };
      assert.deepEqual(document.paths['/clients']?.['get']?.['x-required-roles'], ['admin', 'auditor']);
      assert.deepEqual(document.paths['/clients']?.['post']?.['x-required-roles'], ['admin']);
      assert.deepEqual(document.paths['/users']?.['get']?.['x-required-roles'], ['admin', 'user-manager', 'auditor']);
      assert.deepEqual(document.paths['/users']?.['post']?.['x-required-roles'], ['admin', 'user-manager']);
      for (const [path, item] of Object.entries(document.paths))
        for (const [method, operation] of Object.entries(item))
          if (method !== 'parameters') assert.ok(operation['x-required-roles']?.includes('admin'), `${method} ${path}`);
    });

    it('an admin client acts as admin; one assigned user-manager manages users but not clients, keys or upstreams', async () => {
      const ops = await server.addClient({ id: 'ops', admin: true, scope: ADMIN_SCOPES });
      const admin = api(server, await clientToken(ops));
      assert.equal((await admin.get('/admin/v1/clients')).status, 200);
      const helpdesk = await server.addClient({ id: 'helpdesk', admin: true, scope: ADMIN_SCOPES });
      await grantRole('user-manager', { client: 'helpdesk' });
      const manager = api(server, await clientToken(helpdesk));
      assert.equal((await manager.get('/admin/v1/users')).status, 200);
      assert.equal((await manager.post('/admin/v1/users', { username: 'hd-made' })).status, 201);
      assert.equal((await manager.get('/admin/v1/users/bob')).status, 200);
      for (const [method, path] of [
        ['GET', '/admin/v1/clients'],
        ['GET', '/admin/v1/keys'],
        ['GET', '/admin/v1/upstreams'],
        ['GET', '/admin/v1/audit-events'],
      ] as const) {
        const answer = await manager.request(method, path);
        assert.equal(answer.status, 403, `${method} ${path}`);
        assert.equal((answer.body as { type: string }).type, '/problems/insufficient-role');
      }
      const refused = await manager.post('/admin/v1/keys/rotate');
      assert.equal((refused.body as { detail: string }).detail, "This operation needs the role 'admin'.");
    });

    it("a user's token for the admin API holds the user's admin roles, through a group too, audited as the user with the client", async () => {
      const olga = api(server, await userToken('olga', ADMIN_AUDIENCE));
      assert.equal((await olga.get('/admin/v1/clients')).status, 200);
      assert.equal((await olga.post('/admin/v1/users', { username: 'made-by-olga' })).status, 201);
      const events = await server.context.store.listAuditEvents({ event: 'user_created', limit: 10 });
      const subject = (await server.context.store.findUser('olga'))?.subject;
      assert.equal(events.at(-1)?.actor, `user:${subject} client:console`);
    });

    it('user-manager: users yes, clients no; auditor: every read, no change', async () => {
      const ursula = api(server, await userToken('ursula', ADMIN_AUDIENCE));
      assert.equal((await ursula.get('/admin/v1/users')).status, 200);
      assert.equal((await ursula.post('/admin/v1/users/bob/disable')).status, 200);
      assert.equal((await ursula.get('/admin/v1/clients')).status, 403);
      const nina = api(server, await userToken('nina', ADMIN_AUDIENCE));
      assert.equal((await nina.get('/admin/v1/clients')).status, 200);
      assert.equal((await nina.get('/admin/v1/audit-events')).status, 200);
      const change = await nina.post('/admin/v1/users/bob/enable');
      assert.equal(change.status, 403);
      assert.equal(
        (change.body as { detail: string }).detail,
        "This operation needs the role 'admin' or 'user-manager'.",
      );
    });

    it('an admin manages groups and roles through /groups and /roles, as the document says; an auditor only reads them', async () => {
      const ops = await server.addClient({ id: 'ops2', admin: true, scope: ADMIN_SCOPES });
      const admin = api(server, await clientToken(ops));
      const made = await admin.post('/admin/v1/groups', { name: 'support' });
      assert.equal(made.status, 201);
      assert.equal(made.headers.get('location'), '/admin/v1/groups/support');
      assert.equal((await admin.post('/admin/v1/groups', { name: 'tier-2', parent: 'support' })).status, 201);
      assert.equal((await admin.post('/admin/v1/groups', { name: 'support' })).status, 409);
      assert.equal((await admin.post('/admin/v1/groups', {})).status, 400);
      assert.equal((await admin.put('/admin/v1/groups/tier-2/members/bob')).status, 204);
      assert.deepEqual((await admin.get('/admin/v1/groups/tier-2/members')).body, {
        group: 'tier-2',
        members: ['bob'],
      });
      assert.equal((await admin.post('/admin/v1/roles', { name: 'agent', api: '/v2' })).status, 201);
      assert.equal((await admin.post('/admin/v1/roles/agent/assign?api=%2Fv2', { group: 'support' })).status, 204);
      assert.deepEqual((await admin.get('/admin/v1/roles/agent/holders?api=%2Fv2')).body, {
        role: 'agent',
        api: '/v2',
        holders: ['group:support'],
      });
      const bobToken = decodeJwt((await server.issueGrant(await server.addClient({ id: 'app6' }), 'bob')).access_token);
      assert.deepEqual(bobToken['roles'], ['agent']);
      assert.deepEqual(bobToken['groups'], ['support', 'tier-2']);
      assert.equal((await admin.post('/admin/v1/roles/agent/assign', { group: 'support' })).status, 404);
      assert.equal((await admin.post('/admin/v1/roles/agent/unassign?api=%2Fv2', { group: 'support' })).status, 204);
      assert.equal((await admin.delete('/admin/v1/groups/support')).status, 409);
      assert.equal((await admin.delete('/admin/v1/groups/tier-2/members/bob')).status, 204);
      assert.equal((await admin.delete('/admin/v1/roles/admin')).status, 422);
      const nina = api(server, await userToken('nina', ADMIN_AUDIENCE));
      assert.equal((await nina.get('/admin/v1/roles')).status, 200);
      assert.equal((await nina.post('/admin/v1/groups', { name: 'nope' })).status, 403);
      assert.equal((await admin.delete('/admin/v1/roles/agent?api=%2Fv2')).status, 204);
    });

    it("a user's token for another audience, or of a user with no admin role, is refused (403 insufficient_scope)", async () => {
      const olgaElsewhere = api(server, await userToken('olga'));
      assert.equal((await olgaElsewhere.get('/admin/v1/clients')).status, 403);
      await server.issueGrant(await server.addClient({ id: 'app5' }), 'zoe');
      const zoe = api(server, await userToken('zoe', ADMIN_AUDIENCE));
      const answer = await zoe.get('/admin/v1/users');
      assert.equal(answer.status, 403);
      assert.equal((answer.body as { type: string }).type, '/problems/insufficient-scope');
    });
  });
