import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli } from '../src/cli/run.js';
import { pgbouncerUnavailable, startPgBouncer, type PgBouncer } from './_pgbouncer.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { postForm, SHIPPED_OPENAPI, type TestClient } from './_server.js';

/**
 * PostgreSQL as production often runs it (docs/deployment.md "PgBouncer"): two
 * `gatehouse serve` processes behind a PgBouncer of the test's own in transaction pooling, in front
 * of the machine's PostgreSQL. A pooler of that kind hands each transaction whichever server
 * connection is free, so the store keeps no session state (no startup parameters, no session SET,
 * no advisory lock across statements, no LISTEN, no named prepared statements): the refresh contract
 * holds through it exactly as on a direct connection.
 *
 * The database is a fresh one of its own (not a schema: PgBouncer refuses the `options` startup
 * parameter that selects a schema by search_path), dropped at the end.
 */
const unavailable = pgbouncerUnavailable();
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ISSUER = 'http://gatehouse.test';

async function direct<R extends pg.QueryResultRow>(text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describe(
  'two gatehouse processes behind PgBouncer in transaction pooling: the refresh contract holds',
  { skip: unavailable !== undefined && process.env.CI !== 'true' ? unavailable : false },
  () => {
    const database = `gh_pgbouncer_${randomBytes(6).toString('hex')}`;
    let bouncer: PgBouncer;
    let env: Record<string, string>;
    const servers: ServerProcess[] = [];
    let client: TestClient;

    async function cli(...argv: string[]): Promise<Record<string, string>> {
      let out = '';
      let err = '';
      const code = await runCli(argv, env, { out: (t) => (out += t), err: (t) => (err += t) });
      assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
      return JSON.parse(out) as Record<string, string>;
    }
    const issue = async (user: string, scope = 'contacts:read'): Promise<Record<string, string>> =>
      cli('grants', 'issue', '--client', 'app', '--user', user, '--scope', scope);
    const refresh = (server: ServerProcess, token: string): Promise<Response> =>
      postForm(`${server.url}/token`, { grant_type: 'refresh_token', refresh_token: token }, { as: client });
    const refusal = async (response: Response): Promise<string> => {
      assert.equal(response.status, 400);
      const body = (await response.json()) as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_grant');
      return body.error_description;
    };

    before(async () => {
      if (unavailable) throw new Error(unavailable);
      await direct(`create database ${database}`);
      const server = new URL(POSTGRES_URL);
      // Few server connections for 2 processes × 10 pool slots each, so that transactions share them.
      bouncer = await startPgBouncer(`${server.hostname}:${server.port || '5432'}`, { poolSize: 4 });
      env = { DATABASE_URL: bouncer.url(database), ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
      // The migrations too run through the pooler (their lock is a transaction's: pg_advisory_xact_lock).
      await cli('migrate');
      const added = await cli(
        'clients',
        'add',
        '--id',
        'app',
        '--name',
        'App',
        '--scope',
        'contacts:read contacts:write',
      );
      client = { id: 'app', secret: added.client_secret ?? null };
      for (const user of ['alice', 'bob', 'carol', 'dave']) await cli('users', 'add', '--username', user);
      for (let i = 0; i < 2; i++) servers.push(await spawnServer({ ...env, AUTO_MIGRATE: 'false' }));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await bouncer?.destroy();
      await direct(`drop database if exists ${database} with (force)`).catch(() => {});
    });

    it('the processes reach PostgreSQL through the pooler only, sharing its few server connections', async () => {
      const [a] = servers as [ServerProcess];
      assert.equal((await refresh(a, (await issue('alice')).refresh_token as string)).status, 200);
      const pools = await bouncer.show<{ database: string; pool_mode: string; cl_active: string; sv_idle: string }>(
        'POOLS',
      );
      const ours = pools.find((p) => p.database === database);
      assert.ok(ours, `no pool of ${database}: ${JSON.stringify(pools)}`);
      assert.equal(ours.pool_mode, 'transaction');
      const servers_ = await direct<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = '${database}' and backend_type = 'client backend'`,
      );
      assert.ok(Number(servers_[0]?.n) <= 4, `at most default_pool_size server connections: ${servers_[0]?.n}`);
    });

    it('rotation (RFC 9700 §4.14.2): a refresh on one process returns a new refresh token; the old one is refused on the other', async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const { refresh_token: first } = await issue('alice');
      const rotated = await refresh(a, first as string);
      assert.equal(rotated.status, 200);
      const { refresh_token: second, access_token } = (await rotated.json()) as Record<string, string>;
      assert.ok(second && second !== first && access_token);
      // The successor works on the other process, and rotates again.
      const again = await refresh(b, second);
      assert.equal(again.status, 200);
      assert.equal(await refusal(await refresh(b, second)), 'refresh token is past its rotation limit');
    });

    it('replay of a rotated token (RFC 9700 §4.14.2) revokes the family: the newest token then fails as revoked on either process', async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const { refresh_token: old } = await issue('bob');
      const rotated = await refresh(a, old as string);
      const { refresh_token: newest } = (await rotated.json()) as Record<string, string>;
      assert.equal(await refusal(await refresh(b, old as string)), 'refresh token is past its rotation limit');
      assert.equal(await refusal(await refresh(a, newest as string)), 'refresh token has been revoked');
      const introspected = await postForm(`${b.url}/introspect`, { token: newest as string }, { as: client });
      assert.deepEqual(await introspected.json(), { active: false });
    });

    it('of 50 concurrent refreshes of one single-use token spread over both processes exactly one succeeds, the rest invalid_grant, none a 5xx', async () => {
      const { refresh_token } = await issue('carol');
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => refresh(servers[i % 2] as ServerProcess, refresh_token as string)),
      );
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${JSON.stringify(statuses)}`);
      let winner = '';
      for (const response of responses)
        if (response.status === 200) winner = ((await response.json()) as { refresh_token: string }).refresh_token;
        else assert.equal(await refusal(response), 'refresh token is past its rotation limit');
      // The losers were replays, so the family ends revoked (RFC 9700 §4.14.2).
      assert.equal(await refusal(await refresh(servers[0] as ServerProcess, winner)), 'refresh token has been revoked');
    });

    it('the REST missing-field 400 with its bearer check, and a record created on one process read on the other', async () => {
      const [a, b] = servers as [ServerProcess, ServerProcess];
      const { access_token } = await issue('dave', 'contacts:read contacts:write');
      const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
      const missing = await fetch(`${a.url}/v2/contacts`, { method: 'POST', headers, body: '{}' });
      assert.equal(missing.status, 400);
      assert.equal(
        ((await missing.json()) as { detail: string }).detail,
        "Missing required field 'email' in request body",
      );
      const created = await fetch(`${a.url}/v2/contacts`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: 'dave@example.com' }),
      });
      assert.equal(created.status, 201);
      const read = await fetch(`${b.url}${created.headers.get('location')}`, { headers });
      assert.equal(read.status, 200);
      assert.equal(((await read.json()) as { email: string }).email, 'dave@example.com');
    });

    it('nothing the store did left session state behind on the server connections (no SET, LISTEN, advisory lock, prepared statement)', async () => {
      const rows = await direct<{ locks: string; listening: string }>(
        `select (select count(*) from pg_locks l join pg_stat_activity a on a.pid = l.pid
                  where l.locktype = 'advisory' and a.datname = '${database}') as locks,
                (select count(*) from pg_stat_activity where datname = '${database}'
                  and query ilike 'listen%') as listening`,
      );
      assert.deepEqual(rows[0], { locks: '0', listening: '0' });
      for (const server of servers) assert.equal(server.child.exitCode, null, server.output());
      assert.doesNotMatch(bouncer.log(), /unsupported startup parameter|prepared statement .* does not exist/i);
    });
  },
);
