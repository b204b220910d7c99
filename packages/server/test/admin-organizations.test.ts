import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { adminToken, api, assertMissingFields, assertProblem, type Api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { ISSUER } from './_oauth-assertions.js';
import { startTestServer, type TestServer } from './_server.js';

const ADMIN = '/admin/v1';

/** The admin API's organizations: the same changes as `gatehouse orgs`, every answer as its document says. */
describe('the admin API /admin/v1/organizations', () => {
  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let server: TestServer;
      let admin: Api;
      let reader: Api;

      before(async () => {
        server = await startTestServer({ dialect });
        admin = api(server, await adminToken(server, 'ops'));
        reader = api(server, await adminToken(server, 'auditor', '--scope', 'gatehouse:admin:read'));
        const env = { DATABASE_URL: server.databaseUrl, ISSUER };
        assert.equal(await runCli(['users', 'add', '--username', 'dana'], env, { out: () => {}, err: () => {} }), 0);
      });
      after(() => server.close());

      it('the served OpenAPI document declares the organization operations with their scopes', async () => {
        const document = (await (await fetch(`${server.url}${ADMIN}/openapi.json`)).json()) as {
          paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
        };
        const scopes = (op: { security?: Record<string, string[]>[] } | undefined) =>
          op?.security?.flatMap((s) => Object.values(s).flat());
        const one = document.paths['/organizations/{organization}'];
        assert.deepEqual(
          ['get', 'patch', 'delete'].map((m) => one?.[m]?.operationId),
          ['getOrganization', 'updateOrganization', 'deleteOrganization'],
        );
        assert.deepEqual(scopes(one?.patch), ['gatehouse:admin']);
        assert.deepEqual(scopes(one?.get), ['gatehouse:admin:read', 'gatehouse:admin']);
        assert.equal(
          document.paths['/organizations/{organization}/members/{username}']?.put?.operationId,
          'putOrganizationMember',
        );
        assert.equal(
          document.paths['/organizations/{organization}/domains/{domain}']?.put?.operationId,
          'putOrganizationDomain',
        );
      });

      it('adds, changes, lists and removes an organization, its members and domains, audited with the admin client', async () => {
        const created = await admin.post(`${ADMIN}/organizations`, { slug: 'acme', name: 'Acme', roles: ['admin'] });
        assert.equal(created.status, 201, created.text);
        assert.equal(created.headers.get('location'), `${ADMIN}/organizations/acme`);
        assert.match(created.body.id, /^org_/);
        assertProblem(await admin.post(`${ADMIN}/organizations`, { slug: 'acme' }), 409, 'conflict');
        assertMissingFields(await admin.post(`${ADMIN}/organizations`, { name: 'x' }), [
          { field: 'slug', pointer: '/slug' },
        ]);
        const changed = await admin.patch(
          `${ADMIN}/organizations/acme`,
          {
            add_roles: ['viewer'],
            policy: { second_factor: 'required', default_role: 'viewer' },
          },
          { headers: { 'content-type': 'application/json' } },
        );
        assert.equal(changed.status, 200, changed.text);
        assert.deepEqual(changed.body.roles, ['admin', 'viewer']);
        assert.equal(changed.body.policy.second_factor, 'required');
        assert.equal(changed.body.policy.default_role, 'viewer');

        const member = await admin.put(`${ADMIN}/organizations/acme/members/dana`, { roles: ['admin'] });
        assert.equal(member.status, 200, member.text);
        assert.deepEqual(
          [member.body.username, member.body.roles, member.body.source],
          ['dana', ['admin'], 'operator'],
        );
        assertProblem(
          await admin.put(`${ADMIN}/organizations/acme/members/dana`, { roles: ['owner'] }),
          422,
          'invalid-operator-input',
        );
        assertProblem(await admin.put(`${ADMIN}/organizations/acme/members/nobody`, {}), 404, 'not-found');
        const members = await reader.get(`${ADMIN}/organizations/acme/members`);
        assert.deepEqual(
          members.body.items.map((m: { username: string }) => m.username),
          ['dana'],
        );

        const domain = await admin.put(`${ADMIN}/organizations/acme/domains/acme.example`, { verified: true });
        assert.equal(domain.status, 200, domain.text);
        assert.equal(domain.body.verified, true);
        for (const publicDomain of ['gmail.com', 'outlook.com'])
          assertProblem(
            await admin.put(`${ADMIN}/organizations/acme/domains/${publicDomain}`, { verified: true }),
            422,
            'organization-domain-public',
          );
        const read = await reader.get(`${ADMIN}/organizations/acme`);
        assert.deepEqual(
          read.body.domains.map((d: { domain: string }) => d.domain),
          ['acme.example'],
        );
        const listed = await reader.get(`${ADMIN}/organizations`);
        assert.deepEqual(
          listed.body.items.map((o: { slug: string }) => o.slug),
          ['acme'],
        );
        assertProblem(await reader.delete(`${ADMIN}/organizations/acme`), 403, 'insufficient-scope');

        assert.equal((await admin.delete(`${ADMIN}/organizations/acme/domains/acme.example`)).status, 204);
        assert.equal((await admin.delete(`${ADMIN}/organizations/acme/members/dana`)).status, 204);
        assertProblem(await admin.delete(`${ADMIN}/organizations/acme/members/dana`), 404, 'not-found');
        assert.equal((await admin.delete(`${ADMIN}/organizations/acme`)).status, 204);
        assertProblem(await reader.get(`${ADMIN}/organizations/acme`), 404, 'not-found');

        const audited = await admin.get(`${ADMIN}/audit-events?actor=ops&limit=100`);
        const events = audited.body.items
          .filter((e: { event: string }) => e.event.startsWith('organization_'))
          .map((e: { event: string }) => e.event);
        assert.deepEqual(events, [
          'organization_changed',
          'organization_changed',
          'organization_member_added',
          'organization_domain_changed',
          'organization_domain_changed',
          'organization_member_removed',
          'organization_removed',
        ]);
      });
    });
});
