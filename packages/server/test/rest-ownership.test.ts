import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { apiDefinitionFrom, ApiDefinitionError } from '../src/api/definition.js';
import { api, assertProblem, type Api, type ApiResponse } from './_api.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestClient, type TestServer } from './_server.js';

/**
 * Records belong to someone (OWASP API1:2023, broken object-level authorization; docs/rest-api.md,
 * "Whose records"): under `x-gatehouse-ownership: owner`, the default, a user reaches only the records
 * their token created; another user's record is the same 404 as an id that does not exist. A
 * client's own token (RFC 6749 §4.4, no user) reaches what `x-gatehouse-client-access` gives it.
 */

const OK = (description: string) => ({ description });

/** A collection `name` with every operation, records `{ title }`, and the ownership extensions given. */
function collectionPaths(name: string, extensions: Record<string, string>): Record<string, unknown> {
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } };
  return {
    [`/${name}`]: {
      ...extensions,
      post: { requestBody: { required: true, content: json }, responses: { '201': OK('Created') } },
      get: { responses: { '200': OK('A page') } },
    },
    [`/${name}/{id}`]: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { responses: { '200': OK('A record') } },
      put: { requestBody: { required: true, content: json }, responses: { '200': OK('Replaced') } },
      patch: {
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
        responses: { '200': OK('Patched') },
      },
      delete: { responses: { '204': OK('Deleted') } },
    },
  };
}

/** notes: owned (nothing declared); boards: shared; reports: owned, clients read; tasks: owned, clients read-write. */
function ownershipDocument(notes: Record<string, string> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Ownership test API', version: '1.0.0' },
    paths: {
      ...collectionPaths('notes', notes),
      ...collectionPaths('boards', { 'x-gatehouse-ownership': 'shared' }),
      ...collectionPaths('reports', { 'x-gatehouse-client-access': 'read' }),
      ...collectionPaths('tasks', { 'x-gatehouse-client-access': 'read-write' }),
    },
    components: {
      schemas: {
        Note: {
          type: 'object',
          required: ['title'],
          additionalProperties: false,
          properties: { title: { type: 'string' } },
        },
      },
    },
  };
}

const COLLECTIONS = ['notes', 'boards', 'reports', 'tasks'];
const SCOPES = COLLECTIONS.flatMap((name) => [`${name}:read`, `${name}:write`]);

/** Every id a paged list of `path` answers, following next_cursor. */
async function listedIds(rest: Api, path: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiResponse = await rest.get(`${path}?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`);
    assert.equal(page.status, 200, page.text);
    ids.push(...page.body.items.map((item: { id: string }) => item.id));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return ids;
}

/** Creates a record (a contact's `email`, or another collection's `title`); its id. */
async function create(rest: Api, collection: string, title: string): Promise<string> {
  const created = await rest.post(`/v2/${collection}`, collection === 'contacts' ? { email: title } : { title });
  assert.equal(created.status, 201, created.text);
  return created.body.id as string;
}

/** The 404 of another owner's record is the 404 of an id that does not exist, detail and all. */
function assertNotFound(response: ApiResponse, collection: string, id: string): void {
  assertProblem(response, 404, 'not-found');
  assert.equal(response.body.detail, `There is no ${collection} record '${id}'.`);
}

