/**
 * The REST API's operations declare the roles they need (`x-required-roles`, any one suffices), in
 * the document it serves, and the server refuses a caller whose user holds none of them with the
 * catalog's 403 `insufficient_role`, by the check the admin API makes (RFC 9068 §2.2.3.1 roles),
 * on both dialects. Every answer is checked against the served document (_api.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addGroupMember, assignRole, createGroup, createRole, unassignRole } from '../src/access/index.js';
import { ApiDefinitionError, apiDefinitionFrom } from '../src/api/definition.js';
import { CLI_ACTOR } from '../src/audit/audit.js';
import { api, assertProblem, type Api } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

const OK = (description: string) => ({ description });
const JSON_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/Invoice' } } };

/** invoices: reading needs `invoices-read` or `finance`; creating and deleting need `finance`; replacing needs nothing. */
function rolesDocument(readRoles: unknown = ['invoices-read', 'finance']): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Roles test API', version: '1.0.0' },
    paths: {
      '/invoices': {
        'x-gatehouse-ownership': 'shared',
        post: {
          'x-required-roles': ['finance'],
          requestBody: { required: true, content: JSON_BODY },
          responses: { '201': OK('Created') },
        },
        get: { 'x-required-roles': readRoles, responses: { '200': OK('A page') } },
      },
      '/invoices/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { 'x-required-roles': readRoles, responses: { '200': OK('An invoice') } },
        put: { requestBody: { required: true, content: JSON_BODY }, responses: { '200': OK('Replaced') } },
        delete: { 'x-required-roles': ['finance'], responses: { '204': OK('Deleted') } },
      },
    },
    components: {
      schemas: {
        Invoice: {
          type: 'object',
          required: ['amount'],
          additionalProperties: false,
          properties: { amount: { type: 'integer' } },
        },
      },
    },
  };
}

const SCOPE = ['invoices:read', 'invoices:write'];

type Operation = {
  'x-required-roles'?: string[];
  description?: string;
  responses: Record<string, { description: string }>;
};

for (const dialect of DIALECTS)
  describe(`REST operations that declare roles [${dialect}]`, () => {
    let server: TestServer;
    let erin: Api;
    let sam: Api;
    let nobody: Api;
    let service: Api;

    const now = () => server.clock.now();
    before(async () => {
      server = await startTestServer({ dialect, api: apiDefinitionFrom(rolesDocument(), 'roles-test') });
      const { audit } = server.context;
      const app = await server.addClient({ id: 'app', scope: SCOPE });
      erin = api(server, (await server.issueGrant(app, 'erin', SCOPE)).access_token);
      sam = api(server, (await server.issueGrant(app, 'sam', SCOPE)).access_token);
      nobody = api(server, (await server.issueGrant(app, 'nobody', SCOPE)).access_token);
      await createRole(audit, { name: 'finance', api: '/v2' }, now(), CLI_ACTOR);
      await createRole(audit, { name: 'invoices-read' }, now(), CLI_ACTOR);
      await createGroup(audit, 'accounting', undefined, now(), CLI_ACTOR);
      await addGroupMember(audit, 'accounting', 'erin', now(), CLI_ACTOR);
      // erin through a group, an API role; sam directly, a server-wide role.
      await assignRole(audit, { name: 'finance', api: '/v2' }, { group: 'accounting' }, now(), CLI_ACTOR);
      await assignRole(audit, { name: 'invoices-read' }, { user: 'sam' }, now(), CLI_ACTOR);
      const robot = await server.addClient({ id: 'robot', grantTypes: ['client_credentials'], scope: SCOPE });
      const issued = await server.post('/token', { grant_type: 'client_credentials' }, { as: robot });
      service = api(server, ((await issued.json()) as { access_token: string }).access_token);
    });
    after(() => server?.close());

    it('the served document keeps each operation x-required-roles, says it in words and lists insufficient-role at 403', async () => {
      const document = (await (await fetch(`${server.url}/v2/openapi.json`)).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };
      const list = document.paths['/invoices']!['get']!;
      assert.deepEqual(list['x-required-roles'], ['invoices-read', 'finance']);
      assert.match(list.description ?? '', /Requires the role `invoices-read` or `finance`/);
      assert.match(list.responses['403']!.description, /Insufficient role \(\/problems\/insufficient-role\)/);
      assert.deepEqual(document.paths['/invoices']!['post']!['x-required-roles'], ['finance']);
      const put = document.paths['/invoices/{id}']!['put']!;
      assert.equal(put['x-required-roles'], undefined);
      assert.doesNotMatch(put.responses['403']!.description, /insufficient-role/);
    });

    it('a user holding a declared role through a group creates, reads and deletes', async () => {
      const created = await erin.post('/v2/invoices', { amount: 12 });
      assert.equal(created.status, 201, created.text);
      const path = `/v2/invoices/${created.body.id as string}`;
      assert.equal((await erin.get(path)).status, 200);
      assert.equal((await erin.get('/v2/invoices')).status, 200);
      assert.equal((await erin.delete(path)).status, 204);
    });

    it('a user holding one of several declared roles reads, and is refused 403 insufficient_role where the operation needs another', async () => {
      const created = await erin.post('/v2/invoices', { amount: 30 });
      const path = `/v2/invoices/${created.body.id as string}`;
      assert.equal((await sam.get(path)).status, 200);
      assert.equal((await sam.get('/v2/invoices')).status, 200);
      const refused = await sam.post('/v2/invoices', { amount: 1 });
      assertProblem(refused, 403, 'insufficient-role');
      assert.equal(refused.body.detail, "This operation needs the role 'finance'.");
      assertProblem(await sam.delete(path), 403, 'insufficient-role');
      // An operation that declares no role needs only its scope.
      assert.equal((await sam.put(path, { amount: 31 })).status, 200);
    });

    it('a user holding none is refused before the body is read, with the same problem as the admin API', async () => {
      const refused = await nobody.get('/v2/invoices');
      assertProblem(refused, 403, 'insufficient-role');
      assert.equal(refused.body.detail, "This operation needs the role 'invoices-read' or 'finance'.");
      // A body that would be a 400 does not matter: the role is checked first.
      assertProblem(await nobody.post('/v2/invoices', {}), 403, 'insufficient-role');
    });

    it('a token with no user (client_credentials, RFC 6749 §4.4) holds no role', async () => {
      assertProblem(await service.get('/v2/invoices'), 403, 'insufficient-role');
      assert.equal((await service.post('/v2/invoices', { amount: 5 })).status, 403);
    });

    it('a role taken back is refused at once, with the same access token', async () => {
      const { audit } = server.context;
      await assignRole(audit, { name: 'invoices-read' }, { user: 'nobody' }, now(), CLI_ACTOR);
      assert.equal((await nobody.get('/v2/invoices')).status, 200);
      await unassignRole(audit, { name: 'invoices-read' }, { user: 'nobody' }, now(), CLI_ACTOR);
      assertProblem(await nobody.get('/v2/invoices'), 403, 'insufficient-role');
    });
  });

describe('a malformed x-required-roles', () => {
  for (const roles of ['finance', [], [''], [1], null])
    it(`${JSON.stringify(roles)} stops the start, naming where`, () => {
      assert.throws(
        () => apiDefinitionFrom(rolesDocument(roles), 'roles-test'),
        (error: Error) =>
          error instanceof ApiDefinitionError &&
          /paths\/~1invoices\/get\/x-required-roles|\/invoices.*get.*x-required-roles/.test(error.message) &&
          /non-empty list of role names/.test(error.message),
      );
    });
});
