import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../src/cli/run.js';
import { assertionFields, clientAssertion, clientKeyPair, type ClientKeyPair } from './_client-keys.js';
import { DIALECTS, freshDatabase } from './_dialects.js';
import { spawnServer, type ServerProcess } from './_processes.js';
import { postForm, SHIPPED_OPENAPI } from './_server.js';
import { authorizationQuery, CALLBACK, pkce } from './_authorize.js';

const ISSUER = 'http://gatehouse.test';
const CLIENT_CREDENTIALS = { grant_type: 'client_credentials', scope: 'contacts:read' };

for (const dialect of DIALECTS)
  describe(`client assertions and pushed requests across two gatehouse serve processes [${dialect}]`, () => {
    let database: { url: string; drop(): Promise<void> };
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let keys: ClientKeyPair;

    async function cli(...argv: string[]): Promise<Record<string, unknown>> {
      let out = '';
      let err = '';
      const code = await runCli(argv, env, { out: (t) => (out += t), err: (t) => (err += t) });
      assert.equal(code, 0, `gatehouse ${argv.join(' ')}: ${err}`);
      return JSON.parse(out) as Record<string, unknown>;
    }

    before(async () => {
      database = await freshDatabase(dialect);
      env = { DATABASE_URL: database.url, ISSUER, OPENAPI_PATH: SHIPPED_OPENAPI };
      await cli('migrate');
      keys = await clientKeyPair();
      const added = await cli(
        'clients',
        'add',
        '--id',
        'keyed',
        '--name',
        'Keyed',
        '--scope',
        'contacts:read',
        '--redirect-uri',
        CALLBACK,
        '--jwks',
        JSON.stringify(keys.jwks),
      );
      assert.equal(added.client_secret, undefined);
      assert.equal(added.token_endpoint_auth_method, 'private_key_jwt');
      [a, b] = await Promise.all([
        spawnServer({ ...env, AUTO_MIGRATE: 'false' }),
        spawnServer({ ...env, AUTO_MIGRATE: 'false' }),
      ]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
      await database?.drop();
    });

    const now = (): number => Math.floor(Date.now() / 1000);
    const asserted = (server: ServerProcess, jwt: string): Promise<Response> =>
      postForm(`${server.url}/token`, { ...CLIENT_CREDENTIALS, client_id: 'keyed', ...assertionFields(jwt) });

    it('an assertion used at one process is refused at the other (RFC 7523 §3 item 7: jti used once)', async () => {
      const jwt = await clientAssertion(keys, 'keyed', ISSUER, now());
      assert.equal((await asserted(a, jwt)).status, 200);
      const replayed = await asserted(b, jwt);
      assert.equal(replayed.status, 401);
      assert.equal(((await replayed.json()) as { error: string }).error, 'invalid_client');
    });

    it('one assertion sent 20 times at once over both processes authenticates exactly once', async () => {
      const jwt = await clientAssertion(keys, 'keyed', ISSUER, now());
      const statuses = (await Promise.all(Array.from({ length: 20 }, (_, i) => asserted(i % 2 ? a : b, jwt)))).map(
        (r) => r.status,
      );
      assert.equal(statuses.filter((s) => s === 200).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 401).length, 19, JSON.stringify(statuses));
    });

    it('a request_uri pushed at one process is used once, whichever process the browsers reach', async () => {
      const form = Object.fromEntries(new URLSearchParams(authorizationQuery('keyed', pkce().challenge)));
      const jwt = await clientAssertion(keys, 'keyed', ISSUER, now());
      const pushed = await postForm(`${a.url}/par`, { ...form, ...assertionFields(jwt) });
      assert.equal(pushed.status, 201);
      const { request_uri } = (await pushed.json()) as { request_uri: string };
      const query = new URLSearchParams({ client_id: 'keyed', request_uri }).toString();
      const statuses = (
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            fetch(`${(i % 2 ? a : b).url}/authorize?${query}`, { redirect: 'manual' }),
          ),
        )
      ).map((r) => r.status);
      assert.deepEqual(statuses.sort(), [200, 400, 400, 400, 400, 400]);
    });
  });
