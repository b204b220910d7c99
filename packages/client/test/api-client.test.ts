import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ApiClient,
  LocalValidationError,
  MemoryTokenStore,
  ProblemResponseError,
  TokenManager,
  type CollectionClient,
} from '@gatehouse/client';
import { CALLBACK, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { isRefresh } from './_proxy.js';

interface Contact {
  email: string;
  name?: string;
}

const missing = (field: string): string => `Missing required field '${field}' in request body`;

describe('ApiClient against Gatehouse', () => {
  let gatehouse: Gatehouse;
  let manager: TokenManager;
  let contacts: CollectionClient<Contact>;
  before(async () => {
    gatehouse = await startGatehouse();
    const client = await gatehouse.addClient({ id: 'api', public: true });
    manager = new TokenManager({
      issuer: gatehouse.issuer,
      clientId: client.id,
      redirectUri: CALLBACK,
      store: new MemoryTokenStore(),
    });
    await manager.setTokens(await gatehouse.issueGrant(client.id));
    const api = await ApiClient.fromServer({ baseUrl: gatehouse.apiBase, tokens: manager, retry: { baseDelayMs: 1 } });
    contacts = api.collection<Contact>('contacts');
    await contacts.create({ email: 'warm@example.com' }); // discovery and a first call, so the counts below see only what a test does
  });
  after(() => gatehouse.close());

  /** Runs `work` and returns what reached the server meanwhile. */
  async function trafficOf(work: () => Promise<unknown>): Promise<string[]> {
    const mark = gatehouse.proxy.exchanges.length;
    await work().catch(() => undefined);
    return gatehouse.proxy.exchanges.slice(mark).map((e) => `${e.method} ${e.path} ${e.status}`);
  }

  test('a body missing email throws the contract message locally, and the server sees no request', async () => {
    const body = { name: 'Ada' } as unknown as Contact;
    const traffic = await trafficOf(async () => {
      const error = await contacts.create(body).then(
        () => assert.fail('refused'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof LocalValidationError);
      assert.equal(error.message, missing('email'));
      assert.equal(error.code, 'ERR_LOCAL_VALIDATION');
      assert.equal(error.problemCode, 'missing_required_field');
      assert.equal(error.status, 400);
      assert.deepEqual(error.errors, [
        { code: 'missing_required_field', field: 'email', pointer: '/email', detail: missing('email') },
      ]);
    });
    assert.deepEqual(traffic, []);
  });

  test('email set to null is missing too, for create, replace and patch alike', async () => {
    const { record } = await contacts.create({ email: 'ada@example.com', name: 'Ada' });
    const traffic = await trafficOf(async () => {
      await assert.rejects(contacts.create({ email: null } as unknown as Contact), { message: missing('email') });
      await assert.rejects(contacts.replace(record.id, { name: 'Ada' } as unknown as Contact), {
        message: missing('email'),
      });
      await assert.rejects(contacts.patch(record.id, { email: null }), {
        message: missing('email'),
        problemCode: 'missing_required_field',
      });
    });
    assert.deepEqual(traffic, []);
  });

  test('the local refusal is the one the server would have answered', async () => {
    const body = { name: 'Ada', nickname: 'countess' };
    const local = await contacts.create(body as unknown as Contact).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(local instanceof LocalValidationError);
    const response = await fetch(`${gatehouse.apiBase}/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await manager.getAccessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const problem = (await response.json()) as { status: number; detail: string; errors: unknown };
    assert.equal(response.status, local.status);
    assert.equal(problem.detail, local.detail);
    assert.deepEqual(problem.errors, local.errors);
  });

  /** What the server answers to `body` sent as JSON by `method` to `path`, bypassing the SDK. */
  async function serverAnswer(method: string, path: string, body: unknown, contentType = 'application/json') {
    const response = await fetch(`${gatehouse.apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${await manager.getAccessToken()}`, 'content-type': contentType },
      body: JSON.stringify(body),
    });
    const problem = (await response.json()) as { type: string; detail: string; errors?: unknown };
    return { status: response.status, problem };
  }

  test('a body nested deeper than 64 levels gets the same answer locally as from the server: 400 malformed-json', async () => {
    const nest = (depth: number): unknown => (depth === 0 ? 'leaf' : { n: nest(depth - 1) });
    const { record } = await contacts.create({ email: 'deep@example.com' });
    for (const [label, send, method, path, contentType] of [
      ['create', (b: unknown) => contacts.create(b as Contact), 'POST', '/contacts', 'application/json'],
      [
        'replace',
        (b: unknown) => contacts.replace(record.id, b as Contact),
        'PUT',
        `/contacts/${record.id}`,
        'application/json',
      ],
      [
        'patch',
        (b: unknown) => contacts.patch(record.id, b as Contact),
        'PATCH',
        `/contacts/${record.id}`,
        'application/merge-patch+json',
      ],
    ] as const) {
      const body = { email: 'deep@example.com', extra: nest(64) };
      const local = await send(body).then(
        () => assert.fail(`${label} refused`),
        (e: unknown) => e,
      );
      assert.ok(local instanceof LocalValidationError, label);
      const server = await serverAnswer(method, path, body, contentType);
      assert.equal(server.status, 400, label);
      assert.equal(server.problem.type, '/problems/malformed-json', label);
      assert.equal(local.status, server.status, label);
      assert.equal(local.problemCode, 'malformed_json', label);
      assert.equal(local.detail, server.problem.detail, label);
      assert.deepEqual(local.errors, server.problem.errors ?? [], label);
    }
  });

  test('a record as GET returned it can be replaced as it is; another id is refused locally as by the server (422)', async () => {
    const { record } = await contacts.create({ email: 'back@example.com', name: 'Back' });
    const { record: read } = await contacts.get(record.id);
    assert.deepEqual((await contacts.replace(record.id, read)).record, read);
    const other = { ...read, id: 'not-this-one' };
    const local = await contacts.replace(record.id, other).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(local instanceof LocalValidationError);
    const server = await serverAnswer('PUT', `/contacts/${record.id}`, other);
    assert.equal(local.status, server.status);
    assert.equal(local.detail, server.problem.detail);
    assert.deepEqual(local.errors, server.problem.errors);
    await assert.rejects(contacts.patch(record.id, { id: 'not-this-one' } as never), { status: 422 });
  });

  test('an empty email is an invalid value, not a missing field', async () => {
    const error = await contacts.create({ email: '' }).then(
      () => assert.fail('refused'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LocalValidationError);
    assert.equal(error.status, 422);
    assert.equal(error.problemCode, 'invalid_field_value');
    assert.doesNotMatch(error.message, /Missing required field/);
  });

  test('create, get, replace with If-Match, patch, list by pages, remove', async () => {
    const created = await contacts.create({ email: 'grace@example.com', name: 'Grace' });
    assert.equal(created.record.email, 'grace@example.com');
    assert.ok(created.etag);
    assert.deepEqual((await contacts.get(created.record.id)).record, created.record);
    const replaced = await contacts.replace(
      created.record.id,
      { email: 'grace@navy.example' },
      { ifMatch: created.etag },
    );
    assert.deepEqual(replaced.record, { id: created.record.id, email: 'grace@navy.example' });
    const stale = await contacts.replace(created.record.id, { email: 'x@example.com' }, { ifMatch: created.etag }).then(
      () => assert.fail('stale'),
      (e: unknown) => e,
    );
    assert.ok(stale instanceof ProblemResponseError);
    assert.equal(stale.status, 412);
    assert.equal(stale.problemCode, 'precondition_failed');
    const patched = await contacts.patch(created.record.id, { name: 'Grace Hopper' });
    assert.equal(patched.record.name, 'Grace Hopper');

    const first = await contacts.list({ limit: 1 });
    assert.equal(first.items.length, 1);
    assert.ok(first.next_cursor);
    const second = await contacts.list({ limit: 1, cursor: first.next_cursor });
    assert.notEqual(second.items[0]?.id, first.items[0]?.id);

    await contacts.remove(created.record.id, { ifMatch: patched.etag });
    const gone = await contacts.get(created.record.id).then(
      () => assert.fail('deleted'),
      (e: unknown) => e,
    );
    assert.ok(gone instanceof ProblemResponseError);
    assert.equal(gone.problemCode, 'not_found');
    assert.equal(gone.problem.type, '/problems/not-found');
  });

  test('a 401 from the API gets one refresh and one retry', async () => {
    gatehouse.clock.advance(6 * 60); // the server now finds the access token expired; the SDK's clock does not move
    try {
      const traffic = await trafficOf(() => contacts.list());
      assert.deepEqual(
        traffic.filter((t) => t.includes(' /v2/')),
        ['GET /v2/contacts 401', 'GET /v2/contacts 200'],
      );
      assert.equal(gatehouse.proxy.exchanges.filter(isRefresh).length, 1);
    } finally {
      gatehouse.clock.advance(-6 * 60);
    }
  });

  test('an unknown collection is a programming error', () => {
    assert.throws(
      () =>
        new ApiClient({
          baseUrl: gatehouse.apiBase,
          document: { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} },
          tokens: manager,
        }).collection('contacts'),
      TypeError,
    );
  });
});
