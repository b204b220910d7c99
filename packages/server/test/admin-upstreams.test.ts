import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, api, assertMissingFields, assertProblem, type Api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

const ADMIN = '/admin/v1';
const SECRET = 'upstream-client-secret-never-answered';

/** The admin API's upstream providers: the same checks as `gatehouse upstreams apply`. */
describe('the admin API /admin/v1/upstreams', () => {
  for (const dialect of DIALECTS)
    describe(dialect, () => {
      let server: TestServer;
      let admin: Api;
      let reader: Api;

      before(async () => {
        server = await startTestServer({ dialect });
        admin = api(server, await adminToken(server, 'ops'));
        reader = api(server, await adminToken(server, 'auditor', '--scope', 'gatehouse:admin:read'));
      });
      after(() => server.close());

      it('the served OpenAPI document describes the upstream routes with their scopes', async () => {
        const document = (await (await fetch(`${server.url}${ADMIN}/openapi.json`)).json()) as {
          paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
          components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
        };
        const list = document.paths['/upstreams'];
        const one = document.paths['/upstreams/{upstream_id}'];
        assert.equal(list?.get?.operationId, 'listUpstreams');
        assert.deepEqual(
          ['get', 'put', 'delete'].map((m) => one?.[m]?.operationId),
          ['getUpstream', 'putUpstream', 'deleteUpstream'],
        );
        const scopes = (op: { security?: Record<string, string[]>[] } | undefined) =>
          op?.security?.flatMap((s) => Object.values(s).flat());
        assert.deepEqual(scopes(one?.put), ['gatehouse:admin'], 'writes need gatehouse:admin');
        assert.deepEqual(scopes(one?.get), ['gatehouse:admin:read', 'gatehouse:admin']);
        const answered = document.components.schemas['Upstream']?.properties ?? {};
        assert.ok('mfa_acr_values' in answered);
        assert.ok(!('client_secret' in answered) && !('private_jwk' in answered), 'no credential is answered');
      });

      it('puts, lists, reads and deletes a provider, audited with the admin client, never answering its secret', async () => {
        const put = await admin.put(`${ADMIN}/upstreams/corp`, {
          issuer: 'https://idp.example.com/',
          client_id: 'gatehouse',
          client_secret: SECRET,
          display_name: 'Corp',
          domains: ['Example.com'],
          mfa_acr_values: ['urn:example:mfa'],
        });
        assert.equal(put.status, 200, put.text);
        assert.equal(put.body.id, 'corp');
        assert.equal(put.body.issuer, 'https://idp.example.com', 'stored as apply stores it');
        assert.deepEqual(put.body.domains, ['example.com']);
        assert.deepEqual(put.body.mfa_acr_values, ['urn:example:mfa']);
        assert.equal(put.body.client_auth, 'client_secret_basic');
        assert.ok(!put.text.includes(SECRET), 'the secret is not answered');
        const listed = await reader.get(`${ADMIN}/upstreams`);
        assert.equal(listed.status, 200);
        assert.deepEqual(
          listed.body.items.map((p: { id: string }) => p.id),
          ['corp'],
        );
        assert.ok(!listed.text.includes(SECRET));
        const read = await reader.get(`${ADMIN}/upstreams/corp`);
        assert.equal(read.status, 200);
        assert.equal(read.body.display_name, 'Corp');
        assert.ok(!read.text.includes(SECRET));
        const replaced = await admin.put(`${ADMIN}/upstreams/corp`, {
          id: 'corp',
          issuer: 'https://idp.example.com',
          client_id: 'gatehouse-2',
          client_secret: SECRET,
        });
        assert.equal(replaced.status, 200, replaced.text);
        assert.equal(replaced.body.client_id, 'gatehouse-2');
        assert.equal(replaced.body.display_name, 'corp', 'a full replacement: the display name is the default again');
        const stored = await server.context.store.findUpstreamProvider('corp');
        assert.ok(stored !== undefined && stored.clientId === 'gatehouse-2');
        assert.equal((await admin.delete(`${ADMIN}/upstreams/corp`)).status, 204);
        assertProblem(await reader.get(`${ADMIN}/upstreams/corp`), 404, 'not-found');
        assertProblem(await admin.delete(`${ADMIN}/upstreams/corp`), 404, 'not-found');
        const audited = await admin.get(`${ADMIN}/audit-events?actor=ops`);
        const events = audited.body.items
          .filter((e: { event: string }) => e.event.startsWith('upstream_provider_'))
          .map((e: { event: string; actor: string }) => [e.event, e.actor]);
        assert.deepEqual(events, [
          ['upstream_provider_changed', 'ops'],
          ['upstream_provider_changed', 'ops'],
          ['upstream_provider_removed', 'ops'],
        ]);
      });

      it('pages the providers by id (limit, cursor) and searches them by id, display name or issuer, as the other lists', async () => {
        for (const [id, name, issuer] of [
          ['page-a', 'Alpha', 'https://alpha.example.com'],
          ['page-b', 'Bravo Corp', 'https://bravo.example.com'],
          ['page-c', 'Charlie', 'https://idp.charlie.example.com'],
        ] as const) {
          const put = await admin.put(`${ADMIN}/upstreams/${id}`, {
            issuer,
            client_id: 'gatehouse',
            client_secret: SECRET,
            display_name: name,
          });
          assert.equal(put.status, 200, put.text);
        }
        const ids = (body: { items: { id: string }[] }) => body.items.map((p) => p.id);
        try {
          const first = await reader.get(`${ADMIN}/upstreams?q=page-&limit=2`);
          assert.equal(first.status, 200, first.text);
          assert.deepEqual(ids(first.body), ['page-a', 'page-b']);
          assert.equal(typeof first.body.next_cursor, 'string');
          const second = await reader.get(`${ADMIN}/upstreams?q=page-&limit=2&cursor=${first.body.next_cursor}`);
          assert.deepEqual(ids(second.body), ['page-c']);
          assert.equal(second.body.next_cursor, null);
          assert.deepEqual(
            ids((await reader.get(`${ADMIN}/upstreams?q=BRAVO`)).body),
            ['page-b'],
            'display name, any case',
          );
          assert.deepEqual(ids((await reader.get(`${ADMIN}/upstreams?q=idp.charlie`)).body), ['page-c'], 'issuer');
          assertProblem(await reader.get(`${ADMIN}/upstreams?limit=0`), 400, 'invalid-parameter');
          assertProblem(await reader.get(`${ADMIN}/upstreams?cursor=%00`), 400, 'invalid-parameter');
          assertProblem(await reader.get(`${ADMIN}/upstreams?q=${'x'.repeat(65)}`), 400, 'invalid-parameter');
        } finally {
          for (const id of ['page-a', 'page-b', 'page-c']) await admin.delete(`${ADMIN}/upstreams/${id}`);
        }
      });

      it('refuses bad providers with catalog problems, never a 5xx', async () => {
        const base = { issuer: 'https://idp.example.com', client_id: 'gatehouse', client_secret: SECRET };
        const refusals: [string, Record<string, unknown>, RegExp][] = [
          ['corp', { ...base, scopes: ['profile'] }, /scopes: must include openid/],
          ['corp', { ...base, issuer: 'https://idp.example.com/?x=1' }, /issuer: no query or fragment/],
          // http only on loopback (docs/federation.md), as the CLI and UPSTREAMS_FILE check it.
          ['corp', { ...base, issuer: 'http://idp.example.com' }, /issuer: .* must be https, or http on loopback/],
          ['corp', { ...base, issuer: 'http://10.1.2.3:8080' }, /issuer: .* must be https, or http on loopback/],
          ['corp', { issuer: base.issuer, client_id: 'gatehouse' }, /client_secret: required/],
          ['corp', { ...base, client_auth: 'private_key_jwt' }, /private_jwk: required/],
          ['corp', { ...base, domains: ['not a domain'] }, /domains: 'not a domain' is not a domain name/],
          ['corp', { ...base, claims: { phone: 'tel' } }, /claims: 'phone' is not one of/],
          ['corp', { ...base, mfa_acr_values: [''] }, /mfa_acr_values/],
          ['corp', { ...base, id: 'other' }, /is not the path's 'corp'/],
          ['Bad Id', base, /^id: /],
        ];
        for (const [id, body, detail] of refusals) {
          const response = await admin.put(`${ADMIN}/upstreams/${encodeURIComponent(id)}`, body);
          assertProblem(response, 422, 'invalid-operator-input');
          assert.match(response.body.detail, detail);
        }
        assertMissingFields(await admin.put(`${ADMIN}/upstreams/corp`, { client_secret: SECRET }), [
          { field: 'issuer', pointer: '/issuer' },
          { field: 'client_id', pointer: '/client_id' },
        ]);
        const wrongType = await admin.put(`${ADMIN}/upstreams/corp`, { ...base, provision: 'yes' });
        assertProblem(wrongType, 422, 'invalid-field-value');
        assertProblem(await admin.put(`${ADMIN}/upstreams/corp`, undefined, { raw: '{' }), 400, 'malformed-json');
        assert.equal((await server.context.store.listUpstreamProviders()).length, 0, 'nothing was stored');
      });

      it('accepts an http issuer on any loopback address or localhost, the rule the sign-in applies too', async () => {
        for (const issuer of ['http://127.0.0.2:4000', 'http://[::1]:4000', 'http://localhost:4000']) {
          const response = await admin.put(`${ADMIN}/upstreams/dev`, { issuer, client_id: 'g', client_secret: SECRET });
          assert.equal(response.status, 200, JSON.stringify(response.body));
          assert.equal(response.body.issuer, issuer);
        }
        assert.equal((await admin.delete(`${ADMIN}/upstreams/dev`)).status, 204);
      });

      it('refuses writes with the read-only scope gatehouse:admin:read (RFC 6750 §3.1 insufficient_scope)', async () => {
        const base = { issuer: 'https://idp.example.com', client_id: 'gatehouse', client_secret: SECRET };
        const put = await reader.put(`${ADMIN}/upstreams/ro`, base);
        assert.equal(put.status, 403, put.text);
        assert.match(put.headers.get('www-authenticate') ?? '', /insufficient_scope/);
        assert.equal((await admin.put(`${ADMIN}/upstreams/ro`, base)).status, 200);
        assert.equal((await reader.delete(`${ADMIN}/upstreams/ro`)).status, 403);
        assert.equal((await reader.get(`${ADMIN}/upstreams/ro`)).status, 200, 'it is still there');
        assert.equal((await admin.delete(`${ADMIN}/upstreams/ro`)).status, 204);
      });
    });
});
