import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { postForm, SHIPPED_OPENAPI, type TestClient } from './_server.js';

const ISSUER = 'http://gatehouse.test';

for (const dialect of DIALECTS)
  describe(`two gatehouse serve processes sharing one database [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let client: TestClient;

    /** Runs the operator CLI on the shared database and parses its JSON. */
    async function cli(...argv: string[]): Promise<Record<string, string>> {
      let out = '';
      const code = await runCli(argv, env, { out: (t) => (out += t), err: () => {} });
      assert.equal(code, 0, `gatehouse ${argv.join(' ')}`);
      return JSON.parse(out) as Record<string, string>;
    }

    before(async () => {
      database = await freshDatabase(dialect);
      env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
      await cli('migrate');
      const added = await cli(
        'clients',
        'add',
        '--id',
        'shared',
        '--name',
        'Shared',
        '--scope',
        'contacts:read contacts:write',
      );
      client = { id: 'shared', secret: added.client_secret ?? null };
      // A grant is a user's: the users the tests issue grants of.
      for (const username of ['alice', 'bob', 'carol']) await cli('users', 'add', '--username', username);
      [a, b] = await Promise.all([
        spawnServer({ ...env, AUTO_MIGRATE: 'false' }),
        spawnServer({ ...env, AUTO_MIGRATE: 'false' }),
      ]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database.drop();
    });

    it('100 concurrent refreshes of one single-use token spread over both give exactly one 200, the rest invalid_grant, no 5xx', async () => {
      const { refresh_token } = await cli(
        'grants',
        'issue',
        '--client',
        'shared',
        '--user',
        'alice',
        '--scope',
        'contacts:read',
      );
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          postForm(
            `${(i % 2 === 0 ? a : b).url}/token`,
            { grant_type: 'refresh_token', refresh_token: refresh_token as string },
            { as: client },
          ),
        ),
      );
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${JSON.stringify(statuses)}`);
      for (const r of responses.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400);
        assert.equal(((await r.json()) as { error: string }).error, 'invalid_grant');
      }
    });

    it('with a replay window, 100 concurrent refreshes of one token spread over both all answer 200 with the same successor', async () => {
      const added = await cli(
        'clients',
        'add',
        '--id',
        'tabs',
        '--name',
        'Tabs',
        '--replay-window',
        '30s',
        '--scope',
        'contacts:read',
      );
      const tabs = { id: 'tabs', secret: added.client_secret ?? null };
      const { refresh_token } = await cli(
        'grants',
        'issue',
        '--client',
        'tabs',
        '--user',
        'alice',
        '--scope',
        'contacts:read',
      );
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          postForm(
            `${(i % 2 === 0 ? a : b).url}/token`,
            { grant_type: 'refresh_token', refresh_token: refresh_token as string },
            { as: tabs },
          ),
        ),
      );
      const statuses = responses.map((r) => r.status);
      assert.deepEqual(new Set(statuses), new Set([200]), `statuses: ${JSON.stringify(statuses)}`);
      const successors = new Set(
        await Promise.all(responses.map(async (r) => ((await r.json()) as { refresh_token: string }).refresh_token)),
      );
      assert.equal(successors.size, 1, 'one successor for every answer');
    });

    it('a revocation on one is seen by introspection and refresh on the other at once', async () => {
      const { refresh_token } = await cli(
        'grants',
        'issue',
        '--client',
        'shared',
        '--user',
        'bob',
        '--scope',
        'contacts:read',
      );
      const before = await postForm(`${b.url}/introspect`, { token: refresh_token as string }, { as: client });
      assert.equal(((await before.json()) as { active: boolean }).active, true);
      assert.equal((await postForm(`${a.url}/revoke`, { token: refresh_token as string }, { as: client })).status, 200);
      assert.deepEqual(
        await (await postForm(`${b.url}/introspect`, { token: refresh_token as string }, { as: client })).json(),
        { active: false },
      );
      const refused = await postForm(
        `${b.url}/token`,
        { grant_type: 'refresh_token', refresh_token: refresh_token as string },
        { as: client },
      );
      assert.equal(
        ((await refused.json()) as { error_description: string }).error_description,
        'refresh token has been revoked',
      );
    });

    it('a record created on one is read on the other, with an access token the first one signed', async () => {
      const tokens = await cli(
        'grants',
        'issue',
        '--client',
        'shared',
        '--user',
        'carol',
        '--scope',
        'contacts:read contacts:write',
      );
      const rotated = await postForm(
        `${a.url}/token`,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
        { as: client },
      );
      const { access_token } = (await rotated.json()) as { access_token: string };
      const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
      const created = await fetch(`${a.url}/v2/contacts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'carol@example.com' }),
      });
      assert.equal(created.status, 201);
      const read = await fetch(`${b.url}${created.headers.get('location')}`, { headers });
      assert.equal(read.status, 200);
      assert.equal(((await read.json()) as { email: string }).email, 'carol@example.com');
    });
  });

for (const dialect of DIALECTS)
  describe(`rate limits across two gatehouse serve processes [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let a: ServerProcess;
    let b: ServerProcess;
    let client: TestClient;

    before(async () => {
      database = await freshDatabase(dialect);
      const env = {
        DATABASE_URL: database.url,
        ISSUER,
        OPENAPI_PATH: SHIPPED_OPENAPI,
        RATE_LIMIT_INTROSPECT_CLIENT: '4/h',
      };
      let out = '';
      // Only serve and migrate create a database.
      assert.equal(await runCli(['migrate'], env, { out: () => {}, err: () => {} }), 0);
      assert.equal(
        await runCli(['clients', 'add', '--id', 'rs', '--name', 'Resource server'], env, {
          out: (t) => (out += t),
          err: () => {},
        }),
        0,
      );
      client = { id: 'rs', secret: (JSON.parse(out) as { client_secret: string }).client_secret };
      [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database.drop();
    });

    const introspect = (server: ServerProcess): Promise<Response> =>
      postForm(`${server.url}/introspect`, { token: 'unknown' }, { as: client });

    if (dialect === 'postgres') {
      it('on PostgreSQL the processes share the buckets: 2 + 2 requests use up a limit of 4, then both refuse with Retry-After', async () => {
        for (const server of [a, b, a, b]) assert.equal((await introspect(server)).status, 200);
        for (const server of [a, b]) {
          const refused = await introspect(server);
          assert.equal(refused.status, 429);
          const wait = Number(refused.headers.get('retry-after'));
          assert.ok(wait > 800 && wait <= 900, `Retry-After ${wait}: one request every 15 minutes`);
        }
      });
    } else {
      it('on SQLite each process keeps its own buckets (docs/deployment.md): each allows the limit', async () => {
        for (let i = 0; i < 4; i++) assert.equal((await introspect(a)).status, 200);
        assert.equal((await introspect(a)).status, 429);
        for (let i = 0; i < 4; i++) assert.equal((await introspect(b)).status, 200);
        assert.equal((await introspect(b)).status, 429);
      });
    }
  });
