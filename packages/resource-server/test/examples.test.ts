import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../../server/test/_until.js';
import { startGatehouse, type Gatehouse } from './_gatehouse.js';

interface RunningExample {
  readonly url: string;
  close(): Promise<void>;
}
interface ExampleModule {
  readonly start: (options: Record<string, unknown>) => Promise<RunningExample>;
}

const EXAMPLES = ['express-api', 'fastify-api'] as const;
/** How long an introspection answer is reused by the examples under test. */
const CACHE_MS = 300;

for (const example of EXAMPLES) {
  describe(`examples/${example} behind a real Gatehouse`, () => {
    let gatehouse: Gatehouse;
    let api: RunningExample;
    let app: { id: string; secret: string };

    before(async () => {
      gatehouse = await startGatehouse();
      app = await gatehouse.addClient('notes-app', ['notes:read', 'notes:write']);
      const rs = await gatehouse.addClient('notes-api', [], true);
      const url = new URL(`../../../examples/${example}/app.js`, import.meta.url).href;
      const { start } = (await import(url)) as ExampleModule;
      api = await start({
        port: 0,
        issuer: gatehouse.issuer,
        introspection: { clientId: rs.id, clientSecret: rs.secret, cacheMs: CACHE_MS },
        jwksCooldownMs: 100,
      });
    });
    after(async () => {
      await api?.close();
      await gatehouse?.close();
    });

    const call = (method: string, path: string, token?: string, body?: unknown) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('creates and reads a record with a token from the client-credentials grant', async () => {
      const token = await gatehouse.clientCredentialsToken(app, 'notes:read notes:write');
      const created = await call('POST', '/notes', token, { title: 'Buy milk', body: '2 litres' });
      assert.equal(created.status, 201);
      const note = (await created.json()) as { id: string; title: string };
      assert.equal(note.title, 'Buy milk');
      const read = await call('GET', `/notes/${note.id}`, token);
      assert.equal(read.status, 200);
      assert.deepEqual(await read.json(), note);
    });

    for (const method of ['POST', 'PUT'] as const) {
      it(`answers ${method} with a missing field with 400 and exactly the contract's detail`, async () => {
        const token = await gatehouse.clientCredentialsToken(app, 'notes:read notes:write');
        const created = (await (await call('POST', '/notes', token, { title: 't', body: 'b' })).json()) as {
          id: string;
        };
        const path = method === 'POST' ? '/notes' : `/notes/${created.id}`;
        const response = await call(method, path, token, { title: null, body: 'b', extra: 1 });
        assert.equal(response.status, 400);
        assert.equal(response.headers.get('content-type'), 'application/problem+json');
        const problem = (await response.json()) as Record<string, unknown>;
        assert.equal(problem['type'], `${gatehouse.issuer}/problems/missing-required-field`);
        assert.equal(problem['detail'], "Missing required field 'title' in request body");
        assert.deepEqual(problem['errors'], [
          {
            code: 'missing_required_field',
            field: 'title',
            pointer: '/title',
            detail: "Missing required field 'title' in request body",
          },
          {
            code: 'invalid_field_value',
            field: 'extra',
            pointer: '/extra',
            detail: "Unknown field 'extra' in request body",
          },
        ]);
      });
    }

    it('answers 422 for a value of the wrong type, never coercing it', async () => {
      const token = await gatehouse.clientCredentialsToken(app, 'notes:read notes:write');
      const response = await call('POST', '/notes', token, { title: 't', body: 'b', priority: '3' });
      assert.equal(response.status, 422);
      const problem = (await response.json()) as { type: string; errors: { pointer: string }[] };
      assert.equal(problem.type, `${gatehouse.issuer}/problems/invalid-field-value`);
      assert.deepEqual(
        problem.errors.map((e) => e.pointer),
        ['/priority'],
      );
    });

    it('answers malformed JSON, a body that is not JSON and an oversized body with catalog problems', async () => {
      const token = await gatehouse.clientCredentialsToken(app, 'notes:read notes:write');
      const post = (contentType: string, body: string) =>
        fetch(`${api.url}/notes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
          body,
        });
      const answers = [
        await post('application/json', '{"title":'),
        await post('text/plain', 'a note'),
        await post('application/json', JSON.stringify({ title: 't', body: 'x'.repeat(2 * 1024 * 1024) })),
      ];
      const types = await Promise.all(
        answers.map(async (r) => `${r.status} ${((await r.json()) as { type: string }).type}`),
      );
      assert.deepEqual(types, [
        `400 ${gatehouse.issuer}/problems/malformed-json`,
        `415 ${gatehouse.issuer}/problems/unsupported-media-type`,
        `413 ${gatehouse.issuer}/problems/payload-too-large`,
      ]);
    });

    it('challenges a request without a token and one without the scope the operation asks for', async () => {
      const anonymous = await call('GET', '/notes');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="api"');
      const reader = await gatehouse.clientCredentialsToken(app, 'notes:read');
      const refused = await call('POST', '/notes', reader, { title: 't', body: 'b' });
      assert.equal(refused.status, 403);
      assert.equal(
        refused.headers.get('www-authenticate'),
        'Bearer realm="api", error="insufficient_scope", scope="notes:write"',
      );
      assert.equal(
        ((await refused.json()) as { type: string }).type,
        `${gatehouse.issuer}/problems/insufficient-scope`,
      );
      assert.equal((await call('GET', '/health')).status, 200, 'an operation with security: [] is public');
    });

    it('refuses a token of a grant revoked with `gatehouse grants revoke` once the cache period has passed', async () => {
      const grant = await gatehouse.issueGrant(app.id, ['notes:read']);
      assert.equal((await call('GET', '/notes', grant.access_token)).status, 200);
      await gatehouse.cli('grants', 'revoke', grant.grant_id);
      const refusedNow = async (): Promise<boolean> => (await call('GET', '/notes', grant.access_token)).status === 401;
      await until(refusedNow, 'the revoked grant is refused once the cached answer expires', 5000);
      const refused = await call('GET', '/notes', grant.access_token);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="api", error="invalid_token"');
    });

    it('accepts tokens signed by a key rotated in with `gatehouse keys rotate --now`, with no restart', async () => {
      const before = await gatehouse.clientCredentialsToken(app, 'notes:read');
      assert.equal((await call('GET', '/notes', before)).status, 200);
      await gatehouse.cli('keys', 'rotate', '--now');
      await gatehouse.server.context.keys.reload(); // what each Gatehouse process does every minute
      const after = await gatehouse.clientCredentialsToken(app, 'notes:read');
      assert.notEqual(kidOf(after), kidOf(before), 'the new token is signed by the rotated-in key');
      // The kit fetches the key set again for an unknown kid, at most once per its cooldown.
      const accepted = async (): Promise<boolean> => (await call('GET', '/notes', after)).status === 200;
      await until(accepted, 'the new key is fetched once the key-set cooldown has passed', 5000);
      assert.equal((await call('GET', '/notes', before)).status, 200, 'the old key is still published');
    });
  });
}

function kidOf(jwt: string): string {
  const header = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid: string };
  return header.kid;
}