for (const dialect of DIALECTS)
  describe(`whose records: the shipped contacts [${dialect}]`, () => {
    let server: TestServer;
    let alice: Api;
    let carol: Api;

    before(async () => {
      server = await startTestServer({ dialect });
      const app = await server.addClient({ id: 'app' });
      const scope = ['contacts:read', 'contacts:write'];
      alice = api(server, (await server.issueGrant(app, 'alice', scope)).access_token);
      carol = api(server, (await server.issueGrant(app, 'carol', scope)).access_token);
    });
    after(() => server.close());

    it("carol's token, with contacts:read and contacts:write, neither lists nor reads, replaces, patches or deletes alice's contact: 404 as a missing id", async () => {
      const created = await alice.post('/v2/contacts', { email: 'alice@example.com' });
      assert.equal(created.status, 201);
      const { id } = created.body as { id: string };
      const etag = created.headers.get('etag') ?? '';
      assert.ok(!(await listedIds(carol, '/v2/contacts')).includes(id), 'not in her list');
      const path = `/v2/contacts/${id}`;
      assertNotFound(await carol.get(path), 'contacts', id);
      // If-Match with the record's real ETag: still 404, never 412, which would tell the id exists.
      const ifMatch = { headers: { 'if-match': etag } };
      assertNotFound(await carol.put(path, { email: 'carol@example.com' }, ifMatch), 'contacts', id);
      assertNotFound(await carol.patch(path, { name: 'Carol' }, ifMatch), 'contacts', id);
      assertNotFound(await carol.delete(path, ifMatch), 'contacts', id);
      const unknown = '0mbx3k2qz000a1b2c3d4e5f6';
      assertNotFound(await carol.get(`/v2/contacts/${unknown}`), 'contacts', unknown);
      // Alice's contact is as she left it.
      const read = await alice.get(path);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { id, email: 'alice@example.com' });
      assert.equal(read.headers.get('etag'), etag);
    });

    it('each user lists, pages through and changes their own contacts only', async () => {
      const mine: string[] = [];
      for (let i = 0; i < 3; i++) mine.push(await create(carol, 'contacts', `carol${i}@example.com`));
      const aliceOwn = await listedIds(alice, '/v2/contacts');
      assert.ok(aliceOwn.length > 0 && mine.every((id) => !aliceOwn.includes(id)));
      // Pages of one item: the cursor runs over carol's contacts only.
      const firstPage = await carol.get('/v2/contacts?limit=1');
      assert.equal(firstPage.body.items[0].id, mine[0]);
      const next = await carol.get(`/v2/contacts?limit=1&cursor=${firstPage.body.next_cursor}`);
      assert.equal(next.body.items[0].id, mine[1]);
      assert.deepEqual(await listedIds(carol, '/v2/contacts'), mine);
      assert.equal((await carol.patch(`/v2/contacts/${mine[0]}`, { name: 'Carol' })).status, 200);
      assert.equal((await carol.delete(`/v2/contacts/${mine[2]}`)).status, 204);
      assert.deepEqual(await listedIds(carol, '/v2/contacts'), mine.slice(0, 2));
    });

    it("a client's own token (client_credentials) reaches no contact: 403 owner-required, before its body is read", async () => {
      const service = await server.addClient({ id: 'svc' });
      const answer = await server.post('/token', { grant_type: 'client_credentials' }, { as: service });
      const { access_token } = (await answer.json()) as { access_token: string };
      const client = api(server, access_token);
      assertProblem(await client.get('/v2/contacts'), 403, 'owner-required');
      assertProblem(await client.post('/v2/contacts', {}), 403, 'owner-required');
      assertProblem(await client.get('/v2/contacts/0mbx3k2qz000a1b2c3d4e5f6'), 403, 'owner-required');
    });

    it('the served document states the rule: the extensions kept, and a line of the description says it', async () => {
      const served = (await (await fetch(`${server.url}/v2/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const contacts = served.paths['/contacts'] ?? {};
      assert.equal(contacts['x-gatehouse-ownership'], 'owner');
      assert.equal(contacts['x-gatehouse-client-access'], 'none');
      for (const path of ['/contacts', '/contacts/{id}'])
        assert.match(String(served.paths[path]?.['description']), /belongs to the user whose access token created it/);
    });
  });

for (const dialect of DIALECTS)
  describe(`whose records: each collection's declared rule [${dialect}]`, () => {
    let server: TestServer;
    let users: Record<'alice' | 'bob' | 'carol', Api>;
    /** The `sub` of each user's access token, whatever its form: what their records' owner is. */
    const subjects = new Map<string, string>();
    /** A client_credentials token of a client holding every scope. */
    let service: Api;
    let ops: Api;

    const tokenOf = async (client: TestClient, scope?: string): Promise<string> => {
      const form = { grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) };
      const answer = await server.post('/token', form, { as: client });
      assert.equal(answer.status, 200);
      return ((await answer.json()) as { access_token: string }).access_token;
    };

    before(async () => {
      server = await startTestServer({ dialect, api: apiDefinitionFrom(ownershipDocument(), 'ownership-test') });
      const app = await server.addClient({ id: 'app', scope: SCOPES });
      const issue = async (user: string) => {
        const { access_token } = await server.issueGrant(app, user, SCOPES);
        const claims = JSON.parse(Buffer.from(access_token.split('.')[1] ?? '', 'base64url').toString()) as {
          sub: string;
        };
        subjects.set(user, claims.sub);
        return api(server, access_token);
      };
      users = { alice: await issue('alice'), bob: await issue('bob'), carol: await issue('carol') };
      service = api(server, await tokenOf(app));
      const admin = await server.addClient({
        id: 'ops',
        admin: true,
        scope: ['gatehouse:admin:read'],
        redirectUris: [],
      });
      ops = api(server, await tokenOf(admin));
    });
    after(() => server.close());

    it('a shared collection behaves as before records had owners: every user reaches every record', async () => {
      const id = await create(users.alice, 'boards', 'Roadmap');
      assert.ok((await listedIds(users.carol, '/v2/boards')).includes(id));
      assert.equal((await users.carol.get(`/v2/boards/${id}`)).body.title, 'Roadmap');
      assert.equal((await users.carol.patch(`/v2/boards/${id}`, { title: 'Plan' })).status, 200);
      assert.equal((await users.alice.get(`/v2/boards/${id}`)).body.title, 'Plan');
      // A shared collection lets a client's token do everything, as before (read-write by default).
      assert.equal((await service.get(`/v2/boards/${id}`)).status, 200);
      assert.equal((await service.delete(`/v2/boards/${id}`)).status, 204);
    });

    it('x-gatehouse-client-access: none (the default under owner) refuses a client every operation with 403 owner-required', async () => {
      const id = await create(users.alice, 'notes', 'Private');
      assertProblem(await service.get('/v2/notes'), 403, 'owner-required');
      assertProblem(await service.get(`/v2/notes/${id}`), 403, 'owner-required');
      assertProblem(await service.post('/v2/notes', { title: 'x' }), 403, 'owner-required');
      assertProblem(await service.patch(`/v2/notes/${id}`, { title: 'x' }), 403, 'owner-required');
      assertProblem(await service.delete(`/v2/notes/${id}`), 403, 'owner-required');
    });

    it("x-gatehouse-client-access: read lets a client read and list every user's records, and change none", async () => {
      const fromAlice = await create(users.alice, 'reports', 'Q1');
      const fromBob = await create(users.bob, 'reports', 'Q2');
      const listed = await listedIds(service, '/v2/reports');
      assert.ok(listed.includes(fromAlice) && listed.includes(fromBob));
      assert.equal((await service.get(`/v2/reports/${fromBob}`)).body.title, 'Q2');
      assertProblem(await service.post('/v2/reports', { title: 'x' }), 403, 'owner-required');
      assertProblem(await service.put(`/v2/reports/${fromAlice}`, { title: 'x' }), 403, 'owner-required');
      assertProblem(await service.patch(`/v2/reports/${fromAlice}`, { title: 'x' }), 403, 'owner-required');
      assertProblem(await service.delete(`/v2/reports/${fromAlice}`), 403, 'owner-required');
      // The users still see only their own.
      assert.ok(!(await listedIds(users.alice, '/v2/reports')).includes(fromBob));
    });

    it('x-gatehouse-client-access: read-write lets a client change every record; what it creates no user owns', async () => {
      const fromAlice = await create(users.alice, 'tasks', 'Write');
      assert.equal((await service.patch(`/v2/tasks/${fromAlice}`, { title: 'Review' })).status, 200);
      assert.equal((await users.alice.get(`/v2/tasks/${fromAlice}`)).body.title, 'Review');
      const fromService = await create(service, 'tasks', 'Nightly');
      assert.ok((await listedIds(service, '/v2/tasks')).includes(fromService));
      for (const user of Object.values(users)) {
        assert.ok(!(await listedIds(user, '/v2/tasks')).includes(fromService));
        assertNotFound(await user.get(`/v2/tasks/${fromService}`), 'tasks', fromService);
      }
    });

    it('a record from before records had owners (migration 0014 leaves it none) is seen only where every record is', async () => {
      for (const collection of ['notes', 'boards'])
        await server.context.store.insertRecord({
          collection,
          id: `0legacy${collection}0000`,
          owner: null,
          body: { title: 'Old' },
          version: 1,
          createdAt: 1,
          updatedAt: 1,
        });
      assertNotFound(await users.alice.get('/v2/notes/0legacynotes0000'), 'notes', '0legacynotes0000');
      assert.ok(!(await listedIds(users.alice, '/v2/notes')).includes('0legacynotes0000'));
      assert.equal((await users.alice.get('/v2/boards/0legacyboards0000')).status, 200, 'shared');
      const page = await ops.get('/admin/v1/collections/notes/records?limit=100');
      assert.equal(page.status, 200, page.text);
      const legacy = page.body.items.find((r: { id: string }) => r.id === '0legacynotes0000');
      assert.equal(legacy?.owner, null);
    });

    it("the admin API reads every owner's records, each with its owner; an undeclared collection is 404", async () => {
      const fromCarol = await create(users.carol, 'notes', 'Carol’s');
      const records: { id: string; owner: string | null; body: unknown }[] = [];
      let path: string | null = '/admin/v1/collections/notes/records?limit=2';
      while (path !== null) {
        const page: ApiResponse = await ops.get(path);
        assert.equal(page.status, 200, page.text);
        records.push(...page.body.items);
        const cursor = page.body.next_cursor as string | null;
        path = cursor === null ? null : `/admin/v1/collections/notes/records?limit=2&cursor=${cursor}`;
      }
      const carols = records.find((r) => r.id === fromCarol);
      assert.equal(carols?.owner, subjects.get('carol'));
      assert.deepEqual(carols?.body, { title: 'Carol’s' });
      assert.ok(records.some((r) => r.owner === subjects.get('alice')));
      assertProblem(await ops.get('/admin/v1/collections/nothing/records'), 404, 'not-found');
    });

    it('the served document states each rule, defaults written out, with owner-required among the 403s it can answer', async () => {
      const served = (await (await fetch(`${server.url}/v2/openapi.json`)).json()) as {
        paths: Record<string, Record<string, any>>;
      };
      const rule = (name: string) => [
        served.paths[`/${name}`]?.['x-gatehouse-ownership'],
        served.paths[`/${name}`]?.['x-gatehouse-client-access'],
      ];
      assert.deepEqual(COLLECTIONS.map(rule), [
        ['owner', 'none'],
        ['shared', 'read-write'],
        ['owner', 'read'],
        ['owner', 'read-write'],
      ]);
      assert.match(served.paths['/boards']?.['description'], /Records are shared/);
      assert.match(served.paths['/notes']?.get.responses['403'].description, /owner-required/);
      assert.match(served.paths['/reports']?.post.responses['403'].description, /owner-required/);
      assert.doesNotMatch(served.paths['/reports']?.get.responses['403'].description, /owner-required/);
    });

    it('a property: over random users and operations, each answer is what a model of who owns what predicts', async () => {
      type User = keyof typeof users;
      /** The model: every note the property created, its owner, and whether it still exists. */
      const model = new Map<string, { owner: User; exists: boolean }>();
      const known = () => [...model.keys()];
      const user = fc.constantFrom<User>('alice', 'bob', 'carol');
      const operation = fc.oneof(
        fc.record({ op: fc.constant('create' as const), user }),
        fc.record({ op: fc.constantFrom('read' as const, 'patch' as const, 'delete' as const), user, pick: fc.nat() }),
        fc.record({ op: fc.constant('list' as const), user }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
          for (const step of operations) {
            const rest = users[step.user];
            if (step.op === 'create') {
              model.set(await create(rest, 'notes', step.user), { owner: step.user, exists: true });
              continue;
            }
            if (step.op === 'list') {
              const own = known().filter((id) => model.get(id)?.owner === step.user && model.get(id)?.exists);
              const listed = (await listedIds(rest, '/v2/notes')).filter((id) => model.has(id));
              assert.deepEqual(listed, own);
              continue;
            }
            const ids = known();
            const id = ids.length === 0 ? '0nosuchnote00000' : (ids[step.pick % ids.length] as string);
            const entry = model.get(id);
            const reaches = entry?.exists === true && entry.owner === step.user;
            const path = `/v2/notes/${id}`;
            const answer =
              step.op === 'read'
                ? await rest.get(path)
                : step.op === 'patch'
                  ? await rest.patch(path, { title: 'patched' })
                  : await rest.delete(path);
            if (!reaches) assertNotFound(answer, 'notes', id);
            else assert.equal(answer.status, step.op === 'delete' ? 204 : 200, answer.text);
            if (reaches && step.op === 'delete') model.set(id, { owner: step.user, exists: false });
          }
        }),
        { numRuns: 12 },
      );
    });
  });

describe('a document declaring an unknown rule stops the start, naming where', () => {
  for (const [extension, value] of [
    ['x-gatehouse-ownership', 'mine'],
    ['x-gatehouse-client-access', 'write'],
  ] as const)
    it(`${extension}: ${value} is refused, the pointer and the values it takes in the message`, () => {
      assert.throws(
        () => apiDefinitionFrom(ownershipDocument({ [extension]: value }), 'bad-rule'),
        (error: unknown) =>
          error instanceof ApiDefinitionError &&
          error.message.includes(`/paths/~1notes/${extension}`) &&
          error.message.includes('must be one of'),
      );
    });
});
